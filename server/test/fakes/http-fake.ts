import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes as they came (uploads). */
  raw: Buffer;
  json: Record<string, unknown> | undefined;
}

export type FakeHandler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

/** A real HTTP server on loopback that records what it receives and answers with a swappable handler. */
export class HttpFake {
  readonly requests: RecordedRequest[] = [];
  #server = http.createServer((req, res) => void this.#handle(req, res));
  #handler: FakeHandler;
  url = '';

  constructor(handler: FakeHandler) {
    this.#handler = handler;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers with `handler` until reset. */
  use(handler: FakeHandler): void {
    this.#handler = handler;
  }

  last(): RecordedRequest {
    const request = this.requests[this.requests.length - 1];
    if (!request) throw new Error('the fake received no request');
    return request;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, raw, json };
    this.requests.push(recorded);
    try {
      await this.#handler(recorded, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'fake_error' } }));
    }
  }
}

export const sendJson = (res: http.ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

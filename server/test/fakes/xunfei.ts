import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export interface SparkScript {
  reply?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer the request with one error frame of this code. */
  errorCode?: number;
  functionCall?: { name: string; arguments: string };
}

export interface SparkCall {
  path: string;
  host: string;
  frame: Record<string, unknown>;
}

const AUTH =
  /^api_key="([^"]+)", algorithm="hmac-sha256", headers="host date request-line", signature="([^"]+)"$/;

/** A real WebSocket server that checks Spark's signed URL as iFlytek does, then answers in frames. */
export class SparkFake {
  readonly calls: SparkCall[] = [];
  readonly refusals: string[] = [];
  /** Answers cut short because the gateway closed the socket. */
  abandoned = 0;
  script: SparkScript = {};
  url = '';
  #http = http.createServer((_req, res) => res.writeHead(426).end());
  #wss = new WebSocketServer({ noServer: true });

  constructor(private readonly credentials: SparkCredentials) {
    this.#http.on('upgrade', (req, socket, head) => this.#upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  /** Why a handshake must be refused, or undefined when its signature is right and fresh. */
  #refusal(req: http.IncomingMessage): string | undefined {
    const url = new URL(req.url ?? '/', 'ws://placeholder');
    const date = url.searchParams.get('date') ?? '';
    const host = url.searchParams.get('host') ?? '';
    if (host !== req.headers.host) return 'host mismatch';
    const age = Math.abs(Date.now() - Date.parse(date));
    if (!date.endsWith('GMT') || !(age < 300_000))
      return 'HMAC signature cannot be verified, a valid date is required';
    const authorization = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString();
    const match = AUTH.exec(authorization);
    if (!match || match[1] !== this.credentials.apiKey) return 'HMAC signature cannot be verified';
    const signed = `host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`;
    const expected = createHmac('sha256', this.credentials.apiSecret).update(signed).digest('base64');
    return expected === match[2] ? undefined : 'HMAC signature does not match';
  }

  #upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const refusal = this.#refusal(req);
    if (refusal) {
      this.refusals.push(refusal);
      const body = JSON.stringify({ message: refusal });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const path = new URL(req.url ?? '/', 'ws://placeholder').pathname;
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once('message', (data) => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        this.calls.push({ path, host: req.headers.host ?? '', frame });
        void this.#answer(ws, frame);
      });
    });
  }

  async #answer(ws: WebSocket, frame: Record<string, unknown>): Promise<void> {
    const sid = `sid-${this.calls.length}`;
    const appId = (frame.header as { app_id?: string } | undefined)?.app_id;
    const code = appId === this.credentials.appId ? this.script.errorCode : 10015;
    if (code) {
      ws.send(JSON.stringify({ header: { code, message: `fake Spark error ${code}`, sid, status: 2 } }));
      ws.close();
      return;
    }
    const words = (this.script.reply ?? 'Hello from the fake Spark').split(' ');
    const usage = this.script.usage ?? { prompt_tokens: 15, completion_tokens: 10 };
    for (const [index, word] of words.entries()) {
      if (ws.readyState !== ws.OPEN) {
        this.abandoned += 1;
        return;
      }
      const last = index === words.length - 1 && !this.script.functionCall;
      const status = last ? 2 : index === 0 ? 0 : 1;
      const text = [{ content: index ? ` ${word}` : word, role: 'assistant', index: 0 }];
      ws.send(JSON.stringify(this.#frame(sid, status, index, text, last ? usage : undefined)));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (this.script.functionCall) {
      const text = [{ content: '', role: 'assistant', index: 0, function_call: this.script.functionCall }];
      ws.send(JSON.stringify(this.#frame(sid, 2, words.length, text, usage)));
    }
    ws.close();
  }

  #frame(sid: string, status: number, seq: number, text: unknown[], usage?: SparkScript['usage']) {
    return {
      header: { code: 0, message: 'Success', sid, status },
      payload: {
        choices: { status, seq, text },
        ...(usage
          ? {
              usage: {
                text: {
                  question_tokens: 4,
                  ...usage,
                  total_tokens: usage.prompt_tokens + usage.completion_tokens,
                },
              },
            }
          : {}),
      },
    };
  }
}

import type { FastifyReply } from 'fastify';
import type { ClientSink } from '../pipeline/client-sink';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
};

/** The caller's HTTP response, written directly (no buffering) so stream events leave as they arrive. */
export class ReplySink implements ClientSink {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  #corked = false;

  constructor(
    private readonly reply: FastifyReply,
    private readonly requestId: string,
  ) {
    reply.hijack();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) this.#controller.abort();
    });
  }

  get headersSent(): boolean {
    return this.reply.raw.headersSent;
  }

  setHeader(name: string, value: string): void {
    if (!this.reply.raw.headersSent) this.reply.raw.setHeader(name, value);
  }

  #head(status: number, headers: Record<string, string | number>): void {
    this.reply.raw.writeHead(status, { ...CORS_HEADERS, 'x-oneapi-request-id': this.requestId, ...headers });
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    if (this.reply.raw.destroyed) return;
    this.#head(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    this.reply.raw.end(body);
  }

  json(status: number, value: unknown): void {
    this.body(status, 'application/json', JSON.stringify(value));
  }

  /**
   * The head leaves with the first events (one packet, not two); the relay writes them at once.
   * A front whose clients stream something other than events (Gemini's JSON array) names its type.
   */
  startStream(contentType = 'text/event-stream; charset=utf-8'): void {
    this.#head(200, {
      'content-type': contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
  }

  /** Writes in the same tick (head, events, the closing [DONE]) leave in one packet. */
  write(data: string): void {
    const raw = this.reply.raw;
    if (raw.destroyed) return;
    if (!this.#corked) {
      this.#corked = true;
      raw.cork();
      process.nextTick(() => {
        this.#corked = false;
        raw.uncork();
      });
    }
    raw.write(data);
  }

  end(): void {
    if (!this.reply.raw.destroyed) this.reply.raw.end();
  }
}

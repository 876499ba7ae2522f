import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ClientGone } from '../client-signal';
import type { ClientSink } from '../pipeline/client-sink';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
};

/** The CORS headers as a flat [name, value, …] list, the form writeHead takes without copying. */
const CORS_HEADER_LIST = Object.entries(CORS_HEADERS).flat();

const STREAM_HEADER_LIST = [
  'cache-control',
  'no-cache',
  'connection',
  'keep-alive',
  'x-accel-buffering',
  'no',
];

/**
 * Whom an answer is for: the relay's answers allow any origin (one-api's CORS), the console's own
 * (the playground, signed in by its session) none.
 */
export interface AnswerAudience {
  cors: boolean;
}

export const RELAY_ANSWER: AnswerAudience = { cors: true };
export const CONSOLE_ANSWER: AnswerAudience = { cors: false };

/** A Fastify route's answer, taken from Fastify (hijacked) and written as a ReplySink. */
export const hijackedSink = (
  reply: FastifyReply,
  requestId: string,
  audience: AnswerAudience = RELAY_ANSWER,
): ReplySink => new ReplySink(reply.hijack().raw, requestId, audience);

/** The caller's HTTP response, written directly (no buffering) so stream events leave as they arrive. */
export class ReplySink implements ClientSink {
  readonly signal = new ClientGone();
  readonly #raw: ServerResponse;
  readonly #corsHeaders: string[];
  #corked = false;

  constructor(
    raw: ServerResponse,
    private readonly requestId: string,
    audience: AnswerAudience = RELAY_ANSWER,
  ) {
    this.#raw = raw;
    this.#corsHeaders = audience.cors ? CORS_HEADER_LIST : [];
    raw.once('close', () => {
      if (!raw.writableFinished) this.signal.abort();
    });
  }

  get headersSent(): boolean {
    return this.#raw.headersSent;
  }

  setHeader(name: string, value: string): void {
    if (!this.#raw.headersSent) this.#raw.setHeader(name, value);
  }

  #head(status: number, headers: Array<string | number>): void {
    this.#raw.writeHead(status, [
      ...this.#corsHeaders,
      'x-oneapi-request-id',
      this.requestId,
      ...headers,
    ] as unknown as string[]);
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    if (this.#raw.destroyed) return;
    this.#head(status, ['content-type', contentType, 'content-length', Buffer.byteLength(body)]);
    this.#raw.end(body);
  }

  json(status: number, value: unknown): void {
    this.body(status, 'application/json', JSON.stringify(value));
  }

  /**
   * The head leaves with the first events (one packet, not two); the relay writes them at once.
   * A front whose clients stream something other than events (Gemini's JSON array) names its type.
   */
  startStream(contentType = 'text/event-stream; charset=utf-8'): void {
    this.#head(200, ['content-type', contentType, ...STREAM_HEADER_LIST]);
  }

  /** Writes in the same tick (head, events, the closing [DONE]) leave in one packet. */
  write(data: string): void {
    const raw = this.#raw;
    if (raw.destroyed) return;
    if (!this.#corked) {
      this.#corked = true;
      raw.cork();
      process.nextTick(() => this.#uncork());
    }
    raw.write(data);
  }

  end(): void {
    if (this.#raw.destroyed) return;
    // Ended while corked, Node sends the last writes and the closing chunk in one packet; the
    // uncork planned for later must not run after the end (Node 24 then loses what was corked).
    this.#corked = false;
    this.#raw.end();
  }

  #uncork(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#raw.uncork();
  }
}

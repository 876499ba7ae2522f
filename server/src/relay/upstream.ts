import { Agent, type Dispatcher } from 'undici';
import type { UpstreamRequest } from './adaptors/types';
import { clientClosed, upstreamUnreachable } from './errors';

export interface UpstreamResponse {
  status: number;
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}

/** Reads a whole upstream body (error answers, non-stream answers). */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Unread body bytes above which the upstream socket is paused until the relay catches up. */
const PAUSE_ABOVE_BYTES = 1024 * 1024;

/**
 * One upstream call on undici's dispatch interface: the head resolves `response`, body chunks are
 * handed to the relay as they arrive through a plain async iterator. This skips the Readable stream
 * that undici's `request()` builds for every call, which the relay does not need.
 */
class UpstreamExchange implements Dispatcher.DispatchHandler, AsyncIterableIterator<Uint8Array> {
  readonly response: Promise<UpstreamResponse>;
  #answer!: { resolve: (response: UpstreamResponse) => void; reject: (error: unknown) => void };
  #controller: Dispatcher.DispatchController | undefined;
  #chunks: Buffer[] = [];
  #queuedBytes = 0;
  #ended = false;
  #error: unknown;
  #reader:
    | { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void }
    | undefined;

  constructor(private readonly signal: AbortSignal) {
    this.response = new Promise((resolve, reject) => {
      this.#answer = { resolve, reject };
    });
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  readonly #onAbort = () => this.#controller?.abort(clientClosed());

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.signal.aborted) controller.abort(clientClosed());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    const contentType = headers['content-type'];
    this.#answer.resolve({
      status: statusCode,
      contentType: Array.isArray(contentType) ? (contentType[0] ?? '') : (contentType ?? ''),
      body: this,
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const reader = this.#reader;
    if (reader) {
      this.#reader = undefined;
      reader.resolve({ value: chunk, done: false });
      return;
    }
    this.#chunks.push(chunk);
    this.#queuedBytes += chunk.length;
    if (this.#queuedBytes > PAUSE_ABOVE_BYTES) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    this.#finish();
    this.#reader?.resolve({ value: undefined, done: true });
    this.#reader = undefined;
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#error = this.signal.aborted ? clientClosed() : error;
    this.#finish();
    this.#answer.reject(this.signal.aborted ? clientClosed() : upstreamUnreachable(error));
    this.#reader?.reject(this.#error);
    this.#reader = undefined;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const chunk = this.#chunks.shift();
    if (chunk) {
      this.#queuedBytes -= chunk.length;
      if (this.#controller?.paused && this.#queuedBytes <= PAUSE_ABOVE_BYTES / 2) this.#controller.resume();
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#reader = { resolve, reject };
    });
  }

  /** The reader stopped early (a `break`): the rest of the answer is not wanted. */
  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.#ended && this.#error === undefined) this.#controller?.abort(new Error('body no longer read'));
    this.#chunks = [];
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }

  #finish(): void {
    this.signal.removeEventListener('abort', this.#onAbort);
  }
}

/** One keep-alive connection pool for every upstream call, with a connect and an overall time limit. */
export class UpstreamClient {
  readonly #agent: Agent;

  constructor(timeoutMs: number) {
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: 1024,
      connect: { timeout: 10_000 },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  send(upstream: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    if (signal.aborted) return Promise.reject(clientClosed());
    let url: URL;
    try {
      url = new URL(upstream.url);
    } catch (error) {
      return Promise.reject(upstreamUnreachable(error));
    }
    const exchange = new UpstreamExchange(signal);
    try {
      this.#agent.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: upstream.method,
          headers: upstream.headers,
          body: upstream.body ?? null,
        },
        exchange,
      );
    } catch (error) {
      exchange.onResponseError(undefined as never, error as Error);
    }
    return exchange.response;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

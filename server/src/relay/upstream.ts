import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { boundedMemo } from '../bounded-memo';
import type { ClientSignal } from './client-signal';
import { atDeadline, cancelDeadline, type Deadline } from './deadlines';
import {
  clientClosed,
  RelayError,
  upstreamAnswerTooLarge,
  upstreamUnreachable,
  upstreamWentSilent,
} from './errors';

export interface UpstreamRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /** A stream is read once: an adaptor builds a fresh one per attempt (EncodedForm.stream). */
  body?: string | Buffer | Readable;
}

export interface UpstreamResponse {
  status: number;
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}

interface DispatchTarget {
  origin: string;
  path: string;
}

/** Upstream addresses whose origin and path are kept: a channel's calls go to the same few. */
const TARGETS_KEPT = 256;

/** An upstream address split for undici's dispatch, parsed once while its channel is busy. */
const dispatchTarget = boundedMemo(TARGETS_KEPT, (address: string): DispatchTarget => {
  const url = new URL(address);
  return { origin: url.origin, path: url.pathname + url.search };
});

/** The call's budget (RELAY_TIMEOUT) ran out before the channel's answer began. */
const upstreamTimedOut = () =>
  RelayError.upstream(504, 'The upstream channel did not answer in time', { code: 'upstream_timeout' });

/** Unread body bytes above which the upstream socket is paused until the relay catches up. */
const PAUSE_ABOVE_BYTES = 1024 * 1024;

/** An answer being read whole, and who waits for it. */
interface WholeRead {
  chunks: Buffer[];
  size: number;
  limit: number;
  resolve: (body: Buffer) => void;
  reject: (error: unknown) => void;
  late?: Deadline;
}

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
  /** Ends the wait for the answer's head (connecting included) when the budget runs out. */
  readonly #budget: Deadline;
  #timedOut = false;
  /** The answer being read whole (`readWhole`): its chunks go here as they arrive. */
  #whole: WholeRead | undefined;

  constructor(
    private readonly signal: ClientSignal,
    deadline: number,
  ) {
    this.response = new Promise((resolve, reject) => {
      this.#answer = { resolve, reject };
    });
    signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#budget = atDeadline(deadline, this.#onBudgetSpent);
  }

  readonly #onAbort = () => this.#controller?.abort(clientClosed());

  readonly #onBudgetSpent = () => {
    this.#timedOut = true;
    // The request may still wait for a socket: it is dropped once it gets one (onRequestStart).
    this.#controller?.abort(upstreamTimedOut());
    this.#answer.reject(upstreamTimedOut());
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.signal.aborted) controller.abort(clientClosed());
    else if (this.#timedOut) controller.abort(upstreamTimedOut());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // The answer has begun: from here only a silence (bodyTimeout) or the client leaving ends it.
    cancelDeadline(this.#budget);
    const contentType = headers['content-type'];
    this.#answer.resolve({
      status: statusCode,
      contentType: Array.isArray(contentType) ? (contentType[0] ?? '') : (contentType ?? ''),
      body: this,
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const whole = this.#whole;
    if (whole) {
      whole.chunks.push(chunk);
      whole.size += chunk.length;
      if (whole.size > whole.limit) this.#abandonWhole(upstreamAnswerTooLarge(whole.limit));
      return;
    }
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
    const whole = this.#takeWhole();
    whole?.resolve(Buffer.concat(whole.chunks, whole.size));
    this.#reader?.resolve({ value: undefined, done: true });
    this.#reader = undefined;
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#error = this.signal.aborted
      ? clientClosed()
      : (error as { code?: unknown }).code === 'UND_ERR_BODY_TIMEOUT'
        ? upstreamWentSilent()
        : error;
    this.#finish();
    this.#answer.reject(
      this.signal.aborted ? clientClosed() : this.#timedOut ? upstreamTimedOut() : upstreamUnreachable(error),
    );
    this.#reader?.reject(this.#error);
    this.#reader = undefined;
    this.#takeWhole()?.reject(this.#error);
  }

  /**
   * The whole answer in one promise, the chunks gathered as they arrive (no promise per chunk):
   * refused once it grows beyond `limit` bytes, or when it is not whole by `deadline`
   * (performance.now()); either way the rest is not read and the upstream call is aborted.
   */
  readWhole(limit: number, deadline: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const whole: WholeRead = { chunks: this.#chunks, size: this.#queuedBytes, limit, resolve, reject };
      this.#chunks = [];
      this.#queuedBytes = 0;
      if (this.#error !== undefined) reject(this.#error);
      else if (whole.size > limit) {
        this.#whole = whole;
        this.#abandonWhole(upstreamAnswerTooLarge(limit));
      } else if (this.#ended) resolve(Buffer.concat(whole.chunks, whole.size));
      else {
        this.#whole = whole;
        whole.late = atDeadline(deadline, () => this.#abandonWhole(upstreamWentSilent()));
        if (this.#controller?.paused) this.#controller.resume();
      }
    });
  }

  #abandonWhole(error: RelayError): void {
    const whole = this.#takeWhole();
    if (!whole) return;
    whole.reject(error);
    if (!this.#ended && this.#error === undefined) this.#controller?.abort(new Error('body no longer read'));
  }

  /** The answer being read whole, no longer waited for here (its deadline cancelled), to settle. */
  #takeWhole(): WholeRead | undefined {
    const whole = this.#whole;
    this.#whole = undefined;
    if (whole) cancelDeadline(whole.late);
    return whole;
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
    cancelDeadline(this.#budget);
    this.signal.removeEventListener('abort', this.#onAbort);
  }
}

/** RELAY_TIMEOUT and RELAY_CONNECT_TIMEOUT, in milliseconds; RELAY_ANSWER_LIMIT, in bytes. */
export interface UpstreamLimits {
  relayTimeoutMs: number;
  relayConnectTimeoutMs: number;
  relayAnswerLimit: number;
}

/**
 * One keep-alive connection pool for every upstream call. A relay call's budget (RELAY_TIMEOUT)
 * covers every attempt until an answer begins: each attempt gets what is left of it (`forCall`).
 * Connecting has its own, shorter limit so that an unreachable channel leaves time for the next.
 * Once a stream has begun, only a silence of RELAY_TIMEOUT ends it: a long stream runs its course.
 * An answer read whole (`readWhole`) must arrive whole within the call's budget, and be no larger
 * than RELAY_ANSWER_LIMIT.
 */
export class UpstreamClient {
  readonly #agent: Agent;
  readonly #limits: UpstreamLimits;
  /** performance.now() by which an answer must begin; unset: RELAY_TIMEOUT from each send. */
  readonly #deadline: number | undefined;

  constructor(limits: UpstreamLimits, shared?: { agent: Agent; deadline: number }) {
    this.#limits = limits;
    this.#deadline = shared?.deadline;
    this.#agent =
      shared?.agent ??
      new Agent({
        keepAliveTimeout: 30_000,
        connections: 1024,
        connect: { timeout: limits.relayConnectTimeoutMs },
        // The exchange's budget is the one clock on the head: undici's, counting 499 ms ticks, could
        // fire first and fail a slow channel as unreachable (502) where the budget says 504.
        headersTimeout: 0,
        bodyTimeout: limits.relayTimeoutMs,
      });
  }

  /** The same pool for one relay call begun at `startedAt`: all its attempts share one budget. */
  forCall(startedAt: number): UpstreamClient {
    return new UpstreamClient(this.#limits, {
      agent: this.#agent,
      deadline: startedAt + this.#limits.relayTimeoutMs,
    });
  }

  /** The longest silence within an answer that has begun (RELAY_TIMEOUT), for transports of their own. */
  silenceLimitMs(): number {
    return this.#limits.relayTimeoutMs;
  }

  /** The most bytes of an answer (or of one stream event) held in memory (RELAY_ANSWER_LIMIT). */
  answerLimitBytes(): number {
    return this.#limits.relayAnswerLimit;
  }

  /**
   * Reads a whole answer body (a non-stream answer, an error): refused as soon as it grows beyond
   * RELAY_ANSWER_LIMIT (502), or when it is not whole by the end of the call's budget, RELAY_TIMEOUT
   * (504), however it trickles. Either way the rest is not read: the upstream call is aborted.
   */
  async readWhole(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
    const limit = this.#limits.relayAnswerLimit;
    if (body instanceof UpstreamExchange)
      return body.readWhole(limit, performance.now() + this.remainingMs());
    const chunks: Buffer[] = [];
    let size = 0;
    const iterator = body[Symbol.asyncIterator]();
    let timer: Deadline | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = atDeadline(performance.now() + this.remainingMs(), () => reject(upstreamWentSilent()));
    });
    try {
      for (;;) {
        const next = await Promise.race([iterator.next(), late]);
        if (next.done) break;
        size += next.value.length;
        if (size > limit) throw upstreamAnswerTooLarge(limit);
        chunks.push(Buffer.from(next.value));
      }
    } catch (error) {
      // The pending read, if any, ends with the aborted call: its failure is no longer anyone's.
      iterator.return?.()?.catch(() => {});
      throw error;
    } finally {
      cancelDeadline(timer);
    }
    return Buffer.concat(chunks, size);
  }

  /** Milliseconds left of the call's budget (a whole budget when this client is not a call's). */
  remainingMs(): number {
    return this.#deadline === undefined ? this.#limits.relayTimeoutMs : this.#deadline - performance.now();
  }

  send(upstream: UpstreamRequest, signal: ClientSignal): Promise<UpstreamResponse> {
    if (signal.aborted) return Promise.reject(clientClosed());
    const budgetMs = this.remainingMs();
    if (budgetMs <= 0) return Promise.reject(upstreamTimedOut());
    const deadline = performance.now() + budgetMs;
    let target: DispatchTarget;
    try {
      target = dispatchTarget(upstream.url);
    } catch (error) {
      return Promise.reject(upstreamUnreachable(error));
    }
    const exchange = new UpstreamExchange(signal, deadline);
    try {
      this.#agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
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

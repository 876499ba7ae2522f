import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import type { RawData } from 'ws';
import type { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import type { Admission } from '../key-limits';
import { clampOutputCap, maySetOutputCap, outputCapEvent } from './output-cap';
import { responseUsage } from './response-usage';
import type { SessionFunds } from './session-funds';

/** Bytes waiting to be sent to one side above which the other side is no longer read. */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** How long a client that left mid-response waits for the provider to report what it cancelled. */
const CANCEL_WAIT_MS = 5_000;

export interface SessionLimits {
  idleMs: number;
  sessionMs: number;
}

export interface SessionParts {
  requestId: string;
  client: WebSocket;
  upstream: WebSocket;
  funds: SessionFunds;
  /** The client speaks the beta interface (its session.update names the output limit otherwise). */
  beta: boolean;
  /** The most one response may write: what the session's hold covers (SESSION_HOLD_OUTPUT_TOKENS). */
  outputCap: number;
  admission: Admission | undefined;
  limits: SessionLimits;
  logger?: FastifyBaseLogger;
}

/** The Realtime API's `error` event, as OpenAI sends it. */
export function errorEvent(type: string, code: string, message: string): string {
  return JSON.stringify({
    type: 'error',
    event_id: `event_${randomUUID().replace(/-/g, '')}`,
    error: { type, code, message, param: null, event_id: null },
  });
}

/** A close code one may send (1005, 1006 and 1015 only describe what happened; others are out of range). */
const sendableCode = (code: number): number =>
  (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999)
    ? code
    : 1011;

const isOpen = (socket: WebSocket) => socket.readyState === 1;

/** A socket is read only while nothing asks it to wait: a full other side, a settlement. */
class ReadGate {
  readonly #reasons = new Set<string>();

  constructor(private readonly socket: WebSocket) {}

  hold(reason: string): void {
    if (this.#reasons.size === 0) this.socket.pause();
    this.#reasons.add(reason);
  }

  release(reason: string): void {
    if (!this.#reasons.delete(reason) || this.#reasons.size > 0) return;
    this.socket.resume();
  }
}

/**
 * One realtime session: the client's socket and the provider's, events passed through both ways as
 * they are. The provider's events go through in order; each `response.done` is settled (and the hold
 * taken again) before it reaches the client, the client's events waiting meanwhile. A side that does
 * not read makes the other side wait (neither grows memory without bound); silence for the idle
 * limit, the session limit, or an account that can no longer pay ends the session.
 */
export class RealtimeSession {
  readonly #upstreamGate: ReadGate;
  readonly #clientGate: ReadGate;
  /** The provider's events not yet handled, in order; one handled at a time. */
  readonly #fromUpstream: Array<{ data: RawData; isBinary: boolean }> = [];
  #pumping: Promise<void> | undefined;
  /** The client's events that arrived while a response was being settled, sent after it. */
  #clientBacklog: Array<{ data: RawData; isBinary: boolean }> | undefined;
  /** Responses the provider started and has not reported done: response id → when it started. */
  readonly #inProgress = new Map<string, number>();
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #sessionTimer: NodeJS.Timeout;
  #ending = false;
  /** The session is being wound down: the client's events are no longer relayed. */
  #winding = false;
  #cancelWait: (() => void) | undefined;
  /** Who sent each session.update the provider has not answered yet, in order: its answer to ours is not relayed. */
  readonly #sessionUpdates: Array<'gateway' | 'client'> = [];
  /** When the key's tokens-per-minute limit has room again, once a response used it up (performance.now()). */
  #tokensFreeAt = 0;
  readonly ended: Promise<void>;
  #markEnded!: () => void;

  constructor(private readonly parts: SessionParts) {
    const { client, upstream, limits } = parts;
    this.ended = new Promise((resolve) => {
      this.#markEnded = resolve;
    });
    this.#upstreamGate = new ReadGate(upstream);
    this.#clientGate = new ReadGate(client);
    this.#sessionTimer = setTimeout(
      () =>
        void this.finish(
          errorEvent(
            'invalid_request_error',
            'session_expired',
            'The realtime session reached its time limit',
          ),
          1000,
        ),
      limits.sessionMs,
    );
    this.#touch();
    client.on('message', (data, isBinary) => this.#fromClient(data, isBinary));
    upstream.on('message', (data, isBinary) => {
      this.#fromUpstream.push({ data, isBinary });
      this.#touch();
      if (this.#fromUpstream.length > 1) this.#upstreamGate.hold('queue');
      void this.#pump();
    });
    client.on('close', () => void this.#clientLeft());
    client.on('error', () => void this.#clientLeft());
    upstream.on('close', (code) => void this.#upstreamLeft(code));
    upstream.on('error', () => void this.#upstreamLeft(1011));
    // Every response is capped at what the hold covers, before the client can ask for one.
    this.#sessionUpdates.push('gateway');
    upstream.send(outputCapEvent(parts.beta, parts.outputCap));
    upstream.resume();
  }

  /**
   * Winds the session down: the client's events stop being relayed, the responses in progress are
   * cancelled and their reports awaited and billed (CANCEL_WAIT_MS at most), then the session ends.
   */
  async finish(event: string | undefined, code: number): Promise<void> {
    if (this.#winding || this.#ending) return;
    this.#winding = true;
    await this.#cancelInProgress();
    await this.end(event, code);
  }

  /**
   * Ends the session: `event` (an error event) to the client if it is still there, both sockets closed,
   * the hold given back. Idempotent.
   */
  async end(event: string | undefined, code: number): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    const { client, upstream, funds, admission } = this.parts;
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#sessionTimer);
    if (isOpen(client)) {
      if (event) client.send(event);
      client.close(code);
    }
    if (isOpen(upstream)) upstream.close(1000);
    else upstream.terminate();
    try {
      await funds.close();
    } finally {
      admission?.release();
      this.#markEnded();
    }
  }

  /** Bytes waiting to be sent to the client. */
  get waitingForClient(): number {
    return this.parts.client.bufferedAmount;
  }

  /** Something was said, either way: the idle limit starts over (one timer, re-armed). */
  #touch(): void {
    if (this.#ending) return;
    if (this.#idleTimer) {
      this.#idleTimer.refresh();
      return;
    }
    this.#idleTimer = setTimeout(
      () =>
        void this.finish(
          errorEvent('invalid_request_error', 'session_idle', 'The realtime session was idle for too long'),
          1000,
        ),
      this.parts.limits.idleMs,
    );
  }

  #fromClient(data: RawData, isBinary: boolean): void {
    if (this.#ending || this.#winding) return;
    this.#touch();
    if (this.#clientBacklog) {
      this.#clientBacklog.push({ data, isBinary });
      return;
    }
    const { upstream, client } = this.parts;
    if (this.#tokensFreeAt > performance.now() && !isBinary && asksForResponse(data)) {
      const wait = Math.ceil((this.#tokensFreeAt - performance.now()) / 1000);
      if (!isOpen(client)) return;
      client.send(
        errorEvent(
          'rate_limit_exceeded',
          'tokens_per_minute_exceeded',
          `Rate limit reached: this API key used its tokens per minute; try again in ${wait}s`,
        ),
      );
      return;
    }
    if (!isOpen(upstream)) return;
    this.#send(upstream, isBinary ? data : this.#capped(data), isBinary, this.#clientGate);
  }

  /** A client's event with its output limit within the cap (only those that may set one are parsed). */
  #capped(data: RawData): RawData {
    const bytes = bytesOf(data);
    if (!maySetOutputCap(bytes)) return data;
    const event = parseEvent(data);
    if (!event) return data;
    if (event.type === 'session.update') this.#sessionUpdates.push('client');
    const clamped = clampOutputCap(event, this.parts.beta, this.parts.outputCap);
    return clamped === undefined ? data : Buffer.from(clamped);
  }

  /** Sends to `to`; while more than HIGH_WATER_BYTES wait there, the side `gate` reads is not read. */
  #send(to: WebSocket, data: RawData, isBinary: boolean, gate: ReadGate): void {
    to.send(data, { binary: isBinary }, () => {
      if (to.bufferedAmount <= HIGH_WATER_BYTES) gate.release('full');
    });
    if (to.bufferedAmount > HIGH_WATER_BYTES) gate.hold('full');
  }

  #pump(): Promise<void> {
    this.#pumping ??= (async () => {
      try {
        for (let next = this.#fromUpstream.shift(); next; next = this.#fromUpstream.shift()) {
          await this.#handleUpstream(next.data, next.isBinary);
        }
      } finally {
        this.#pumping = undefined;
        this.#upstreamGate.release('queue');
      }
    })();
    return this.#pumping;
  }

  async #handleUpstream(data: RawData, isBinary: boolean): Promise<void> {
    const event = isBinary || !mayBeBilled(data) ? undefined : parseEvent(data);
    const type = event?.type;
    if (type === 'session.updated' && this.#sessionUpdates.shift() === 'gateway') return;
    if (type === 'response.created') {
      const id = responseIdOf(event);
      if (id) this.#inProgress.set(id, performance.now());
    } else if (type === 'response.done' && event) {
      const cut = await this.#settle(event);
      this.#forward(data, isBinary);
      if (cut) {
        await this.end(errorEvent(cut.type, String(cut.code ?? 'insufficient_quota'), cut.message), 1008);
      }
      return;
    }
    this.#forward(data, isBinary);
  }

  #forward(data: RawData, isBinary: boolean): void {
    const { client } = this.parts;
    if (isOpen(client) && !this.#ending) this.#send(client, data, isBinary, this.#upstreamGate);
  }

  /** Bills one finished response, the client's events waiting meanwhile; answers why the session must end, if it must. */
  async #settle(event: Json): Promise<RelayError | undefined> {
    const id = responseIdOf(event);
    const started = id === undefined ? undefined : this.#inProgress.get(id);
    if (id !== undefined) this.#inProgress.delete(id);
    if (this.#inProgress.size === 0) this.#cancelWait?.();
    const usage = responseUsage(event);
    if (!usage || usage.prompt_tokens + usage.completion_tokens === 0) return undefined;
    this.#clientGate.hold('settling');
    this.#clientBacklog = [];
    let cut: RelayError | undefined;
    try {
      const elapsed = started === undefined ? 0 : Math.round(performance.now() - started);
      cut = await this.parts.funds.settleResponse(usage, elapsed);
      const wait = await this.parts.admission?.countSessionTokens(
        usage.prompt_tokens + usage.completion_tokens,
      );
      if (wait) this.#tokensFreeAt = performance.now() + wait;
      return cut;
    } finally {
      const waiting = this.#clientBacklog;
      this.#clientBacklog = undefined;
      // An account that cannot pay gets nothing more relayed: its events stop here.
      if (!cut) for (const { data, isBinary } of waiting) this.#fromClient(data, isBinary);
      this.#clientGate.release('settling');
    }
  }

  /**
   * The client left. Responses still running are cancelled and the provider's report of each awaited
   * (CANCEL_WAIT_MS at most): the provider bills what it generated, and so does the gateway.
   */
  #clientLeft(): Promise<void> {
    return this.finish(undefined, 1000);
  }

  /** Cancels the responses in progress and waits (CANCEL_WAIT_MS at most) for their reports to be settled. */
  async #cancelInProgress(): Promise<void> {
    const { upstream } = this.parts;
    if (this.#inProgress.size === 0 || !isOpen(upstream)) return;
    const reported = new Promise<void>((resolve) => {
      this.#cancelWait = resolve;
    });
    for (const id of this.#inProgress.keys()) {
      upstream.send(JSON.stringify({ type: 'response.cancel', response_id: id }));
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CANCEL_WAIT_MS);
    });
    await Promise.race([reported, late]);
    clearTimeout(timer);
    await this.#drained();
  }

  /** The provider closed the session: what it reported is settled first, then the client is told. */
  async #upstreamLeft(code: number): Promise<void> {
    if (this.#ending) return;
    // A cancellation waiting for the provider's report gets none now.
    this.#cancelWait?.();
    await this.#drained();
    if (this.#ending) return;
    const normal = code === 1000 || code === 1005;
    await this.end(
      normal
        ? undefined
        : errorEvent('server_error', 'upstream_closed', 'The provider closed the realtime session'),
      normal ? 1000 : sendableCode(code),
    );
  }

  /** Resolves once every event the provider sent so far has been handled. */
  async #drained(): Promise<void> {
    while (this.#pumping || this.#fromUpstream.length > 0) await this.#pump();
  }
}

/**
 * Whether an event may be one the session acts on (response.created, response.done, session.updated):
 * only those are parsed. The audio deltas that make most of the bytes are base64, which has no dot.
 */
function mayBeBilled(data: RawData): boolean {
  const bytes = bytesOf(data);
  return (
    bytes.includes('response.done') || bytes.includes('response.created') || bytes.includes('session.updated')
  );
}

/** Whether a client's event is a response.create (only an event naming it is parsed). */
function asksForResponse(data: RawData): boolean {
  return bytesOf(data).includes('response.create') && parseEvent(data)?.type === 'response.create';
}

/** A message's bytes (ws hands Buffers over unless told otherwise). */
const bytesOf = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

function parseEvent(data: RawData): Json | undefined {
  try {
    return asObject(JSON.parse(bytesOf(data).toString()));
  } catch {
    return undefined;
  }
}

function responseIdOf(event: Json | undefined): string | undefined {
  const id = asObject(event?.response)?.id;
  return typeof id === 'string' ? id : undefined;
}

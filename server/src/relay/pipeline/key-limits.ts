import { createHash, randomUUID } from 'node:crypto';
import { lowerLimit, type RateLimits } from '@switchyard/contract/limits';
import type { Counted, KeyCounters } from '../../cluster/key-counters';
import type { MaybePromise } from '../../maybe-promise';
import { RelayError } from '../errors';
import type { RelayCaller } from './authenticate';
import type { ClientSink } from './client-sink';
import { countPromptTokens, type RelayRequest } from './relay-request';
import type { TokenCounter } from './tokenizer';

/** The limits in force for a key: its own, capped by its user's (0: none). */
export function limitsOf(caller: RelayCaller): RateLimits {
  const { row } = caller.token;
  const { user } = caller;
  const of = (field: keyof RateLimits) => lowerLimit(Number(row[field] ?? 0), Number(user[field] ?? 0));
  return {
    rpm_limit: of('rpm_limit'),
    tpm_limit: of('tpm_limit'),
    concurrency_limit: of('concurrency_limit'),
  };
}

/**
 * The counters' name for a key: a digest of the key itself, so that no secret reaches Redis and two
 * databases sharing a Redis (ids start over in each) never share a count.
 */
const counterKeyOf = (caller: RelayCaller) =>
  `key:${createHash('sha256').update(caller.token.row.key).digest('base64url').slice(0, 22)}`;

/** OpenAI's duration format for the reset headers: `20ms`, `1.5s`, `6m0s`. */
export function resetText(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = Number(((whole % 60_000) / 1000).toFixed(3));
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

function setLimitHeaders(
  sink: ClientSink,
  kind: 'requests' | 'tokens',
  limit: number,
  counted: Counted,
): void {
  sink.setHeader?.(`x-ratelimit-limit-${kind}`, String(limit));
  sink.setHeader?.(`x-ratelimit-remaining-${kind}`, String(Math.max(0, limit - counted.used)));
  sink.setHeader?.(`x-ratelimit-reset-${kind}`, resetText(counted.resetMs));
}

/** Where a refusal's headers go. */
type HeaderSink = Pick<ClientSink, 'setHeader'>;

function refused(sink: HeaderSink, message: string, code: string, retryMs: number): RelayError {
  if (retryMs > 0) sink.setHeader?.('retry-after', String(Math.ceil(retryMs / 1000)));
  return RelayError.gateway(429, message, code, 'rate_limit_exceeded');
}

/** What an admitted call holds against its key's limits until it ends. */
export class Admission {
  #open = true;
  #tokens: { window: number; estimate: number } | undefined;

  constructor(
    private readonly counters: KeyCounters,
    private readonly key: string,
    private readonly slot: string | undefined,
    tokens: { window: number; estimate: number } | undefined,
    /** A realtime session's tokens-per-minute limit (0: none); its responses count as they are billed. */
    private readonly sessionTokenLimit = 0,
  ) {
    this.#tokens = tokens;
  }

  /**
   * A realtime response was billed for `used` tokens: they count in the key's minute, as a chat
   * call's do. Answers the milliseconds until the minute has room again when it has none, else 0.
   */
  async countSessionTokens(used: number): Promise<number> {
    if (!this.sessionTokenLimit || used <= 0) return 0;
    try {
      const taken = await this.counters.takeTokens(this.key, used, Number.MAX_SAFE_INTEGER);
      return taken.used >= this.sessionTokenLimit ? Math.max(1, taken.resetMs) : 0;
    } catch {
      // The counters being unreachable stops no session (chat calls are admitted on the same terms).
      return 0;
    }
  }

  /** The call was billed for `used` tokens: its minute counts those instead of the estimate. */
  settled(used: number): void {
    if (!this.#tokens) return;
    const { window, estimate } = this.#tokens;
    this.#tokens = undefined;
    this.counters.adjustTokens(this.key, window, used - estimate).catch(() => {});
  }

  /** The call ended: its slot goes back, and an estimate never billed (the call failed) with it. */
  release(): void {
    if (!this.#open) return;
    this.#open = false;
    this.settled(0);
    if (this.slot) this.counters.releaseSlot(this.key, this.slot).catch(() => {});
  }
}

/**
 * Requests per minute, tokens per minute and concurrent requests of a key (its own or its user's), counted in
 * KeyCounters (Redis, the cluster's primary, or memory). A refused call is answered 429 and counts
 * against nothing; an admitted one gets OpenAI's x-ratelimit headers, its error answers too.
 */
export class KeyLimits {
  constructor(
    private readonly counters: KeyCounters,
    private readonly counter: TokenCounter,
  ) {}

  admit(caller: RelayCaller, request: RelayRequest, sink: ClientSink): MaybePromise<Admission | undefined> {
    const limits = limitsOf(caller);
    // A key without limits (the common case): nothing to count, answered at once.
    if (!limits.rpm_limit && !limits.tpm_limit && !limits.concurrency_limit) return undefined;
    return this.#admit(caller, limits, request, sink);
  }

  async #admit(
    caller: RelayCaller,
    limits: RateLimits,
    request: RelayRequest,
    sink: ClientSink,
  ): Promise<Admission> {
    const key = counterKeyOf(caller);
    const { counters } = this;
    const slot = await this.#takeSlot(key, limits, sink);
    let tokens: { window: number; estimate: number } | undefined;
    const undo = () => new Admission(counters, key, slot, tokens).release();
    if (limits.tpm_limit) {
      const estimate = countPromptTokens(request, this.counter) + Math.max(0, request.maxTokens);
      const taken = await counters.takeTokens(key, estimate, limits.tpm_limit);
      setLimitHeaders(sink, 'tokens', limits.tpm_limit, taken);
      if (!taken.allowed) {
        undo();
        throw refused(
          sink,
          `Rate limit reached: this API key may use ${limits.tpm_limit} tokens per minute (used ${taken.used}, this request needs about ${estimate}); try again in ${resetText(taken.resetMs)}`,
          'tokens_per_minute_exceeded',
          taken.resetMs,
        );
      }
      tokens = { window: taken.window, estimate };
    }
    if (limits.rpm_limit) {
      const taken = await counters.takeRequest(key, limits.rpm_limit);
      setLimitHeaders(sink, 'requests', limits.rpm_limit, taken);
      if (!taken.allowed) {
        undo();
        throw refused(
          sink,
          `Rate limit reached: this API key may make ${limits.rpm_limit} requests per minute; try again in ${resetText(taken.resetMs)}`,
          'requests_per_minute_exceeded',
          taken.resetMs,
        );
      }
    }
    return new Admission(counters, key, slot, tokens);
  }

  /**
   * A realtime session: one of the key's concurrent slots while it is open, and one request of its
   * minute; refused while the key's minute has no tokens left. Its responses' tokens count in the
   * minute as they are billed (Admission.countSessionTokens).
   */
  async admitSession(caller: RelayCaller, sink: HeaderSink): Promise<Admission | undefined> {
    const limits = limitsOf(caller);
    if (!limits.rpm_limit && !limits.concurrency_limit && !limits.tpm_limit) return undefined;
    const key = counterKeyOf(caller);
    const slot = await this.#takeSlot(key, limits, sink);
    if (limits.tpm_limit) {
      const taken = await this.counters.takeTokens(key, 0, limits.tpm_limit);
      if (taken.used >= limits.tpm_limit) {
        new Admission(this.counters, key, slot, undefined).release();
        throw refused(
          sink,
          `Rate limit reached: this API key may use ${limits.tpm_limit} tokens per minute (used ${taken.used}); try again in ${resetText(taken.resetMs)}`,
          'tokens_per_minute_exceeded',
          taken.resetMs,
        );
      }
    }
    if (limits.rpm_limit) {
      const taken = await this.counters.takeRequest(key, limits.rpm_limit);
      if (!taken.allowed) {
        new Admission(this.counters, key, slot, undefined).release();
        throw refused(
          sink,
          `Rate limit reached: this API key may make ${limits.rpm_limit} requests per minute; try again in ${resetText(taken.resetMs)}`,
          'requests_per_minute_exceeded',
          taken.resetMs,
        );
      }
    }
    return new Admission(this.counters, key, slot, undefined, limits.tpm_limit);
  }

  /** One of the key's concurrent slots (its id), when it has a concurrency limit; 429 when none is free. */
  async #takeSlot(key: string, limits: RateLimits, sink: HeaderSink): Promise<string | undefined> {
    if (!limits.concurrency_limit) return undefined;
    const id = randomUUID();
    const taken = await this.counters.acquireSlot(key, limits.concurrency_limit, id);
    if (!taken.allowed) {
      throw refused(
        sink,
        `Rate limit reached: this API key may run ${limits.concurrency_limit} requests at the same time; wait for one to finish`,
        'concurrency_limit_exceeded',
        1000,
      );
    }
    return id;
  }
}

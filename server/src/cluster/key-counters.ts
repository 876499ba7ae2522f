import type { RedisTarget } from '../config/redis-target';
import { MemoryRateLimiter, RedisRateLimiter, redisAnswer } from './rate-limiter';
import { connectRedis, type RedisClient } from './redis-connection';

/** Requests per minute slide (the sliding log of rate-limiter.ts); tokens per minute count in whole minutes. */
export const LIMIT_WINDOW_MS = 60_000;
/**
 * A call's concurrency slot is given back when it ends; a slot of a process that died goes back after
 * this long (a call running longer no longer counts).
 */
export const SLOT_LEASE_MS = 30 * 60_000;

/** A limit counted for one call: whether it fits, and what is left of it for the headers. */
export interface Counted {
  allowed: boolean;
  /** What the window holds now (this call included when allowed). */
  used: number;
  /** Milliseconds until the window frees room (the oldest request leaves it, the minute ends). */
  resetMs: number;
}

/**
 * The counters behind the keys' limits, one implementation per place the counts live: this process's
 * memory, Redis (shared by every process that uses it), or the cluster's primary (workers without Redis).
 */
export interface KeyCounters {
  /** Counts one request in the sliding minute, unless `limit` are already in it. */
  takeRequest(key: string, limit: number): Promise<Counted>;
  /** Counts `amount` tokens into the current minute when they fit under `limit`; answers the minute taken from. */
  takeTokens(key: string, amount: number, limit: number): Promise<Counted & { window: number }>;
  /** Corrects a minute's count once the call's real tokens are known (`delta` may be negative). */
  adjustTokens(key: string, window: number, delta: number): Promise<void>;
  /** Takes one of `limit` concurrency slots for call `id`. */
  acquireSlot(key: string, limit: number, id: string): Promise<Counted>;
  releaseSlot(key: string, id: string): Promise<void>;
  close(): Promise<void>;
}

/** One process's counters (also the primary's, for its workers). */
export class MemoryKeyCounters implements KeyCounters {
  readonly #requests: MemoryRateLimiter;
  readonly #tokens = new Map<string, { window: number; used: number }>();
  readonly #slots = new Map<string, Map<string, number>>();

  constructor(private readonly clock: () => number = Date.now) {
    this.#requests = new MemoryRateLimiter(0, LIMIT_WINDOW_MS, clock);
  }

  async takeRequest(key: string, limit: number): Promise<Counted> {
    const { allowed, count, resetMs } = this.#requests.take(key, limit, LIMIT_WINDOW_MS);
    return { allowed, used: count, resetMs };
  }

  async takeTokens(key: string, amount: number, limit: number): Promise<Counted & { window: number }> {
    const now = this.clock();
    const window = Math.floor(now / LIMIT_WINDOW_MS);
    this.#dropOldMinutes(window);
    const minute = this.#tokens.get(key);
    const used = minute?.window === window ? minute.used : 0;
    const allowed = used + amount <= limit;
    const after = allowed ? used + amount : used;
    this.#tokens.set(key, { window, used: after });
    return { allowed, used: after, resetMs: (window + 1) * LIMIT_WINDOW_MS - now, window };
  }

  async adjustTokens(key: string, window: number, delta: number): Promise<void> {
    const minute = this.#tokens.get(key);
    if (minute?.window === window) minute.used = Math.max(0, minute.used + delta);
  }

  async acquireSlot(key: string, limit: number, id: string): Promise<Counted> {
    const now = this.clock();
    const slots = this.#slots.get(key) ?? new Map<string, number>();
    for (const [other, until] of slots) if (until <= now) slots.delete(other);
    const allowed = slots.size < limit;
    if (allowed) slots.set(id, now + SLOT_LEASE_MS);
    if (slots.size > 0) this.#slots.set(key, slots);
    return { allowed, used: slots.size, resetMs: 0 };
  }

  async releaseSlot(key: string, id: string): Promise<void> {
    const slots = this.#slots.get(key);
    slots?.delete(id);
    if (slots?.size === 0) this.#slots.delete(key);
  }

  async close(): Promise<void> {
    await this.#requests.close();
  }

  #dropOldMinutes(window: number): void {
    if (this.#tokens.size < 1024) return;
    for (const [key, minute] of this.#tokens) if (minute.window < window) this.#tokens.delete(key);
  }
}

/** Tokens of the current minute in a hash {window, used}: a new minute starts from nothing. */
const TAKE_TOKENS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local amount = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local span = tonumber(ARGV[3])
local window = math.floor(now / span)
local used = 0
if tonumber(redis.call('HGET', KEYS[1], 'window')) == window then
  used = tonumber(redis.call('HGET', KEYS[1], 'used')) or 0
end
local allowed = 0
if used + amount <= limit then
  used = used + amount
  allowed = 1
end
redis.call('HSET', KEYS[1], 'window', window, 'used', used)
redis.call('PEXPIRE', KEYS[1], span * 2)
return {allowed, used, (window + 1) * span - now, window}
`;

const ADJUST_TOKENS = `
if tonumber(redis.call('HGET', KEYS[1], 'window')) == tonumber(ARGV[1]) then
  local used = (tonumber(redis.call('HGET', KEYS[1], 'used')) or 0) + tonumber(ARGV[2])
  if used < 0 then used = 0 end
  redis.call('HSET', KEYS[1], 'used', used)
end
return 1
`;

/** Concurrency slots in a sorted set scored by when their lease ends. */
const ACQUIRE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local allowed = 0
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {allowed, redis.call('ZCARD', KEYS[1]), 0}
`;

const fromArray = (answer: unknown): Counted & { window: number } => {
  if (!Array.isArray(answer)) return { allowed: true, used: 0, resetMs: 0, window: -1 };
  const [allowed, used, resetMs, window] = answer.map(Number);
  return { allowed: allowed === 1, used: used ?? 0, resetMs: resetMs ?? 0, window: window ?? -1 };
};

/**
 * The counters in Redis, shared by every process: each change is one script, on one key, timed by
 * the Redis server's clock. A Redis outage lets calls through, as the IP limits do.
 */
export class RedisKeyCounters implements KeyCounters {
  readonly #redis: RedisClient;
  readonly #requests: RedisRateLimiter;

  constructor(
    target: RedisTarget,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#redis = connectRedis(target, { failFast: true, onError });
    this.#requests = new RedisRateLimiter(target, 0, LIMIT_WINDOW_MS, `${prefix}rpm:`, onError);
  }

  async takeRequest(key: string, limit: number): Promise<Counted> {
    const { allowed, count, resetMs } = await this.#requests.take(key, limit, LIMIT_WINDOW_MS);
    return { allowed, used: count, resetMs };
  }

  async takeTokens(key: string, amount: number, limit: number): Promise<Counted & { window: number }> {
    const answer = this.#redis.eval(
      TAKE_TOKENS,
      1,
      `${this.prefix}tpm:${key}`,
      amount,
      limit,
      LIMIT_WINDOW_MS,
    );
    return fromArray(await redisAnswer(answer, this.onError));
  }

  async adjustTokens(key: string, window: number, delta: number): Promise<void> {
    if (window < 0 || delta === 0) return;
    await redisAnswer(
      this.#redis.eval(ADJUST_TOKENS, 1, `${this.prefix}tpm:${key}`, window, delta),
      this.onError,
    );
  }

  async acquireSlot(key: string, limit: number, id: string): Promise<Counted> {
    const answer = this.#redis.eval(ACQUIRE_SLOT, 1, `${this.prefix}slots:${key}`, limit, id, SLOT_LEASE_MS);
    return fromArray(await redisAnswer(answer, this.onError));
  }

  async releaseSlot(key: string, id: string): Promise<void> {
    await redisAnswer(this.#redis.zrem(`${this.prefix}slots:${key}`, id), this.onError);
  }

  async close(): Promise<void> {
    await this.#requests.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

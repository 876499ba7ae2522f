import type { RedisTarget } from '../config/redis-target';
import { answerWithin, connectRedis, type RedisClient } from './redis-connection';

/**
 * A sliding log per key: a call is allowed unless `limit` calls were already allowed within the last
 * `windowMs` (one-api's limiter). Refused calls are not counted. The one rule of every request-count
 * limit: the IP limits below and the keys' requests per minute (key-counters.ts).
 */
export interface RateLimiter {
  /** Counts one call for `key`; answers whether it is allowed. */
  allow(key: string): Promise<boolean>;
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

/** One process: a map of recent call times, swept of idle keys now and then. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #calls = new Map<string, number[]>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(SWEEP_EVERY_MS, windowMs));
    this.#sweeper.unref();
  }

  async allow(key: string): Promise<boolean> {
    return this.take(key, this.limit, this.windowMs).allowed;
  }

  /** The sliding log with the limit and window of the call (a key's own limit). */
  take(key: string, limit: number, windowMs: number): SlidingLogState {
    const now = this.clock();
    const calls = this.#calls.get(key) ?? [];
    while (calls.length > 0 && now - (calls[0] as number) >= windowMs) calls.shift();
    const allowed = calls.length < limit;
    if (allowed) calls.push(now);
    if (calls.length > 0) this.#calls.set(key, calls);
    const resetMs = calls.length > 0 ? (calls[0] as number) + windowMs - now : 0;
    return { allowed, count: calls.length, resetMs };
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
  }

  #sweep(): void {
    const now = this.clock();
    for (const [key, calls] of this.#calls) {
      if (now - (calls[calls.length - 1] as number) >= this.windowMs) this.#calls.delete(key);
    }
  }
}

/** A call counted (or refused) by the sliding log: the calls now in the window, and when the oldest leaves it. */
export interface SlidingLogState {
  allowed: boolean;
  count: number;
  resetMs: number;
}

/**
 * The same log in a Redis list (newest first), checked and updated in one script so that every
 * process sharing the Redis shares the count. Times come from the Redis server's clock. Calls that
 * left the window are dropped from the old end first, so the list's length is the count.
 */
const SLIDING_LOG = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
while true do
  local oldest = tonumber(redis.call('LINDEX', KEYS[1], -1))
  if oldest and now - oldest >= window then redis.call('RPOP', KEYS[1]) else break end
end
local allowed = 0
if redis.call('LLEN', KEYS[1]) < limit then
  redis.call('LPUSH', KEYS[1], now)
  redis.call('PEXPIRE', KEYS[1], window)
  allowed = 1
end
local oldest = tonumber(redis.call('LINDEX', KEYS[1], -1)) or now
return {allowed, redis.call('LLEN', KEYS[1]), oldest + window - now}
`;

/** The longest a call waits for a limit's count before it is let through. */
const LIMIT_ANSWER_WITHIN_MS = 1000;

/** Redis's answer, or undefined (told to `onError`) when it fails or does not come in time: the call goes through. */
export async function redisAnswer<T>(
  answer: Promise<T>,
  onError: (error: unknown) => void,
): Promise<T | undefined> {
  try {
    return await answerWithin(answer, LIMIT_ANSWER_WITHIN_MS);
  } catch (error) {
    onError(error);
    return undefined;
  }
}

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisClient;

  constructor(
    target: RedisTarget,
    private readonly limit: number,
    private readonly windowMs: number,
    /** Keys are `<prefix><key>`; one-api uses `rateLimit:`. */
    private readonly prefix = 'rateLimit:',
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.#redis = connectRedis(target, { failFast: true, onError });
  }

  /** A Redis outage lets calls through: a missing limiter must not lock everybody out of signing in. */
  async allow(key: string): Promise<boolean> {
    return (await this.take(key, this.limit, this.windowMs)).allowed;
  }

  /** The sliding log with the limit and window of the call (a key's own limit). */
  async take(key: string, limit: number, windowMs: number): Promise<SlidingLogState> {
    const answer = await redisAnswer(
      this.#redis.eval(SLIDING_LOG, 1, this.prefix + key, limit, windowMs),
      this.onError,
    );
    if (!Array.isArray(answer)) return { allowed: true, count: 0, resetMs: 0 };
    const [allowed, count, resetMs] = answer.map(Number);
    return { allowed: allowed === 1, count: count ?? 0, resetMs: resetMs ?? 0 };
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

/** The limiter of one rule: shared through Redis when there is one, else per process; none at limit 0. */
export function createRateLimiter(
  redis: RedisTarget | undefined,
  limit: number,
  windowMs: number,
  onError: (error: unknown) => void,
): RateLimiter | undefined {
  if (limit <= 0) return undefined;
  return redis
    ? new RedisRateLimiter(redis, limit, windowMs, undefined, onError)
    : new MemoryRateLimiter(limit, windowMs);
}

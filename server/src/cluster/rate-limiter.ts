import type { RedisTarget } from '../config/redis-target';
import { connectRedis, type RedisClient } from './redis-connection';

/**
 * A sliding log per key: a call is allowed unless `limit` calls were already allowed within the last
 * `windowMs` (one-api's limiter). Refused calls are not counted.
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
    const now = this.clock();
    const calls = this.#calls.get(key);
    if (!calls) {
      this.#calls.set(key, [now]);
      return true;
    }
    if (calls.length < this.limit) {
      calls.push(now);
      return true;
    }
    if (now - (calls[0] as number) < this.windowMs) return false;
    calls.shift();
    calls.push(now);
    return true;
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

/**
 * The same log in a Redis list (newest first), checked and updated in one script so that every
 * process sharing the Redis shares the count. Times come from the Redis server's clock.
 */
const SLIDING_LOG = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
if redis.call('LLEN', KEYS[1]) >= limit then
  local oldest = tonumber(redis.call('LINDEX', KEYS[1], -1))
  if oldest and now - oldest < window then return 0 end
end
redis.call('LPUSH', KEYS[1], now)
redis.call('LTRIM', KEYS[1], 0, limit - 1)
redis.call('PEXPIRE', KEYS[1], window)
return 1
`;

/** The longest a call waits for Redis before it is let through (a Cluster queues commands while away). */
const REDIS_ANSWER_WITHIN_MS = 1000;

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
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${REDIS_ANSWER_WITHIN_MS} ms`)),
        REDIS_ANSWER_WITHIN_MS,
      );
    });
    try {
      const answer = this.#redis.eval(SLIDING_LOG, 1, this.prefix + key, this.limit, this.windowMs);
      return (await Promise.race([answer, late])) === 1;
    } catch (error) {
      this.onError(error);
      return true;
    } finally {
      clearTimeout(timer);
    }
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

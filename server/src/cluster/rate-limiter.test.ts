import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisTarget } from '../config/redis-target';
import { createRateLimiter, MemoryRateLimiter, RedisRateLimiter } from './rate-limiter';

const REDIS: RedisTarget = {
  mode: 'standalone',
  url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  password: undefined,
};

async function allowedOf(limiter: { allow(key: string): Promise<boolean> }, key: string, calls: number) {
  let allowed = 0;
  for (let call = 0; call < calls; call++) if (await limiter.allow(key)) allowed++;
  return allowed;
}

describe('MemoryRateLimiter', () => {
  it('allows `limit` calls per window and key, and counts refused calls for nothing', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(20, 1_200_000, () => now);
    expect(await limiter.allow('CT1.2.3.4')).toBe(true);
    now += 1000;
    expect(await allowedOf(limiter, 'CT1.2.3.4', 19)).toBe(19);
    expect(await limiter.allow('CT1.2.3.4')).toBe(false);
    expect(await limiter.allow('CT5.6.7.8')).toBe(true);
    now += 1_198_999;
    expect(await limiter.allow('CT1.2.3.4')).toBe(false);
    // The first call leaves the window: exactly one more fits.
    now += 1;
    expect(await allowedOf(limiter, 'CT1.2.3.4', 3)).toBe(1);
    await limiter.close();
  });

  it('slides: calls spread over the window free up one by one', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(3, 100, () => now);
    for (const at of [0, 40, 80]) {
      now = at;
      expect(await limiter.allow('k')).toBe(true);
    }
    now = 99;
    expect(await limiter.allow('k')).toBe(false);
    now = 100;
    expect(await limiter.allow('k')).toBe(true);
    now = 120;
    expect(await limiter.allow('k')).toBe(false);
    now = 140;
    expect(await limiter.allow('k')).toBe(true);
    await limiter.close();
  });

  it('is left out at a limit of 0', () => {
    expect(createRateLimiter(undefined, 0, 1000, () => {})).toBeUndefined();
    expect(createRateLimiter(REDIS, 0, 1000, () => {})).toBeUndefined();
  });
});

describe('RedisRateLimiter (real Redis)', () => {
  const prefix = `test:rateLimit:${Date.now().toString(36)}${randomBytes(4).toString('hex')}:`;
  const limiters: RedisRateLimiter[] = [];
  const open = (limit: number, windowMs: number) => {
    const limiter = new RedisRateLimiter(REDIS, limit, windowMs, prefix);
    limiters.push(limiter);
    return limiter;
  };
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
  });

  it('refuses the 21st call in the window, counted across processes', async () => {
    const first = open(20, 1_200_000);
    const second = open(20, 1_200_000);
    expect(await allowedOf(first, 'CT10.0.0.1', 12)).toBe(12);
    expect(await allowedOf(second, 'CT10.0.0.1', 8)).toBe(8);
    expect(await first.allow('CT10.0.0.1')).toBe(false);
    expect(await second.allow('CT10.0.0.1')).toBe(false);
    expect(await first.allow('CT10.0.0.2')).toBe(true);
  });

  it('lets calls through again once the oldest leaves the window', async () => {
    const limiter = open(2, 300);
    expect(await allowedOf(limiter, 'CTwindow', 3)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await allowedOf(limiter, 'CTwindow', 3)).toBe(2);
  });

  it('counts concurrent calls exactly', async () => {
    const limiter = open(20, 60_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => limiter.allow('CTburst')));
    expect(answers.filter(Boolean)).toHaveLength(20);
  });

  it('lets calls through while Redis cannot be reached', async () => {
    const errors: unknown[] = [];
    const limiter = new RedisRateLimiter(
      { ...REDIS, url: 'redis://127.0.0.1:9' },
      1,
      60_000,
      prefix,
      (error) => errors.push(error),
    );
    limiters.push(limiter);
    expect(await allowedOf(limiter, 'CTdown', 3)).toBe(3);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('lets a call through within a second while a Cluster cannot be reached (it would queue it)', async () => {
    const errors: unknown[] = [];
    const nowhere = { host: '127.0.0.1', port: 9 };
    const cluster: RedisTarget = {
      mode: 'cluster',
      nodes: [nowhere, { ...nowhere, port: 10 }],
      username: undefined,
      password: undefined,
      tls: false,
    };
    const limiter = new RedisRateLimiter(cluster, 1, 60_000, prefix, (error) => errors.push(error));
    limiters.push(limiter);
    const started = Date.now();
    expect(await limiter.allow('CTclusterDown')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(errors.map(String)).toContain('Error: Redis did not answer within 1000 ms');
  });
});

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisTarget } from '../config/redis-target';
import { CODE_VALID_MS, MemoryVerificationCodes, type VerificationCodes } from '../domain/verification-codes';
import { RedisVerificationCodes } from './redis-verification-codes';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS: RedisTarget = { mode: 'standalone', url: REDIS_URL, password: undefined };
const PREFIX = `test:codes:${Date.now().toString(36)}${randomBytes(4).toString('hex')}:`;

/** Two handles on the same codes: two processes' clients, or one process's map twice. */
type Pair = [VerificationCodes, VerificationCodes];
const opened: VerificationCodes[] = [];
afterAll(async () => {
  await Promise.all(opened.map((codes) => codes.close()));
});

function memoryPair(): Pair {
  const codes = new MemoryVerificationCodes();
  return [codes, codes];
}

function redisPair(): Pair {
  const pair: Pair = [
    new RedisVerificationCodes(REDIS, undefined, PREFIX),
    new RedisVerificationCodes(REDIS, undefined, PREFIX),
  ];
  opened.push(...pair);
  return pair;
}

describe.each([
  ['in memory', memoryPair],
  ['in Redis, across two clients', redisPair],
])('verification codes %s', (_where, open) => {
  const [first, second] = open();
  const email = () => `${randomBytes(4).toString('hex')}@example.com`;

  it('verifies the latest code of the purpose and address only, and keeps it usable', async () => {
    const address = email();
    const old = await first.issue('email-verification', address);
    const code = await first.issue('email-verification', address);
    expect(code).toMatch(/^[0-9a-f]{6}$/);
    expect(await second.verify('email-verification', address, code)).toBe(true);
    expect(await second.verify('email-verification', address, code)).toBe(true);
    if (old !== code) expect(await second.verify('email-verification', address, old)).toBe(false);
    expect(await second.verify('password-reset', address, code)).toBe(false);
    expect(await second.verify('email-verification', email(), code)).toBe(false);
    expect(await second.verify('email-verification', address, '')).toBe(false);
  });

  it('redeems a code once; a wrong one leaves it valid', async () => {
    const address = email();
    const token = await first.issue('password-reset', address, 32);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(await second.redeem('password-reset', address, 'f'.repeat(32))).toBe(false);
    expect(await second.redeem('password-reset', address, token)).toBe(true);
    expect(await first.redeem('password-reset', address, token)).toBe(false);
    expect(await first.verify('password-reset', address, token)).toBe(false);
  });

  it('lets exactly one of many concurrent redeems through', async () => {
    const address = email();
    const token = await first.issue('password-reset', address, 32);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? first : second).redeem('password-reset', address, token),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a discarded code', async () => {
    const address = email();
    const code = await first.issue('email-verification', address);
    await second.discard('email-verification', address);
    expect(await first.verify('email-verification', address, code)).toBe(false);
  });
});

describe('verification codes in Redis', () => {
  it('expire in Redis after CODE_VALID_MS', async () => {
    const [codes] = redisPair();
    await codes.issue('email-verification', 'ttl@example.com');
    const admin = new Redis(REDIS_URL);
    try {
      const ttl = await admin.pttl(`${PREFIX}email-verification:ttl@example.com`);
      expect(ttl).toBeGreaterThan(CODE_VALID_MS - 10_000);
      expect(ttl).toBeLessThanOrEqual(CODE_VALID_MS);
    } finally {
      admin.disconnect();
    }
  });

  it('keeps under the switchyard: prefix by default', async () => {
    const codes = new RedisVerificationCodes(REDIS);
    opened.push(codes);
    const address = `prefix.${randomBytes(4).toString('hex')}@example.com`;
    const code = await codes.issue('email-verification', address);
    const admin = new Redis(REDIS_URL);
    try {
      expect(await admin.get(`switchyard:code:email-verification:${address}`)).toBe(code);
    } finally {
      await codes.discard('email-verification', address);
      admin.disconnect();
    }
  });
});

import { randomBytes } from 'node:crypto';
import type { User } from '@switchyard/contract/users';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../src/cluster/change-bus';
import type { EnvelopeBody, TestApp } from './harness';
import { startTestApp } from './harness';
import { waitUntil } from './wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onDatabase = (number: number) => ({ REDIS_CONN_STRING: `${new URL('/', REDIS_URL)}${number}` });
// A prefix of this run only: the Redis server is shared with every other test.
const PREFIX = `deploy-${randomBytes(4).toString('hex')}:`;

/** Everything a process's bus delivers (its own changes and those it hears from Redis). */
function heardBy(app: TestApp): Change[] {
  const heard: Change[] = [];
  app.app.services.bus.subscribe((change) => {
    heard.push(change);
  });
  return heard;
}

describe('deployments sharing one Redis server keep apart', () => {
  // Deployment A: two processes on Redis database 5. B: database 6. C: database 5 with REDIS_KEY_PREFIX.
  let a1: TestApp;
  let a2: TestApp;
  let b: TestApp;
  let c: TestApp;
  const redis = new Redis(`${new URL('/', REDIS_URL)}5`);

  beforeAll(async () => {
    a1 = await startTestApp({ env: onDatabase(5) });
    [a2, b, c] = await Promise.all([
      startTestApp({ database: a1.database, env: onDatabase(5) }),
      startTestApp({ env: onDatabase(6) }),
      startTestApp({ env: { ...onDatabase(5), REDIS_KEY_PREFIX: PREFIX, CRITICAL_RATE_LIMIT: '100' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a2?.close(), b?.close(), c?.close()]);
    await a1?.close();
    await redis.quit();
  });

  it("a change reaches the deployment's other process and no other deployment", async () => {
    const [onA2, onB, onC] = [heardBy(a2), heardBy(b), heardBy(c)];
    const root = await a1.root();
    await a1.user('scoped');
    const found = await root.get<EnvelopeBody<User[]>>('/api/user/search?keyword=scoped');
    const id = found.body.data?.[0]?.id ?? 0;
    expect((await root.put('/api/user/', { id, username: 'scoped', quota: 0 })).body.success).toBe(true);
    await waitUntil(() => onA2.some((change) => change.kind === 'user' && change.id === id), {
      what: 'the other process of the deployment to hear the change',
      timeoutMs: 5_000,
    });
    // Published on one Redis connection, delivered to every subscriber of the channel together.
    expect(onB).toEqual([]);
    expect(onC).toEqual([]);
  });

  it('names each channel by the database number and the key prefix', () => {
    const channel = (app: TestApp) => (app.app.services.bus as { channel?: string }).channel;
    expect([channel(a1), channel(b), channel(c)]).toEqual([
      'switchyard:changes:db5',
      'switchyard:changes:db6',
      `${PREFIX}switchyard:changes:db5`,
    ]);
  });

  it('writes every key of a prefixed deployment under its prefix', async () => {
    await c.root();
    expect(await redis.keys(`${PREFIX}rateLimit:*`)).not.toEqual([]);
  });
});

import { randomBytes } from 'node:crypto';
import type { User } from '@switchyard/contract/users';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../src/cluster/rate-limiter';
import { loadConfig } from '../src/config';
import { createTestDatabase, type TestDatabase } from './databases';
import { MailCatcher } from './fakes/smtp';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { type RedisDeployment, startClusterDeployment, startSentinelDeployment } from './redis-servers';

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/** The mailed-code keys on one data node (a Cluster spreads them over its masters). */
async function codeKeysOn(port: number): Promise<string[]> {
  const node = new Redis({ port, host: '127.0.0.1' });
  try {
    return await node.keys('switchyard:code:*');
  } finally {
    node.disconnect();
  }
}

describe.each([
  ['Sentinel (REDIS_MASTER_NAME)', () => startSentinelDeployment()],
  ['Cluster (several hosts)', () => startClusterDeployment(3)],
])('two processes sharing Redis through %s', (_topology, start) => {
  const smtp = new MailCatcher();
  let redis: RedisDeployment;
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [redis, database] = await Promise.all([start(), createTestDatabase(), smtp.start()]);
    a = await startTestApp({ database, env: redis.env });
    b = await startTestApp({ database, env: redis.env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    await redis?.stop();
    await smtp.close();
  });

  it('an option saved on one process applies on the other at once (pub/sub)', async () => {
    const name = `Topology ${randomBytes(3).toString('hex')}`;
    await setOptions(await a.root(), {
      SystemName: name,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
    });
    const seen = await eventually(async () => {
      const status = await b.client().get<EnvelopeBody<{ system_name: string }>>('/api/status');
      return status.body.data?.system_name === name;
    });
    expect(seen).toBe(true);
  });

  it('a code mailed by one process binds the address on the other, and lives in this Redis', async () => {
    const email = `nina.${randomBytes(4).toString('hex')}@example.com`;
    const seen = smtp.to(email).length;
    expect((await a.client().get(`/api/verification?email=${encodeURIComponent(email)}`)).body).toMatchObject(
      {
        success: true,
      },
    );
    const mail = await smtp.next(email, seen);
    const code = /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(mail.body)?.[1] ?? '';
    const keys = (await Promise.all(redis.dataPorts.map(codeKeysOn))).flat();
    expect(keys).toContain(`switchyard:code:email-verification:${email}`);

    const nina = await b.user('nina');
    const bound = await nina.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(bound.body).toMatchObject({ success: true });
    expect((await nina.get<EnvelopeBody<User>>('/api/user/self')).body.data?.email).toBe(email);
  });

  it('rate limits count the calls of both processes', async () => {
    const target = loadConfig(redis.env).redis;
    if (!target) throw new Error('the deployment gave no Redis settings');
    const prefix = `test:rateLimit:${randomBytes(4).toString('hex')}:`;
    const [first, second] = [1, 2].map(() => new RedisRateLimiter(target, 3, 60_000, prefix)) as [
      RedisRateLimiter,
      RedisRateLimiter,
    ];
    try {
      const answers = [];
      for (const limiter of [first, second, first, second]) answers.push(await limiter.allow('CT10.0.0.9'));
      expect(answers).toEqual([true, true, true, false]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { createChannel, createCustomer, openAiFor } from './relay-setup';

const REDIS = { REDIS_CONN_STRING: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };

async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('several processes sharing the database and Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    a = await startTestApp({ env: REDIS });
    b = await startTestApp({ database: a.database, env: REDIS });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fake.close();
  });

  it('an option saved in one process applies in the other at once', async () => {
    await (await a.root()).put('/api/option/', { key: 'SystemName', value: 'Cluster AI' });
    const seen = await eventually(async () => {
      const status = await b.client().get<EnvelopeBody<{ system_name: string }>>('/api/status');
      return status.body.data?.system_name === 'Cluster AI';
    });
    expect(seen).toBe(true);
  });

  it('a channel created in one process is routed by the other, and a ban applies there at once', async () => {
    const customer = await createCustomer(a, 'clusterer');
    const viaB = openAiFor(b, `sk-${customer.token.key}`);
    const ask = () =>
      viaB.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'hi' }] });
    // No channel serves the model yet: not found, which agents do not retry.
    await expect(ask()).rejects.toMatchObject({ status: 404 });
    await createChannel(await a.root(), { base_url: fake.url });
    expect(
      await eventually(async () =>
        ask().then(
          () => true,
          () => false,
        ),
      ),
    ).toBe(true);

    await (await a.root()).post('/api/user/manage', { username: 'clusterer', action: 'disable' });
    const refused = await eventually(async () =>
      ask().then(
        () => false,
        (error: { status?: number }) => error.status === 403,
      ),
    );
    expect(refused).toBe(true);
  });
});

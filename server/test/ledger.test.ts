import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { books, booksOnce, expectBalancedBooks, setKeyQuota, setUserQuota } from './ledger-books';
import { createChannel, createCustomer, openAiFor } from './relay-setup';
import { waitUntil } from './wait';

const REDIS = { REDIS_CONN_STRING: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };

// gpt-3.5-turbo: model ratio 0.25, completion ratio 3. A call without max_tokens reserves
// PreConsumedQuota (500) × 0.25 = 125; an answer of 2,000 completion tokens costs ten times that.
const RESERVED = 125;
const LONG_ANSWER = Array.from({ length: 2000 }, () => 'tok').join(' ');
const COSTLY = Math.ceil((11 + 2000 * 3) * 0.25);

/** Answers 2,000 tokens whatever max_tokens says: a provider that does not keep to the limit. */
const costlyUpstream = () =>
  openAiHandler({ reply: LONG_ANSWER, usage: { prompt_tokens: 11, completion_tokens: 2000 } });

async function streamText(t: TestApp, key: string, body: Record<string, unknown>) {
  const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('guarantee 0: never below zero', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(costlyUpstream()).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each([
    ['non-streaming', false],
    ['streaming', true],
  ])('64 %s calls without max_tokens costing ten times their hold', async (label, stream) => {
    expect(COSTLY).toBeGreaterThanOrEqual(10 * RESERVED);
    const customer = await createCustomer(t, `poor-${stream ? 's' : 'n'}`, {
      quota: 1000,
      token: { remain_quota: 1000 },
    });
    const key = `sk-${customer.token.key}`;
    const sent = fake.requests.length;
    const results = await Promise.all(
      Array.from({ length: 64 }, () =>
        streamText(t, key, {
          model: 'gpt-3.5-turbo',
          messages: [{ role: 'user', content: 'hi' }],
          stream,
        }),
      ),
    );
    await t.app.services.relay.settled();
    const passed = results.filter((result) => result.status === 200);
    expect(passed.length, label).toBeGreaterThanOrEqual(1);
    for (const refused of results.filter((result) => result.status !== 200)) {
      expect(refused.status).toBe(403);
      expect(refused.text).toMatch(/quota/);
    }
    // Each call that went out asked for no more than the account could pay.
    for (const request of fake.requests.slice(sent)) {
      const maxTokens = Number(request.json?.max_tokens);
      expect(maxTokens).toBeGreaterThan(0);
      expect(Math.ceil((11 + maxTokens * 3) * 0.25)).toBeLessThanOrEqual(1000 + 11);
    }
    if (stream) {
      // A stream the account could not pay on was ended with an error event as its last (no [DONE]:
      // the answer is not whole); the others with [DONE].
      const cut = passed.filter((result) => result.text.includes('cut short'));
      expect(cut.length).toBeGreaterThanOrEqual(1);
      for (const result of passed) {
        const last = result.text.trimEnd().split('\n\n').at(-1);
        if (cut.includes(result))
          expect(last).toMatch(/^data: \{"error":\{.*"code":"insufficient_user_quota"/);
        else expect(last).toBe('data: [DONE]');
      }
    }
    const now = await expectBalancedBooks(t, {
      userId: customer.userId,
      tokenId: customer.token.id,
      userFunds: 1000,
      tokenFunds: 1000,
    });
    expect(now.logs).toBe(passed.length);
  });
});

describe('guarantee 1: an administrator edit is final', () => {
  let a: TestApp;
  let b: TestApp;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    a = await startTestApp({ env: REDIS });
    b = await startTestApp({ database: a.database, env: REDIS });
    await createChannel(await a.root(), { base_url: fake.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fake.close();
  });

  const chat = (t: TestApp, key: string) =>
    openAiFor(t, key)
      .chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => 200,
        (error: { status?: number }) => error.status ?? 0,
      );

  it.each([
    ['one process', false],
    ['two processes', true],
  ])('a key set to 0 stays at 0 (%s)', async (label, twoProcesses) => {
    // Rich enough for credit to be held ahead (see RICH_FLOOR_CALLS).
    const customer = await createCustomer(a, `edkey${twoProcesses ? 2 : 1}`, {
      quota: 1_000_000,
      token: { remain_quota: 100_000 },
    });
    const key = `sk-${customer.token.key}`;
    const caller = twoProcesses ? b : a;
    expect(await chat(caller, key)).toBe(200);
    // The call left credit held ahead in the process that served it.
    expect((await books(a, customer.userId, customer.token.id)).tokenHeld).toBeGreaterThan(0);
    // The other process hears of the edit over Redis pub/sub: a moment after the edit's answer.
    const heard = new Promise<void>((resolve) => {
      if (!twoProcesses) resolve();
      else
        b.app.services.bus.subscribe((change) => {
          if (change.kind === 'token') resolve();
        });
    });
    await setKeyQuota(customer.client, customer.token.id, 0);
    await heard;
    expect(await chat(caller, key), label).toBe(401);
    const now = await booksOnce(
      a,
      customer.userId,
      customer.token.id,
      (now) => now.tokenHeld === 0,
      'the held credit to come back',
    );
    expect(now.remain).toBe(0);
    expect(now.tokenHeld).toBe(0);
    expect(await chat(caller, key)).toBe(401);
  });

  it.each([
    ['one process', false],
    ['two processes', true],
  ])('a user set to 0 stays at 0 (%s)', async (label, twoProcesses) => {
    const customer = await createCustomer(a, `eduser${twoProcesses ? 2 : 1}`, { quota: 100_000 });
    const key = `sk-${customer.token.key}`;
    const caller = twoProcesses ? b : a;
    expect(await chat(caller, key)).toBe(200);
    expect((await books(a, customer.userId, customer.token.id)).held).toBeGreaterThan(0);
    await setUserQuota(await a.root(), customer.userId, 0);
    const now = await booksOnce(
      a,
      customer.userId,
      customer.token.id,
      (now) => now.held === 0,
      'the held credit to come back',
    );
    expect(now.quota, label).toBe(0);
    expect(now.held).toBe(0);
    expect(await chat(caller, key)).toBe(403);
    expect((await books(a, customer.userId, customer.token.id)).quota).toBe(0);
  });

  it('a top-up while credit is held adds exactly its amount', async () => {
    const customer = await createCustomer(a, 'topped', { quota: 100_000 });
    const key = `sk-${customer.token.key}`;
    expect(await chat(b, key)).toBe(200);
    const before = await books(a, customer.userId, customer.token.id);
    expect(before.held).toBeGreaterThan(0);
    await (await a.root()).post('/api/topup', { user_id: customer.userId, quota: 777 });
    const after = await booksOnce(
      a,
      customer.userId,
      customer.token.id,
      (now) => now.held === 0,
      'the held credit to come back',
    );
    expect(after.quota).toBe(before.quota + 777);
    expect(after.held).toBe(0);
  });
});

describe('guarantee 2: no quota stranded in another process', () => {
  const apps: TestApp[] = [];
  let fake: HttpFake;

  beforeAll(async () => {
    // 600 completion tokens: ceil((11 + 600 × 3) × 0.25) = 453 a call.
    fake = await new HttpFake(
      openAiHandler({ usage: { prompt_tokens: 11, completion_tokens: 600 } }),
    ).start();
    apps.push(await startTestApp({ env: REDIS }));
    for (let i = 0; i < 2; i++) apps.push(await startTestApp({ database: apps[0]!.database, env: REDIS }));
    const root = await apps[0]!.root();
    await createChannel(root, { base_url: fake.url });
    await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
    // Every process reads the option at once through Redis; wait for the others to have it.
    await waitUntil(() => apps.every(({ app }) => app.services.options.number('PreConsumedQuota') === 0), {
      what: 'every process to read PreConsumedQuota',
    });
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await fake.close();
  });

  // max_tokens 2,000 at ratio 0.25: each call holds 500.
  const call = (t: TestApp, key: string) =>
    openAiFor(t, key)
      .chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 2000,
      })
      .then(
        () => 200,
        (error: { status?: number }) => error.status ?? 0,
      );

  it('calls alternating between two processes on 720 are all served', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const customer = await createCustomer(a, 'alternating', { quota: 720 });
    const key = `sk-${customer.token.key}`;
    // 720 pays one call of 453 at most, and every call holds 500: each must find the 720 whole.
    expect(await call(a, key)).toBe(200);
    await setUserQuota(await a.root(), customer.userId, 720);
    for (let i = 0; i < 4; i++) {
      expect(await call(i % 2 === 0 ? b : a, key)).toBe(200);
      await setUserQuota(await a.root(), customer.userId, 720);
    }
  });

  it('three processes spend a rich account down to less than one call before refusing', async () => {
    const customer = await createCustomer(apps[0]!, 'spender', { quota: 20_000 });
    const key = `sk-${customer.token.key}`;
    let served = 0;
    // Round robin: the first process holds credit ahead while the others drain the balance.
    for (let i = 0; ; i++) {
      const status = await call(apps[i % 3]!, key);
      if (status !== 200) {
        expect(status).toBe(403);
        break;
      }
      served += 1;
      expect(served).toBeLessThan(100);
    }
    for (const app of apps) await app.app.services.relay.settled();
    const now = await expectBalancedBooks(apps[0]!, {
      userId: customer.userId,
      tokenId: customer.token.id,
      userFunds: 20_000,
    });
    // Refused only when the account could not hold 500 more, counting every process's credit.
    expect(now.quota).toBeLessThan(500);
    expect(served).toBe(Math.floor((20_000 - 500) / 453) + 1);
  });
});

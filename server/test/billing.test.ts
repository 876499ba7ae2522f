import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { balances, consumeLogs, createChannel, createCustomer } from './relay-setup';

// gpt-3.5-turbo (ratio 0.25, completion ratio 3) with the fake's 11 + 7 tokens.
const COST = Math.ceil((11 + 7 * 3) * 0.25);

describe('billing under concurrency', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ delayMs: 20 })).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url });
    await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function race(username: string, userQuota: number, tokenQuota: number) {
    const customer = await createCustomer(t, username, {
      quota: userQuota,
      token: { remain_quota: tokenQuota },
    });
    const before = await balances(t, customer.userId, customer.token.id);
    const results = await Promise.all(
      Array.from({ length: 64 }, () =>
        customer.openai.chat.completions
          .create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 })
          .then(() => 'ok' as const)
          .catch(
            (error: { status?: number; message?: string }) =>
              `${error.status ?? 'network'} ${error.message ?? ''}`,
          ),
      ),
    );
    await t.app.services.relay.settled();
    const after = await balances(t, customer.userId, customer.token.id);
    const logs = await consumeLogs(t, customer.userId);
    return { results, before, after, logs, successes: results.filter((r) => r === 'ok').length };
  }

  it('64 racing requests of one token: every unit counted once, none lost', async () => {
    const { results, before, after, logs, successes } = await race('racer', 10_000_000, 1_000_000);
    expect(results.filter((result) => result !== 'ok')).toEqual([]);
    expect(successes).toBe(64);
    expect(logs).toHaveLength(64);
    expect(logs.reduce((sum, log) => sum + Number(log.quota), 0)).toBe(64 * COST);
    expect(before.quota - after.quota).toBe(64 * COST);
    expect(after.usedQuota - before.usedQuota).toBe(64 * COST);
    expect(after.requestCount - before.requestCount).toBe(64);
    expect(before.remain - after.remain).toBe(64 * COST);
    expect(after.tokenUsed - before.tokenUsed).toBe(64 * COST);
  });

  it('64 racing requests on a token that can pay for a few: no overdraft, refusals are clean', async () => {
    const reservation = Math.floor((8 + 100) * 0.25);
    const { results, before, after, logs, successes } = await race('scarce', 10_000_000, reservation * 3);
    expect(successes).toBeGreaterThanOrEqual(1);
    expect(results.filter((result) => result !== 'ok').every((result) => result.startsWith('403 '))).toBe(
      true,
    );
    expect(logs).toHaveLength(successes);
    expect(before.remain - after.remain).toBe(successes * COST);
    expect(after.remain).toBeGreaterThanOrEqual(0);
    expect(before.quota - after.quota).toBe(successes * COST);
    expect(after.requestCount - before.requestCount).toBe(successes);
  });

  it('one guarded update holds for the next calls; the balance moves only by what calls cost', async () => {
    // max_tokens 100 at ratio 0.25 (PreConsumedQuota is 0 here): each call reserves 25.
    const reservation = Math.floor(100 * 0.25);
    const customer = await createCustomer(t, 'steady', {
      quota: 1_000_000,
      token: { remain_quota: 500_000 },
    });
    const call = () =>
      customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 100,
      });
    const after = async (ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return balances(t, customer.userId, customer.token.id);
    };
    const before = await balances(t, customer.userId, customer.token.id);
    await call();
    // Settled before the answer ended: the balance is down by the cost; 63 calls' worth is held ahead.
    let now = await balances(t, customer.userId, customer.token.id);
    expect(before.quota - now.quota).toBe(COST);
    expect(before.remain - now.remain).toBe(COST);
    expect([now.held, now.tokenHeld]).toEqual([63 * reservation, 63 * reservation]);
    await call();
    await call();
    now = await balances(t, customer.userId, customer.token.id);
    // The two calls reserved from what was held: no new hold, only their cost.
    expect(before.quota - now.quota).toBe(3 * COST);
    expect(now.held).toBe(61 * reservation);
    // Idle for longer than credit is kept: the hold is given back without anyone asking.
    now = await after(3_500);
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    expect(before.quota - now.quota).toBe(3 * COST);
    expect(now.usedQuota - before.usedQuota).toBe(3 * COST);
    expect(now.tokenUsed - before.tokenUsed).toBe(3 * COST);
    await call();
    await t.app.services.relay.settled();
    now = await balances(t, customer.userId, customer.token.id);
    expect(before.quota - now.quota).toBe(4 * COST);
    expect(before.remain - now.remain).toBe(4 * COST);
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
  });

  it('64 racing requests of a user who can pay for a few: no overdraft of the account', async () => {
    const reservation = Math.floor((8 + 100) * 0.25);
    const { after, before, logs, successes } = await race('poorish', reservation * 2, 1_000_000);
    expect(successes).toBeGreaterThanOrEqual(1);
    expect(after.quota).toBeGreaterThanOrEqual(0);
    expect(before.quota - after.quota).toBe(successes * COST);
    expect(logs).toHaveLength(successes);
  });
});

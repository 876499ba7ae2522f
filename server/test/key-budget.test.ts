import { budgetPeriodEnd, budgetPeriodStart } from '@switchyard/contract/budget-period';
import type { Token } from '@switchyard/contract/tokens';
import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { chat, count, keyWith } from './key-limits-helpers';
import { books } from './ledger-books';
import { consumeLogs, createChannel } from './relay-setup';

// The server's clock (src/clock.ts), moved by the test: days pass in an instant.
const clock = vi.hoisted(() => ({ shiftSeconds: 0 }));
vi.mock('../src/clock', () => ({
  nowSeconds: () => Math.floor(Date.now() / 1000) + clock.shiftSeconds,
}));
const serverNow = () => Math.floor(Date.now() / 1000) + clock.shiftSeconds;

// gpt-3.5-turbo (ratio 0.25, completion 3) answering 10 + 20 tokens costs ceil(70 × 0.25) = 18; a call
// without max_tokens holds PreConsumedQuota (500) × 0.25 = 125 until it settles.
const COST = 18;

async function budgetOf(owner: Client, id: number): Promise<Token> {
  return (await owner.get<EnvelopeBody<Token>>(`/api/token/${id}`)).body.data!;
}

describe("a key's periodic budget", () => {
  let t: TestApp;
  let fake: HttpFake;
  let root: Client;
  let owner: Client;
  let ownerId: number;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ usage: { prompt_tokens: 10, completion_tokens: 20 } })).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo' });
    owner = await t.user('budgeted');
    ownerId = (await owner.get<EnvelopeBody<User>>('/api/user/self')).body.data!.id;
    await root.post('/api/topup', { user_id: ownerId, quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('is spent within the period, refused beyond it, and starts over at 00:00 of the next', async () => {
    // A Wednesday at noon, server time: the day, week and month are well under way.
    const wednesday = new Date(2030, 0, 16, 12, 0, 0).getTime() / 1000;
    clock.shiftSeconds = Math.floor(wednesday - Date.now() / 1000);
    const key = await keyWith(owner, 'daily', { budget_quota: 150, budget_period: 'daily' });
    expect(key).toMatchObject({ budget_quota: 150, budget_period: 'daily', budget_used: 0 });
    expect(key.budget_reset_at).toBe(budgetPeriodEnd('daily', serverNow()));
    expect(new Date(key.budget_reset_at * 1000).getHours()).toBe(0);
    // A call holds 125: the first fits, then 150 − 18 = 132 left: one more, then 114 < 125.
    const answers = [];
    for (let call = 0; call < 3; call++) answers.push(await chat(t, key.key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.body.error).toMatchObject({ code: 'key_budget_exceeded', type: 'insufficient_quota' });
    expect(answers[2]!.body.error?.message).toMatch(/daily budget of 150/);
    await t.app.services.relay.settled();
    expect(await budgetOf(owner, key.id)).toMatchObject({ budget_used: 2 * COST });

    // Just before midnight: still the same day.
    clock.shiftSeconds += key.budget_reset_at - serverNow() - 2;
    expect((await chat(t, key.key)).status).toBe(429);
    // Midnight: a new day, a new budget.
    clock.shiftSeconds += 2;
    const fresh = await budgetOf(owner, key.id);
    expect(fresh.budget_used).toBe(0);
    expect(fresh.budget_reset_at).toBe(key.budget_reset_at + 24 * 3600);
    expect((await chat(t, key.key)).status).toBe(200);
    await t.app.services.relay.settled();
    expect((await budgetOf(owner, key.id)).budget_used).toBe(COST);
    // The key's own quota and the user's were charged for every call as ever.
    const logs = await consumeLogs(t, ownerId);
    expect(logs.filter((log) => log.token_name === 'daily').length).toBe(3);
  });

  it('weekly starts on Monday and monthly on the 1st, at 00:00', async () => {
    const saturday = new Date(2030, 4, 18, 15, 30).getTime() / 1000;
    clock.shiftSeconds = Math.floor(saturday - Date.now() / 1000);
    const weekly = await keyWith(owner, 'weekly', { budget_quota: 1000, budget_period: 'weekly' });
    const monthly = await keyWith(owner, 'monthly', { budget_quota: 1000, budget_period: 'monthly' });
    expect(new Date(weekly.budget_reset_at * 1000)).toEqual(new Date(2030, 4, 20, 0, 0));
    expect(new Date(monthly.budget_reset_at * 1000)).toEqual(new Date(2030, 5, 1, 0, 0));
    expect(budgetPeriodStart('weekly', serverNow())).toBe(new Date(2030, 4, 13).getTime() / 1000);
    expect((await chat(t, weekly.key)).status).toBe(200);
    await t.app.services.relay.settled();
    expect((await budgetOf(owner, weekly.id)).budget_used).toBe(COST);
    // Sunday night is still the same week; Monday is a new one.
    clock.shiftSeconds += weekly.budget_reset_at - serverNow() - 60;
    expect((await budgetOf(owner, weekly.id)).budget_used).toBe(COST);
    clock.shiftSeconds += 60;
    expect((await budgetOf(owner, weekly.id)).budget_used).toBe(0);
  });

  it('refuses a budget without a period, and the reverse, with a clear message', async () => {
    const noPeriod = await owner.post<EnvelopeBody>('/api/token/', { name: 'x', budget_quota: 100 });
    expect(noPeriod.body.success).toBe(false);
    expect(noPeriod.body.message).toMatch(/daily, weekly or monthly/);
    const noQuota = await owner.post<EnvelopeBody>('/api/token/', { name: 'x', budget_period: 'daily' });
    expect(noQuota.body.success).toBe(false);
    const badPeriod = await owner.post<EnvelopeBody>('/api/token/', {
      name: 'x',
      budget_quota: 100,
      budget_period: 'hourly',
    });
    expect(badPeriod.body.success).toBe(false);
    expect(badPeriod.body.message).toMatch(/budget_period/);
  });
});

// Answers 2,000 completion tokens whatever max_tokens says: each call costs
// ceil((11 + 2000 × 3) × 0.25) = 1,503, twelve times its hold, more than the whole budget.
const LONG_ANSWER = Array.from({ length: 2000 }, () => 'tok').join(' ');

describe('the budget under a race of calls costing more than they hold', () => {
  let t: TestApp;
  let fake: HttpFake;
  let owner: Client;
  let ownerId: number;

  beforeAll(async () => {
    fake = await new HttpFake(
      openAiHandler({ reply: LONG_ANSWER, usage: { prompt_tokens: 11, completion_tokens: 2000 } }),
    ).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo' });
    owner = await t.user('racer');
    ownerId = (await owner.get<EnvelopeBody<User>>('/api/user/self')).body.data!.id;
    await root.post('/api/topup', { user_id: ownerId, quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each([
    ['an unlimited key', false, { unlimited_quota: true }],
    ['a limited key', false, { unlimited_quota: false, remain_quota: 1_000_000 }],
    ['an unlimited key, streamed', true, { unlimited_quota: true }],
    ['a limited key, streamed', true, { unlimited_quota: false, remain_quota: 1_000_000 }],
  ])('64 concurrent calls never spend more than the budget (%s)', async (label, stream, fields) => {
    clock.shiftSeconds = 0;
    const budget = 1000;
    const name = `race-${stream ? 's' : 'n'}${fields.unlimited_quota ? 'u' : 'l'}`;
    const key = await keyWith(owner, name, { ...fields, budget_quota: budget, budget_period: 'monthly' });
    const before = await books(t, ownerId, key.id);
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => chat(t, key.key, stream ? { stream } : {})),
    );
    await t.app.services.relay.settled();
    const passed = count(answers, 200);
    expect(passed, label).toBeGreaterThanOrEqual(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe('key_budget_exceeded');
    }
    const after = await budgetOf(owner, key.id);
    const spent = await books(t, ownerId, key.id);
    const logged = (await consumeLogs(t, ownerId))
      .filter((log) => log.token_name === name)
      .reduce((sum, log) => sum + Number(log.quota), 0);
    expect(after.budget_used).toBeLessThanOrEqual(budget);
    expect(after.budget_used).toBe(logged);
    expect(spent.usedQuota - before.usedQuota).toBe(logged);
    expect([spent.held, spent.tokenHeld]).toEqual([0, 0]);
  });
});

import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { awayFromMinuteEnd, chat, count, keyWith } from './key-limits-helpers';
import { createChannel } from './relay-setup';

// One process, no Redis: the keys' limits are counted in memory.
describe('key limits in one process', () => {
  let t: TestApp;
  let fake: HttpFake;
  let slow: HttpFake;
  let root: Client;
  let owner: Client;
  let ownerId: number;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ usage: { prompt_tokens: 10, completion_tokens: 20 } })).start();
    slow = await new HttpFake(openAiHandler({ delayMs: 600 })).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo' });
    await createChannel(root, { base_url: slow.url, models: 'gpt-4' });
    owner = await t.user('limited');
    ownerId = (await owner.get<EnvelopeBody<User>>('/api/user/self')).body.data!.id;
    await root.post('/api/topup', { user_id: ownerId, quota: 10_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await slow.close();
  });

  it('lets exactly rpm_limit calls through per minute, with OpenAI headers, then 429 naming the limit', async () => {
    const key = await keyWith(owner, 'rpm', { rpm_limit: 5 });
    expect(key.rpm_limit).toBe(5);
    const answers = [];
    for (let call = 0; call < 8; call++) answers.push(await chat(t, key.key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining-requests'))).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
      '0',
      '0',
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('x-ratelimit-limit-requests')).toBe('5');
      expect(answer.headers.get('x-ratelimit-reset-requests')).toMatch(
        /^(\d+ms|\d+(\.\d+)?s|\d+m\d+(\.\d+)?s)$/,
      );
      // No tokens-per-minute limit on this key: no token headers.
      expect(answer.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    }
    const refused = answers[5]!;
    expect(refused.body.error).toMatchObject({
      code: 'requests_per_minute_exceeded',
      type: 'rate_limit_exceeded',
    });
    expect(refused.body.error?.message).toMatch(/5 requests per minute/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused calls were never billed nor sent upstream.
    expect(fake.requests.filter((request) => request.headers.authorization).length).toBeGreaterThanOrEqual(5);
  });

  it('sends no rate-limit headers for a key without limits', async () => {
    const key = await keyWith(owner, 'free', {});
    const answer = await chat(t, key.key);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(answer.headers.get('x-ratelimit-limit-tokens')).toBeNull();
  });

  it('counts tokens per minute: estimated at admission, the billed tokens at settlement', async () => {
    await awayFromMinuteEnd();
    // Each call bills 10 + 20 = 30 tokens; it is estimated at its prompt plus max_tokens (10).
    const key = await keyWith(owner, 'tpm', { tpm_limit: 100 });
    const first = await chat(t, key.key, { max_tokens: 10 });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    const estimate = 100 - Number(first.headers.get('x-ratelimit-remaining-tokens'));
    expect(estimate).toBeGreaterThan(10);
    expect(estimate).toBeLessThan(30);
    expect(first.headers.get('x-ratelimit-reset-tokens')).toMatch(/s$/);
    // Settled at 30: the next call sees 30 used before its own estimate.
    const second = await chat(t, key.key, { max_tokens: 10 });
    expect(second.status).toBe(200);
    expect(Number(second.headers.get('x-ratelimit-remaining-tokens'))).toBe(100 - 30 - estimate);
    expect((await chat(t, key.key, { max_tokens: 10 })).status).toBe(200);
    // 90 used: another estimate does not fit.
    const refused = await chat(t, key.key, { max_tokens: 10 });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('tokens_per_minute_exceeded');
    expect(refused.body.error?.message).toMatch(/100 tokens per minute/);
    // A call asking for more than the whole minute's tokens can never fit.
    const huge = await chat(t, (await keyWith(owner, 'tpm2', { tpm_limit: 100 })).key, { max_tokens: 500 });
    expect(huge.status).toBe(429);
  });

  it('lets concurrency_limit calls run at once; the others get 429 until one ends', async () => {
    const key = await keyWith(owner, 'conc', { concurrency_limit: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => chat(t, key.key, { model: 'gpt-4' })));
    expect(count(answers, 200)).toBe(2);
    expect(count(answers, 429)).toBe(4);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body.error?.code).toBe('concurrency_limit_exceeded');
    expect(refused.body.error?.message).toMatch(/2 requests at the same time/);
    // The slots came back with the answers (and a failed call gives its slot back too).
    const again = await Promise.all([
      chat(t, key.key, { model: 'gpt-4' }),
      chat(t, key.key, { model: 'gpt-4' }),
    ]);
    expect(again.map((answer) => answer.status)).toEqual([200, 200]);
    const failing = await chat(t, key.key, { model: 'no-such-model' });
    expect(failing.status).not.toBe(429);
    expect((await chat(t, key.key, { model: 'gpt-4' })).status).toBe(200);
  });

  it("caps a user's keys with the limits an administrator set on the user", async () => {
    const capped = await t.user('capped');
    const id = (await capped.get<EnvelopeBody<User>>('/api/user/self')).body.data!.id;
    await root.post('/api/topup', { user_id: id, quota: 1_000_000 });
    const saved = await root.put<EnvelopeBody<User>>('/api/user/', { id, rpm_limit: 3, tpm_limit: 0 });
    expect(saved.body.success, saved.body.message).toBe(true);
    expect(saved.body.data).toMatchObject({ rpm_limit: 3, tpm_limit: 0, concurrency_limit: 0 });
    // The user sees them (read-only: the self form has no such fields).
    expect((await capped.get<EnvelopeBody<User>>('/api/user/self')).body.data).toMatchObject({
      rpm_limit: 3,
    });
    const refusedSelf = await capped.put<EnvelopeBody>('/api/user/self', { rpm_limit: 100 });
    expect((await capped.get<EnvelopeBody<User>>('/api/user/self')).body.data?.rpm_limit).toBe(3);
    expect(refusedSelf.status).toBe(200);
    // A key may be limited lower, not higher.
    const higher = await capped.post<EnvelopeBody>('/api/token/', {
      name: 'higher',
      unlimited_quota: true,
      rpm_limit: 5,
    });
    expect(higher.body).toMatchObject({ success: false, code: 'token_rpm_limit_above_user' });
    expect(higher.body.message).toMatch(/at most 3 requests per minute/);
    const lower = await keyWith(capped, 'lower', { rpm_limit: 2 });
    expect(lower.rpm_limit).toBe(2);
    // A key without a limit of its own gets the user's.
    const plain = await keyWith(capped, 'plain', {});
    const answers = [];
    for (let call = 0; call < 4; call++) answers.push(await chat(t, plain.key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers.get('x-ratelimit-limit-requests')).toBe('3');
  });

  it('keeps the limits when a one-api client saves the key without them, and clears them with 0', async () => {
    const key = await keyWith(owner, 'kept', { rpm_limit: 7, tpm_limit: 7000, concurrency_limit: 3 });
    const {
      rpm_limit,
      tpm_limit,
      concurrency_limit,
      budget_quota,
      budget_period,
      budget_used,
      budget_reset_at,
      ...oneApi
    } = key;
    const saved = await owner.put<EnvelopeBody<typeof key>>('/api/token/', oneApi);
    expect(saved.body.data).toMatchObject({ rpm_limit: 7, tpm_limit: 7000, concurrency_limit: 3 });
    const cleared = await owner.put<EnvelopeBody<typeof key>>('/api/token/', {
      ...oneApi,
      rpm_limit: 0,
      tpm_limit: null,
    });
    expect(cleared.body.data).toMatchObject({ rpm_limit: 0, tpm_limit: 7000, concurrency_limit: 3 });
  });

  it('refuses bad limits with a clear message', async () => {
    const negative = await owner.post<EnvelopeBody>('/api/token/', { name: 'bad', rpm_limit: -1 });
    expect(negative.body.success).toBe(false);
    expect(negative.body.message).toMatch(/rpm_limit/);
    const fraction = await owner.post<EnvelopeBody>('/api/token/', { name: 'bad', tpm_limit: 1.5 });
    expect(fraction.body.success).toBe(false);
    const text = await root.put<EnvelopeBody>('/api/user/', { id: ownerId, concurrency_limit: 'many' });
    expect(text.body.success).toBe(false);
    expect(text.body.message).toMatch(/concurrency_limit/);
  });
});

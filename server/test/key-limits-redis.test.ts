import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { awayFromMinuteEnd, chat, count, keyWith } from './key-limits-helpers';
import { createChannel } from './relay-setup';
import { waitFor } from './wait';

// A Redis database of this suite's own; the counters are named by a digest of each key, so runs on
// other databases at the same time never share a count.
const REDIS_URL = `${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}/13`;

describe('key limits across two processes sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let fake: HttpFake;
  let slow: HttpFake;
  let owner: Awaited<ReturnType<TestApp['user']>>;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ usage: { prompt_tokens: 10, completion_tokens: 20 } })).start();
    slow = await new HttpFake(openAiHandler({ delayMs: 800 })).start();
    a = await startTestApp({ env: { REDIS_CONN_STRING: REDIS_URL } });
    b = await startTestApp({ database: a.database, env: { REDIS_CONN_STRING: REDIS_URL } });
    const root = await a.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo' });
    await createChannel(root, { base_url: slow.url, models: 'gpt-4' });
    owner = await a.user('hammer');
    const id = (await owner.get<EnvelopeBody<User>>('/api/user/self')).body.data!.id;
    await root.post('/api/topup', { user_id: id, quota: 10_000_000 });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fake.close();
    await slow.close();
  });

  it('one key hammered on both processes: exactly rpm_limit calls pass in the minute', async () => {
    const key = await keyWith(owner, 'hammered', { rpm_limit: 10 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, call) => chat(call % 2 === 0 ? a : b, key.key)),
    );
    expect(count(answers, 200)).toBe(10);
    expect(count(answers, 429)).toBe(30);
    // Both processes answered some of the 200s and some of the 429s from the one count.
    const remaining = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining-requests')))
      .sort((x, y) => x - y);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('one count of tokens per minute for both processes', async () => {
    await awayFromMinuteEnd();
    const key = await keyWith(owner, 'tokens', { tpm_limit: 100 });
    // 30 tokens billed per call: three fit (90), the fourth's estimate does not.
    const answers = [];
    for (let call = 0; call < 5; call++)
      answers.push(await chat(call % 2 === 0 ? a : b, key.key, { max_tokens: 10 }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
  });

  it('one count of concurrent calls for both processes', async () => {
    const key = await keyWith(owner, 'parallel', { concurrency_limit: 3 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, call) => chat(call % 2 === 0 ? a : b, key.key, { model: 'gpt-4' })),
    );
    expect(count(answers, 200)).toBe(3);
    expect(count(answers, 429)).toBe(7);
    const again = await Promise.all(
      [1, 2, 3].map((call) => chat(call % 2 === 0 ? a : b, key.key, { model: 'gpt-4' })),
    );
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200]);
  });

  it("an edit of the key's limit is in force on the other process at once", async () => {
    const key = await keyWith(owner, 'edited', { rpm_limit: 100 });
    expect((await chat(b, key.key)).status).toBe(200);
    const { budget_used, budget_reset_at, ...fields } = key;
    const saved = await owner.put<EnvelopeBody>('/api/token/', { ...fields, rpm_limit: 1 });
    expect(saved.body.success, saved.body.message).toBe(true);
    // Heard through Redis: well before the other process's cached key (10 s) would expire.
    const refused = await waitFor(
      async () => {
        const answer = await chat(b, key.key);
        return answer.status === 429 ? answer : undefined;
      },
      { what: 'the edit to be in force on the other process', timeoutMs: 3_000, intervalMs: 20 },
    );
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('1');
  });
});

import type { DashboardRow, LogEntry, LogFilter } from '@switchyard/contract/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildLogSummaries } from '../src/db/repos/log-summaries/rebuild';
import { insertLog, type LogScope, listLogs, sumLogQuota, sumLogQuotaRaw } from '../src/db/repos/logs';
import type { NewLogRow } from '../src/db/schema';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { logOnly } from './ledger-books';
import { seededRandom } from './seeded-random';

type Logs = EnvelopeBody<LogEntry[]>;
const DAY = 86400;
const BASE = 1_760_000_000 - (1_760_000_000 % DAY);

describe('usage logs', () => {
  let t: TestApp;
  let root: Client;
  let alice: Client;
  let bob: Client;
  let aliceId = 0;
  let bobId = 0;

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
    alice = await t.user('alice');
    bob = await t.user('bob');
    aliceId = (await alice.get<EnvelopeBody<{ id: number }>>('/api/user/self')).body.data!.id;
    bobId = (await bob.get<EnvelopeBody<{ id: number }>>('/api/user/self')).body.data!.id;
    const rows = [
      {
        user_id: aliceId,
        username: 'alice',
        type: 2,
        model_name: 'gpt-4',
        token_name: 'a1',
        channel_id: 1,
        quota: 100,
        created_at: BASE + 10,
      },
      {
        user_id: aliceId,
        username: 'alice',
        type: 2,
        model_name: 'gpt-4',
        token_name: 'a2',
        channel_id: 2,
        quota: 200,
        created_at: BASE + DAY + 10,
      },
      {
        user_id: aliceId,
        username: 'alice',
        type: 2,
        model_name: 'gpt-3.5-turbo',
        token_name: 'a1',
        channel_id: 1,
        quota: 30,
        created_at: BASE + DAY + 20,
      },
      {
        user_id: aliceId,
        username: 'alice',
        type: 1,
        model_name: '',
        token_name: '',
        channel_id: 0,
        quota: 5000,
        created_at: BASE + 30,
      },
      {
        user_id: bobId,
        username: 'bob',
        type: 2,
        model_name: 'gpt-4',
        token_name: 'b1',
        channel_id: 2,
        quota: 400,
        created_at: BASE + 2 * DAY,
      },
    ];
    for (const row of rows) {
      await insertLog(t.db, { ...row, content: 'seed', prompt_tokens: 10, completion_tokens: 5 });
    }
    for (let i = 0; i < 12; i++) {
      await insertLog(t.db, {
        user_id: bobId,
        username: 'bob',
        type: 4,
        content: `system ${i}`,
        created_at: BASE - DAY,
      });
    }
  });
  afterAll(() => t.close());

  it('lists everyone for admins, newest first, ten a page', async () => {
    const first = (await root.get<Logs>('/api/log/?p=0')).body.data!;
    expect(first).toHaveLength(10);
    expect(first[0]!.id).toBeGreaterThan(first[1]!.id);
    const all = [...first, ...((await root.get<Logs>('/api/log/?p=1')).body.data ?? [])];
    expect(all.length).toBeGreaterThanOrEqual(17);
  });

  it.each([
    ['type=2', 4],
    ['type=1', 1],
    ['model_name=gpt-4', 3],
    ['token_name=a1', 2],
    ['username=bob&type=2', 1],
    ['channel=2', 2],
    [`start_timestamp=${BASE + DAY}&end_timestamp=${BASE + DAY + 15}`, 1],
    [`start_timestamp=${BASE}&end_timestamp=${BASE + 3 * DAY}&type=2&username=alice`, 3],
  ])('filters by %s', async (query, count) => {
    const rows = (await root.get<Logs>(`/api/log/?${query}`)).body.data!;
    expect(rows).toHaveLength(count);
  });

  it('totals quota for the filters (consumption unless a type is chosen)', async () => {
    expect((await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat')).body.data).toEqual({
      quota: 730,
    });
    expect(
      (await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?username=alice')).body.data,
    ).toEqual({ quota: 330 });
    expect((await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?type=1')).body.data).toEqual({
      quota: 5000,
    });
    expect(
      (await alice.get<EnvelopeBody<{ quota: number }>>('/api/log/self/stat?model_name=gpt-4')).body.data,
    ).toEqual({ quota: 300 });
  });

  it('a normal user sees only their own logs', async () => {
    const own = (await alice.get<Logs>('/api/log/self/')).body.data!;
    expect(own).toHaveLength(4);
    expect(own.every((row) => row.user_id === aliceId)).toBe(true);
    expect((await alice.get<Logs>('/api/log/self/?username=bob')).body.data).toHaveLength(4);
    expect((await alice.get('/api/log/')).body.success).toBe(false);
    expect((await alice.get('/api/log/stat')).body.success).toBe(false);
    expect((await alice.delete('/api/log/?target_timestamp=9999999999')).body.success).toBe(false);
    expect((await alice.get<Logs>('/api/log/self/search?keyword=b1')).body.data).toEqual([]);
    expect((await bob.get<Logs>('/api/log/self/search?keyword=b1')).body.data).toHaveLength(1);
  });

  it('refuses malformed filters clearly', async () => {
    const response = await root.get('/api/log/?start_timestamp=yesterday');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('start_timestamp must be a whole number');
  });

  it('charts daily usage per model from one query', async () => {
    const range = `start_timestamp=${BASE}&end_timestamp=${BASE + 3 * DAY}`;
    const own = (await alice.get<EnvelopeBody<DashboardRow[]>>(`/api/user/dashboard?${range}`)).body.data!;
    const day = (offset: number) => new Date((BASE + offset * DAY) * 1000).toISOString().slice(0, 10);
    expect(own).toEqual([
      {
        Day: day(0),
        ModelName: 'gpt-4',
        RequestCount: 1,
        Quota: 100,
        PromptTokens: 10,
        CompletionTokens: 5,
      },
      expect.objectContaining({ Day: day(1), Quota: expect.any(Number) }),
      expect.objectContaining({ Day: day(1) }),
    ]);
    const everyone = (await root.get<EnvelopeBody<DashboardRow[]>>(`/api/user/dashboard?${range}&scope=all`))
      .body.data!;
    expect(everyone.reduce((sum, row) => sum + row.Quota, 0)).toBe(730);
    const bobOnly = (
      await root.get<EnvelopeBody<DashboardRow[]>>(`/api/user/dashboard?${range}&username=bob`)
    ).body.data!;
    expect(bobOnly).toEqual([expect.objectContaining({ Day: day(2), ModelName: 'gpt-4', Quota: 400 })]);
    const ignored = (await alice.get<EnvelopeBody<DashboardRow[]>>(`/api/user/dashboard?${range}&scope=all`))
      .body.data!;
    expect(ignored.reduce((sum, row) => sum + row.Quota, 0)).toBe(330);
  });

  it('deletes logs older than a date and answers how many', async () => {
    const response = await root.delete<EnvelopeBody<number>>(`/api/log/?target_timestamp=${BASE}`);
    expect(response.body).toMatchObject({ success: true, data: 12 });
    expect((await root.get<Logs>('/api/log/?type=4')).body.data).toEqual([]);
    expect((await root.delete('/api/log/')).body.message).toMatch(/Choose the date/);
  });

  // Random logs over three days after the seeds, half through the ledger's batched settle (the relay's
  // path), half through insertLog; then random filters and ranges against a plain SUM.
  const W = BASE + 10 * DAY;
  const MODELS = ['gpt-4', 'gpt-4o', 'claude-3', ''];
  const TOKENS = ['a1', 'a2', 'b1', ''];
  const TYPES = [0, 1, 2, 2, 2, 3, 4, 5];
  const { random, pick, timeWithinThreeDays } = seededRandom(42);
  const randomTime = () => timeWithinThreeDays(W);
  const randomLog = (): NewLogRow => {
    const alice = random() < 0.5;
    return {
      user_id: alice ? aliceId : bobId,
      username: alice ? 'alice' : pick(['bob', 'bobby']),
      type: pick([1, 2, 2, 2, 3, 4, 5]),
      content: 'random',
      model_name: pick(MODELS),
      token_name: pick(TOKENS),
      channel_id: pick([0, 1, 2, 3]),
      quota: Math.floor(random() * 1000),
      created_at: randomTime(),
      prompt_tokens: 1,
      completion_tokens: 1,
      request_id: '',
      elapsed_time: 0,
      is_stream: false,
      system_prompt_reset: false,
    };
  };
  const randomFilter = (): [Partial<LogFilter>, LogScope] => {
    const filter: Partial<LogFilter> = { type: pick(TYPES) };
    if (random() < 0.7) filter.startTimestamp = randomTime();
    if (random() < 0.7) filter.endTimestamp = randomTime();
    if (random() < 0.3) filter.modelName = pick(MODELS);
    if (random() < 0.3) filter.tokenName = pick(TOKENS);
    if (random() < 0.2) filter.username = pick(['alice', 'bob', 'bobby']);
    if (random() < 0.3) filter.channel = pick([0, 1, 2, 3]);
    return [filter, random() < 0.3 ? { userId: pick([aliceId, bobId]) } : {}];
  };
  const expectSummedExactly = async (queries: number) => {
    let nonZero = 0;
    for (let i = 0; i < queries; i++) {
      const [filter, scope] = randomFilter();
      const raw = await sumLogQuotaRaw(t.db, filter, scope);
      expect({ filter, scope, quota: await sumLogQuota(t.db, filter, scope) }).toEqual({
        filter,
        scope,
        quota: raw,
      });
      if (raw > 0) nonZero++;
    }
    expect(nonZero).toBeGreaterThan(queries / 5);
  };
  const summaries = async () => ({
    hourly: (await t.db.kysely.selectFrom('log_summaries').selectAll().execute())
      .map((row) => ({ ...row, quota: Number(row.quota), log_count: Number(row.log_count) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    daily: (await t.db.kysely.selectFrom('log_daily_summaries').selectAll().execute())
      .map((row) => ({ ...row, quota: Number(row.quota), log_count: Number(row.log_count) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  });

  it('totals from the summaries equal a plain SUM for random filters and ranges', async () => {
    const settlementOf = (log: NewLogRow) => logOnly('logs-test', log);
    // Rows the ledger's types rule out, summarized as the JavaScript and a rebuild read them: NULL
    // key columns as empty or zero, no time as never summarized.
    const sparseLog = (): NewLogRow => {
      const log = {
        ...randomLog(),
        username: null,
        token_name: null,
        model_name: null,
        channel_id: null,
        type: null,
      };
      return (random() < 0.8 ? log : { ...log, created_at: null }) as unknown as NewLogRow;
    };
    let seq = 0;
    for (let batch = 0; batch < 10; batch++) {
      await t.db.ledger.settle(
        'logs-test',
        ++seq,
        Array.from({ length: 30 }, () => settlementOf(randomLog())),
        W,
      );
      // Batches of one log: the embedded ledger summarizes those in SQL, the others in JavaScript.
      for (let i = 0; i < 5; i++)
        await t.db.ledger.settle('logs-test', ++seq, [settlementOf(randomLog())], W);
      await t.db.ledger.settle('logs-test', ++seq, [settlementOf(sparseLog())], W);
      for (let i = 0; i < 20; i++) await insertLog(t.db, randomLog() as never);
    }
    await expectSummedExactly(300);
    // Kept one log at a time (on SQLite the ledger's logs are folded in after their commit; the
    // totals above read those not folded yet from the logs), the summaries are what a rebuild gives.
    await t.app.services.logSummaryCatchUp.catchUp();
    await expectSummedExactly(100);
    const kept = await summaries();
    expect(kept.hourly.length).toBeGreaterThan(50);
    await rebuildLogSummaries(t.db);
    expect(await summaries()).toEqual(kept);
  });

  it('the API answers totals from the summaries, own logs only for users', async () => {
    const cases = [
      `start_timestamp=${W + 3601}&end_timestamp=${W + 2 * DAY + 7199}`,
      `start_timestamp=${W}&end_timestamp=${W + 3 * DAY}&model_name=gpt-4`,
      `start_timestamp=${W + 100}&channel=2&type=5`,
      `end_timestamp=${W + DAY + 5}&token_name=a1`,
      'username=bob',
    ];
    for (const query of cases) {
      const params = new URLSearchParams(query);
      const filter: Partial<LogFilter> = {
        type: Number(params.get('type') ?? 0),
        startTimestamp: Number(params.get('start_timestamp') ?? 0),
        endTimestamp: Number(params.get('end_timestamp') ?? 0),
        modelName: params.get('model_name') ?? '',
        tokenName: params.get('token_name') ?? '',
        username: params.get('username') ?? '',
        channel: Number(params.get('channel') ?? 0),
      };
      const everyone = (await root.get<EnvelopeBody<{ quota: number }>>(`/api/log/stat?${query}`)).body.data;
      expect(everyone).toEqual({ quota: await sumLogQuotaRaw(t.db, filter, {}) });
      const own = (await alice.get<EnvelopeBody<{ quota: number }>>(`/api/log/self/stat?${query}`)).body.data;
      // Users filter their own logs; username and channel are the admin's filters.
      const ownFilter = { ...filter, username: '', channel: 0 };
      expect(own).toEqual({ quota: await sumLogQuotaRaw(t.db, ownFilter, { userId: aliceId }) });
      expect(own!.quota).toBeGreaterThan(0);
    }
  });

  it('pages list the same rows, newest first, as a plain ordered query', async () => {
    const filters: Array<[Partial<LogFilter>, LogScope]> = [
      [{}, {}],
      [{ modelName: 'gpt-4o' }, {}],
      [{ type: 2, startTimestamp: W + DAY, endTimestamp: W + 2 * DAY }, {}],
      [{ channel: 3, tokenName: 'b1' }, {}],
      [{ username: 'bobby' }, {}],
      [{}, { userId: aliceId }],
    ];
    for (const [filter, scope] of filters) {
      const paged: number[] = [];
      for (let page = 0; ; page++) {
        const rows = await listLogs(t.db, filter, scope, page);
        paged.push(...rows.map((row) => row.id));
        if (rows.length < 10) break;
      }
      let q = t.db.kysely.selectFrom('logs').select('id').orderBy('id', 'desc');
      if (filter.modelName) q = q.where('model_name', '=', filter.modelName);
      if (filter.type) q = q.where('type', '=', filter.type);
      if (filter.startTimestamp) q = q.where('created_at', '>=', filter.startTimestamp);
      if (filter.endTimestamp) q = q.where('created_at', '<=', filter.endTimestamp);
      if (filter.channel) q = q.where('channel_id', '=', filter.channel);
      if (filter.tokenName) q = q.where('token_name', '=', filter.tokenName);
      if (filter.username) q = q.where('username', '=', filter.username);
      if (scope.userId) q = q.where('user_id', '=', scope.userId);
      const expected = (await q.execute()).map((row) => row.id);
      expect(expected.length).toBeGreaterThan(5);
      expect(paged).toEqual(expected);
    }
    const third = (await alice.get<Logs>('/api/log/self/?p=2')).body.data!;
    expect(third.map((row) => row.id)).toEqual(
      (await listLogs(t.db, {}, { userId: aliceId }, 2)).map((row) => row.id),
    );
  });

  it('clean-up takes the deleted logs out of the summaries', async () => {
    // Mid-hour and mid-day: both partial buckets are corrected, whole ones dropped.
    const cut = W + DAY + 5 * 3600 + 1234;
    const before = await sumLogQuotaRaw(t.db, { startTimestamp: cut }, {});
    const response = await root.delete<EnvelopeBody<number>>(`/api/log/?target_timestamp=${cut}`);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toBeGreaterThan(50);
    expect((await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat')).body.data).toEqual({
      quota: before,
    });
    await t.app.services.logSummaryCatchUp.catchUp();
    const kept = await summaries();
    expect(kept.hourly.every((row) => row.bucket >= cut - (cut % 3600) && row.log_count > 0)).toBe(true);
    expect(kept.daily.every((row) => row.bucket >= cut - (cut % DAY) && row.log_count > 0)).toBe(true);
    await expectSummedExactly(200);
    await rebuildLogSummaries(t.db);
    expect(await summaries()).toEqual(kept);
    // An hour-aligned cut, and one at a day's start.
    await deleteAndCheck(W + DAY + 8 * 3600);
    await deleteAndCheck(W + 2 * DAY);
  });

  async function deleteAndCheck(cut: number) {
    await root.delete(`/api/log/?target_timestamp=${cut}`);
    await t.app.services.logSummaryCatchUp.catchUp();
    const kept = await summaries();
    await expectSummedExactly(100);
    await rebuildLogSummaries(t.db);
    expect(await summaries()).toEqual(kept);
  }
});

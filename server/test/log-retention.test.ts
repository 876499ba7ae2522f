import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAuditLog } from '../src/db/repos/audit-logs';
import { SUMMARIZED_COLUMNS, summarizeLogs } from '../src/db/repos/log-summaries/buckets';
import { insertLog, sumLogQuota, sumLogQuotaRaw } from '../src/db/repos/logs';
import type { NewLogRow } from '../src/db/schema';
import { LogRetention } from '../src/jobs/log-retention';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { seededRandom } from './seeded-random';

const DAY = 86400;
/** The test's clock: "now" is a fixed time in the middle of an hour, so cut-offs split buckets. */
const NOW = 1_770_000_000 + 1234;

/** A log as one-api writes it: its own columns only, so the summaries lack it until caught up. */
type OneApiLog = Omit<NewLogRow, 'summarized' | 'facts'>;

describe('log retention (LogRetentionDays)', () => {
  let t: TestApp;
  let root: Client;
  const { random, pick } = seededRandom(11);
  const randomLog = (withinDays: number): OneApiLog => ({
    user_id: pick([1, 2]),
    created_at: NOW - Math.floor(random() * withinDays * DAY),
    type: pick([1, 2, 2, 3]),
    content: 'x',
    username: pick(['root', 'bob']),
    token_name: pick(['a', 'b', '']),
    model_name: pick(['gpt-4', 'gpt-4o']),
    quota: Math.floor(random() * 1000),
    prompt_tokens: 1,
    completion_tokens: 1,
    channel_id: pick([1, 2]),
    request_id: '',
    elapsed_time: 0,
    is_stream: false,
    system_prompt_reset: false,
  });
  const numeric = (row: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])),
    );
  const summaryRows = async () => ({
    hourly: (await t.db.kysely.selectFrom('log_summaries').selectAll().execute()).map(numeric).sort(),
    daily: (await t.db.kysely.selectFrom('log_daily_summaries').selectAll().execute()).map(numeric).sort(),
  });
  /** What the summaries must hold: the logs they took in (all of them once caught up). */
  const expectedRows = async (onlySummarized: boolean) => {
    const logs = await t.db.kysely
      .selectFrom('logs')
      .select([...SUMMARIZED_COLUMNS])
      .$if(onlySummarized, (q) => q.where('summarized', 'is not', null))
      .execute();
    const { hourly, daily } = summarizeLogs(logs);
    return { hourly: hourly.map(numeric).sort(), daily: daily.map(numeric).sort() };
  };
  const countBefore = async (time: number) =>
    Number(
      (
        await t.db.kysely
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('created_at', '<', time)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const retention = (batchSize: number) =>
    new LogRetention({
      db: t.db,
      options: t.app.services.options,
      clock: () => NOW * 1000,
      pace: { batchSize, pauseMs: 1 },
    });

  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW * 1000 });
    root = await t.root();
  });
  afterAll(() => t?.close());

  it('is off by default: nothing is deleted', async () => {
    await insertLog(t.db, { ...randomLog(1), created_at: NOW - 400 * DAY });
    expect(await retention(10).run()).toBe(0);
    expect(await countBefore(NOW - 399 * DAY)).toBe(1);
  });

  it('deletes, batch by batch, exactly the logs older than the retention; totals stay the SUM of what is left', async () => {
    for (let i = 0; i < 150; i++) await insertLog(t.db, randomLog(60));
    // Logs another program wrote: some deleted before the catch-up ever takes them in.
    for (let i = 0; i < 60; i++) await t.db.kysely.insertInto('logs').values(randomLog(60)).execute();
    const saved = await root.put('/api/option/', { key: 'LogRetentionDays', value: '30' });
    expect(saved.body).toMatchObject({ success: true });
    const cutoff = NOW - 30 * DAY;
    const kept = (
      await t.db.kysely.selectFrom('logs').select('id').where('created_at', '>=', cutoff).execute()
    )
      .map((row) => row.id)
      .sort((a, b) => a - b);
    const old = await countBefore(cutoff);
    expect(old).toBeGreaterThan(50);

    // Relay-like writes of new logs go on while the clean-up runs.
    const writes = Array.from({ length: 20 }, () => insertLog(t.db, randomLog(1)));
    expect(await retention(7).run()).toBe(old);
    await Promise.all(writes);

    expect(await countBefore(cutoff)).toBe(0);
    const left = (
      await t.db.kysely.selectFrom('logs').select('id').where('created_at', '>=', cutoff).execute()
    )
      .map((row) => row.id)
      .sort((a, b) => a - b);
    expect(left.filter((id) => id <= (kept.at(-1) ?? 0))).toEqual(kept);
    expect(await summaryRows()).toEqual(await expectedRows(true));

    await t.app.services.logSummaryCatchUp.catchUp();
    expect(await summaryRows()).toEqual(await expectedRows(false));
    const stat = await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat');
    expect(stat.body.data?.quota).toBe(await sumLogQuotaRaw(t.db, {}, {}));
    for (const startTimestamp of [cutoff - DAY, cutoff - 7, cutoff + 5, cutoff + 3 * DAY + 100]) {
      for (const type of [0, 2, 3]) {
        const filter = { startTimestamp, endTimestamp: NOW, type };
        expect(await sumLogQuota(t.db, filter, {})).toBe(await sumLogQuotaRaw(t.db, filter, {}));
        expect(await sumLogQuota(t.db, filter, { userId: 2 })).toBe(
          await sumLogQuotaRaw(t.db, filter, { userId: 2 }),
        );
      }
    }
  });

  it('runs in the app as a background job and answers a second run with nothing to do', async () => {
    for (let i = 0; i < 5; i++) await insertLog(t.db, { ...randomLog(1), created_at: NOW - 45 * DAY });
    expect(await t.app.services.logRetention.run()).toBe(5);
    expect(await t.app.services.logRetention.run()).toBe(0);
    expect(await summaryRows()).toEqual(await expectedRows(false));
  });

  it("deletes the audit log's entries older than the retention too, in batches", async () => {
    const entry = (created_at: number) => ({
      created_at,
      actor_id: 1,
      actor_name: 'root',
      actor_role: 100,
      ip: '127.0.0.1',
      action: 'option.update',
      target_type: 'option',
      target_id: 'LogRetentionDays',
      target_name: 'LogRetentionDays',
    });
    for (let i = 0; i < 9; i++) await insertAuditLog(t.db, entry(NOW - 31 * DAY - i));
    const recent = await insertAuditLog(t.db, entry(NOW - 29 * DAY));
    await retention(4).run();
    const left = await t.db.kysely
      .selectFrom('audit_logs')
      .select('id')
      .where('created_at', '<', NOW - 30 * DAY)
      .execute();
    expect(left).toEqual([]);
    const kept = await t.db.kysely.selectFrom('audit_logs').select('id').where('id', '=', recent).execute();
    expect(kept).toHaveLength(1);
  });

  it('refuses a retention that is not a whole number of days', async () => {
    const saved = await root.put('/api/option/', { key: 'LogRetentionDays', value: '-3' });
    expect(saved.body).toMatchObject({ success: false });
  });
});

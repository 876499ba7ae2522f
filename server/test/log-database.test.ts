import type { DashboardRow, LogEntry } from '@switchyard/contract/logs';
import { LogType } from '@switchyard/contract/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestLogId, readFoldedThrough } from '../src/db/repos/log-summaries/state';
import { insertLog } from '../src/db/repos/logs';
import { LogShipper } from '../src/domain/log-shipper';
import { createLogTestDatabase, LOG_TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { balances, type Customer, createChannel, createCustomer } from './relay-setup';

type Logs = EnvelopeBody<LogEntry[]>;
const QUOTA_PER_UNIT = 500_000;

async function spend(customer: Customer, calls: number): Promise<void> {
  for (let call = 0; call < calls; call++)
    await customer.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });
}

/** Waits for the settlements, then ships the outbox to the log database. */
async function shipped(t: TestApp): Promise<void> {
  await t.app.services.relay.settled();
  await t.app.services.logShipper!.shipAll();
}

const countRows = async (db: TestApp['db']['logs'], table: 'logs' | 'log_outbox' | 'log_receipts') =>
  Number(
    (
      await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

describe(`usage logs in a database of their own (LOG_SQL_DSN on ${LOG_TEST_DIALECT})`, () => {
  let t: TestApp;
  let logDatabase: TestDatabase;
  let root: Client;
  let fake: HttpFake;
  let alice: Customer;
  let channelId = 0;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'pong' })).start();
    logDatabase = await createLogTestDatabase();
    t = await startTestApp({ logDatabase });
    root = await t.root();
    channelId = await createChannel(root, { base_url: fake.url });
    alice = await createCustomer(t, 'alice');
    await spend(alice, 3);
    await shipped(t);
  });
  afterAll(async () => {
    await t.close();
    await logDatabase.drop();
    await fake.close();
  });

  it('keeps every log in the log database, none in the main one, and empties the outbox', async () => {
    expect(t.db.logs.dialect).toBe(LOG_TEST_DIALECT);
    expect(await countRows(t.db, 'logs')).toBe(0);
    expect(await countRows(t.db, 'log_outbox')).toBe(0);
    expect(await countRows(t.db.logs, 'log_receipts')).toBe(0);
    const consume = await t.db.logs.kysely
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', alice.userId)
      .where('type', '=', 2)
      .execute();
    expect(consume).toHaveLength(3);
    const books = await balances(t, alice.userId, alice.token.id);
    expect(consume.reduce((sum, log) => sum + Number(log.quota), 0)).toBe(books.usedQuota);
    // The top-up's system log travelled the same way, in the top-up's transaction.
    const topUps = await t.db.logs.kysely
      .selectFrom('logs')
      .select('quota')
      .where('user_id', '=', alice.userId)
      .where('type', '=', 1)
      .execute();
    expect(topUps).toHaveLength(1);
  });

  it('serves the log page, the stats and the dashboard from the log database', async () => {
    const books = await balances(t, alice.userId, alice.token.id);
    const page = (await root.get<Logs>('/api/log/?type=2')).body.data!;
    expect(page.map((log) => log.username)).toEqual(['alice', 'alice', 'alice']);
    const own = (await alice.client.get<Logs>('/api/log/self?type=2')).body.data!;
    expect(own).toHaveLength(3);
    const stat = await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?type=2');
    expect(stat.body.data!.quota).toBe(books.usedQuota);
    const selfStat = await alice.client.get<EnvelopeBody<{ quota: number }>>('/api/log/self/stat');
    expect(selfStat.body.data!.quota).toBe(books.usedQuota);
    const dashboard = (await alice.client.get<EnvelopeBody<DashboardRow[]>>('/api/user/dashboard')).body
      .data!;
    expect(dashboard.reduce((sum, row) => sum + row.Quota, 0)).toBe(books.usedQuota);
    expect(dashboard.reduce((sum, row) => sum + row.RequestCount, 0)).toBe(3);
    const usage = (await alice.openai.get('/dashboard/billing/usage')) as { total_usage: number };
    expect(usage.total_usage).toBeCloseTo((books.tokenUsed / QUOTA_PER_UNIT) * 100, 9);
  });

  it('writes channel tests to the log database', async () => {
    await root.get(`/api/channel/test/${channelId}/`);
    await t.app.services.logShipper!.shipAll();
    const tests = (await root.get<Logs>(`/api/log/?type=5&channel=${channelId}`)).body.data!;
    expect(tests).toHaveLength(1);
    expect(tests[0]?.facts).toMatchObject({ kind: 'channel_test', success: true });
  });

  it('ships an outbox row only once, even shipped twice after a crash between the two databases', async () => {
    // The timer stopped, so that this test alone ships; then a log in the outbox, as a top-up writes it.
    await t.app.services.logShipper!.close();
    await spend(alice, 1);
    await t.app.services.relay.settled();
    const before = await countRows(t.db.logs, 'logs');
    // A shipper that wrote to the log database and died before emptying the outbox: its receipts
    // are there, the outbox row too.
    const [entry] = await t.db.kysely.selectFrom('log_outbox').select(['id', 'payload']).execute();
    expect(entry).toBeDefined();
    const { receiveLogs } = await import('../src/db/repos/log-shipments');
    const { waitingAmong } = await import('../src/db/log-outbox');
    const log = JSON.parse(entry!.payload);
    const waiting = (ids: number[]) => waitingAmong(t.db, ids);
    expect(await receiveLogs(t.db.logs, [{ id: Number(entry!.id), log }], waiting)).toBe(1);
    expect(await receiveLogs(t.db.logs, [{ id: Number(entry!.id), log }], waiting)).toBe(0);
    await t.app.services.logShipper!.shipAll();
    expect(await countRows(t.db.logs, 'logs')).toBe(before + 1);
    expect(await countRows(t.db, 'log_outbox')).toBe(0);
    // A shipper that read the row before another shipped it, emptied the outbox and forgot the
    // receipt: its receipt is new, but the row is no longer waiting, so it writes nothing.
    expect(await countRows(t.db.logs, 'log_receipts')).toBe(0);
    expect(await receiveLogs(t.db.logs, [{ id: Number(entry!.id), log }], waiting)).toBe(0);
    expect(await countRows(t.db.logs, 'logs')).toBe(before + 1);
    expect(await countRows(t.db.logs, 'log_receipts')).toBe(0);
    const stat = await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?type=2');
    expect(stat.body.data!.quota).toBe((await balances(t, alice.userId, alice.token.id)).usedQuota);
  });

  it('writes each log once when several processes ship the same outbox at the same time', async () => {
    const before = await countRows(t.db.logs, 'logs');
    const shippers = [0, 1, 2].map(() => new LogShipper({ db: t.db, logs: t.db.logs }));
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 40; i++)
        await insertLog(t.db, { user_id: 0, type: LogType.system, content: `round ${round} line ${i}` });
      await Promise.all(shippers.map((shipper) => shipper.shipAll()));
    }
    expect(await countRows(t.db, 'log_outbox')).toBe(0);
    expect(await countRows(t.db.logs, 'log_receipts')).toBe(0);
    expect(await countRows(t.db.logs, 'logs')).toBe(before + 200);
    const lines = await t.db.logs.kysely
      .selectFrom('logs')
      .select('content')
      .where('content', 'like', 'round %')
      .execute();
    expect(new Set(lines.map((line) => line.content)).size).toBe(200);
  });

  it('catches up logs another program writes there, and retention deletes old ones there', async () => {
    const statNow = async () =>
      (await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?type=2')).body.data!.quota;
    const used = (await balances(t, alice.userId, alice.token.id)).usedQuota;
    expect(await statNow()).toBe(used);
    // one-api writing to the same LOG_SQL_DSN: its row carries no summary mark.
    await t.db.logs.kysely
      .insertInto('logs')
      .values({
        user_id: alice.userId,
        username: 'alice',
        type: 2,
        content: 'one-api',
        quota: 777,
        created_at: Math.floor(Date.now() / 1000) - 3 * 86400,
        token_name: '',
        model_name: 'gpt-3.5-turbo',
        prompt_tokens: 0,
        completion_tokens: 0,
        channel_id: 0,
        request_id: '',
        elapsed_time: 0,
        is_stream: false,
        system_prompt_reset: false,
        facts: null,
        summarized: null,
      })
      .execute();
    expect(await t.app.services.logSummaryCatchUp.catchUp()).toBe(1);
    expect(await statNow()).toBe(used + 777);
    // A SQLite log database has the fold's mark too, moved past the logs there by the catch-up's fold.
    if (t.db.logs.dialect === 'sqlite')
      expect(await readFoldedThrough(t.db.logs)).toBe(await newestLogId(t.db.logs));
    expect((await root.put('/api/option/', { key: 'LogRetentionDays', value: '2' })).body.success).toBe(true);
    expect(await t.app.services.logRetention.run()).toBe(1);
    expect(await statNow()).toBe(used);
  });

  it('cleans up in the log database, summaries included', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    const deleted = await root.delete<EnvelopeBody<number>>(`/api/log/?target_timestamp=${future}`);
    expect(deleted.body.success).toBe(true);
    expect(deleted.body.data).toBeGreaterThan(0);
    expect(await countRows(t.db.logs, 'logs')).toBe(0);
    expect((await root.get<EnvelopeBody<{ quota: number }>>('/api/log/stat?type=2')).body.data!.quota).toBe(
      0,
    );
  });
});

describe('a log database that cannot be reached', () => {
  let t: TestApp;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'pong' })).start();
    t = await startTestApp({ env: { LOG_SQL_DSN: 'postgres://postgres@127.0.0.1:1/nowhere' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('blocks no relayed call: the logs wait in the outbox, and /readyz says so without failing', async () => {
    const root = await t.root();
    await createChannel(root, { base_url: fake.url });
    const customer = await createCustomer(t, 'carol');
    await spend(customer, 2);
    await t.app.services.relay.settled();
    const books = await balances(t, customer.userId, customer.token.id);
    expect(books.usedQuota).toBeGreaterThan(0);
    // Two consumption logs and the top-up's, waiting.
    expect(await countRows(t.db, 'log_outbox')).toBeGreaterThanOrEqual(3);
    await expect(t.app.services.logShipper!.shipAll()).rejects.toThrow();
    const ready = await t
      .client()
      .get<{ status: string; log_database: string; log_outbox: number }>('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.log_database).not.toBe('ok');
    expect(ready.body.log_outbox).toBeGreaterThanOrEqual(3);
  });
});

describe('without LOG_SQL_DSN', () => {
  it('has no outbox and no shipper: logs are written with the money, in the one database', async () => {
    const t = await startTestApp();
    try {
      expect(t.db.logDatabase).toBeUndefined();
      expect(t.db.logs.kysely).toBe(t.db.kysely);
      expect(t.app.services.logShipper).toBeUndefined();
      const tables = (await t.db.kysely.introspection.getTables()).map((table) => table.name);
      expect(tables).not.toContain('log_outbox');
      expect(tables).not.toContain('log_receipts');
    } finally {
      await t.close();
    }
  });
});

import type { LogFilter } from '@switchyard/contract/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { SUMMARIZED_COLUMNS, summarizeLogs } from '../src/db/repos/log-summaries/buckets';
import { catchUpLogSummaries } from '../src/db/repos/log-summaries/catch-up';
import {
  deleteLogsBefore,
  insertLog,
  type LogScope,
  sumLogQuota,
  sumLogQuotaRaw,
} from '../src/db/repos/logs';
import type { NewLogRow } from '../src/db/schema';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { logOnly } from './ledger-books';
import { seededRandom } from './seeded-random';

const DAY = 86400;
const HOUR = 3600;
const W = 1_770_000_000 - (1_770_000_000 % DAY);

/** A log as one-api's gorm writes it: its own columns only, so Switchyard's `summarized` (and `facts`) stay NULL. */
type OneApiLog = Omit<NewLogRow, 'summarized' | 'facts'>;

describe('logs another program writes to the same database', () => {
  let database: TestDatabase;
  let t: TestApp;
  /** A second connection, standing for one-api or a script. */
  let oneApi: Db;
  let root: Client;
  let alice: Client;
  let aliceId = 0;

  const { random, pick, timeWithinThreeDays, logOf } = seededRandom(7);
  const randomTime = () => timeWithinThreeDays(W);
  const randomLog = (): OneApiLog => {
    const isAlice = random() < 0.5;
    return logOf(
      isAlice ? { id: aliceId, name: 'alice' } : { id: 999, name: 'bob' },
      randomTime(),
      'one-api',
    );
  };
  const writeAsOneApi = async (logs: OneApiLog[], via: Db = oneApi) => {
    for (const log of logs) await via.kysely.insertInto('logs').values(log).execute();
  };
  const writeOurs = async (count: number) => {
    for (let i = 0; i < count; i++) await insertLog(t.db, randomLog());
  };
  const maxId = async () =>
    Number(
      (
        await oneApi.kysely
          .selectFrom('logs')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
  const catchUp = () => t.app.services.logSummaryCatchUp.catchUp();

  const stat = async (client: Client, path: string) =>
    (await client.get<EnvelopeBody<{ quota: number }>>(path)).body.data?.quota;
  const sorted = <T>(rows: T[]) =>
    rows
      .map((row) => JSON.stringify(row, (_, value) => (typeof value === 'bigint' ? Number(value) : value)))
      .sort();
  const numeric = <T extends Record<string, unknown>>(row: T) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)]));
  /** The summary tables as they are, and as the logs now in the table give them. */
  const summariesAndLogs = async () => {
    const logs = await t.db.kysely
      .selectFrom('logs')
      .select([...SUMMARIZED_COLUMNS])
      .execute();
    const expected = summarizeLogs(logs);
    const hourly = await t.db.kysely.selectFrom('log_summaries').selectAll().execute();
    const daily = await t.db.kysely.selectFrom('log_daily_summaries').selectAll().execute();
    return {
      actual: { hourly: sorted(hourly.map(numeric)), daily: sorted(daily.map(numeric)) },
      expected: { hourly: sorted(expected.hourly.map(numeric)), daily: sorted(expected.daily.map(numeric)) },
    };
  };
  const randomFilter = (): [Partial<LogFilter>, LogScope] => {
    const filter: Partial<LogFilter> = { type: pick([0, 1, 2, 2, 3]) };
    if (random() < 0.7) filter.startTimestamp = randomTime();
    if (random() < 0.7) filter.endTimestamp = randomTime();
    if (random() < 0.3) filter.modelName = pick(['gpt-4', 'gpt-4o', '']);
    if (random() < 0.3) filter.tokenName = pick(['a1', 'b1']);
    if (random() < 0.2) filter.username = pick(['alice', 'bob']);
    if (random() < 0.3) filter.channel = pick([1, 2, 3]);
    return [filter, random() < 0.3 ? { userId: aliceId } : {}];
  };
  /** The summaries hold exactly the logs, and every total (API and random filters) is the plain SUM. */
  const expectTotalsExact = async () => {
    const { actual, expected } = await summariesAndLogs();
    expect(actual).toEqual(expected);
    expect(await stat(root, '/api/log/stat')).toBe(await sumLogQuotaRaw(t.db, {}, {}));
    expect(await stat(alice, '/api/log/self/stat')).toBe(await sumLogQuotaRaw(t.db, {}, { userId: aliceId }));
    for (let i = 0; i < 60; i++) {
      const [filter, scope] = randomFilter();
      const raw = await sumLogQuotaRaw(t.db, filter, scope);
      expect({ filter, scope, quota: await sumLogQuota(t.db, filter, scope) }).toEqual({
        filter,
        scope,
        quota: raw,
      });
    }
  };

  const start = async () => {
    t = await startTestApp({ database });
    root = await t.root();
    alice = t.client();
    await alice.login('alice', 'password123');
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startTestApp({ database });
    root = await t.root();
    alice = await t.user('alice');
    aliceId = (await alice.get<EnvelopeBody<{ id: number }>>('/api/user/self')).body.data!.id;
    oneApi = openDatabase(database.target);
  });
  afterAll(async () => {
    await t.close();
    await oneApi.close();
    await database.drop();
  });

  it('are missing from the totals until caught up; then every total is the plain SUM', async () => {
    await writeOurs(40);
    await writeAsOneApi(Array.from({ length: 300 }, randomLog));
    const raw = await sumLogQuotaRaw(t.db, {}, {});
    expect(await stat(root, '/api/log/stat')).toBeLessThan(raw);
    expect(await catchUp()).toBe(300);
    await expectTotalsExact();
    expect(await catchUp()).toBe(0);
  });

  it('takes in logs whose ids are lower than logs already summarized', async () => {
    // A script writing below ids Switchyard already wrote, and summarized.
    const gap = (await maxId()) + 100_000;
    await insertLog(t.db, { ...randomLog(), id: gap });
    await writeAsOneApi([
      { ...randomLog(), id: gap - 500 },
      { ...randomLog(), id: gap - 499 },
    ]);
    expect(await catchUp()).toBe(2);
    await expectTotalsExact();
  });

  it.skipIf(TEST_DIALECT === 'sqlite')(
    'takes in a log committed after logs with higher ids were caught up',
    async () => {
      let commit: () => void = () => {};
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let inserted: () => void = () => {};
      const open = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const slow = oneApi.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('logs').values(randomLog()).execute();
        inserted();
        await committed;
      });
      await open;
      const other = openDatabase(database.target);
      try {
        // Higher ids, committed first: Switchyard's own and another program's.
        await writeOurs(5);
        await writeAsOneApi(Array.from({ length: 20 }, randomLog), other);
        expect(await catchUp()).toBe(20);
        commit();
        await slow;
        expect(await catchUp()).toBe(1);
        await expectTotalsExact();
      } finally {
        commit();
        await other.close();
      }
    },
  );

  it('catches up at start-up what was written while the server was down', async () => {
    await t.close();
    // In the gap left below the highest id already summarized, and after it.
    const gap = await maxId();
    await writeAsOneApi([
      { ...randomLog(), id: gap - 300 },
      { ...randomLog(), id: gap - 200 },
    ]);
    await writeAsOneApi(Array.from({ length: 150 }, randomLog));
    await start();
    await expectTotalsExact();
    expect(await catchUp()).toBe(0);
  });

  it('clean-up keeps the totals exact with logs caught up and not yet', async () => {
    // Mid-hour and mid-day, so that both partial buckets are corrected from the logs they lose.
    const cut = W + DAY + 5 * HOUR + 1234;
    const nearCut = (): OneApiLog => ({
      ...randomLog(),
      created_at: pick([cut - (cut % HOUR), cut - (cut % DAY), cut - 1, cut, cut + 1]) + pick([0, 1, 2]),
    });
    await writeAsOneApi(Array.from({ length: 60 }, nearCut));
    expect(await catchUp()).toBe(60);
    await writeOurs(20);
    await writeAsOneApi(Array.from({ length: 60 }, nearCut));
    await writeAsOneApi(Array.from({ length: 60 }, randomLog));
    const deleted = await root.delete<EnvelopeBody<number>>(`/api/log/?target_timestamp=${cut}`);
    expect(deleted.body.data).toBeGreaterThan(100);
    // The clean-up took out only what the summaries held: the rest is caught up (what is left of it).
    await catchUp();
    await expectTotalsExact();
    expect(await t.db.kysely.selectFrom('logs').select('id').where('created_at', '<', cut).execute()).toEqual(
      [],
    );
  });

  it.skipIf(TEST_DIALECT === 'sqlite')(
    'catch-ups on several processes and a clean-up at once take every log in once',
    async () => {
      await writeAsOneApi(Array.from({ length: 600 }, randomLog));
      const cut = W + DAY + 9 * HOUR + 77;
      const other = openDatabase(database.target);
      try {
        await Promise.all([
          catchUpLogSummaries(t.db, 50),
          catchUpLogSummaries(other, 50),
          catchUpLogSummaries(oneApi, 50),
          deleteLogsBefore(other, cut),
        ]);
      } finally {
        await other.close();
      }
      await catchUp();
      await expectTotalsExact();
    },
  );

  it('does not take in again the logs the ledger writes with their summary', async () => {
    const settlements = Array.from({ length: 30 }, () => logOnly('catch-up-test', randomLog()));
    await t.db.ledger.settle('catch-up-test', 1, settlements, W);
    expect(await catchUp()).toBe(0);
    await expectTotalsExact();
  });
});

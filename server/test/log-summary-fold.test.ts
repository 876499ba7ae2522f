import type { LogFilter } from '@switchyard/contract/logs';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { LOG_VALUES_PER_ROW, logInsert, logValues } from '../src/db/ledger/statements';
import { migrateToLatest } from '../src/db/migrate';
import { SUMMARIZED_COLUMNS, summarizeLogs } from '../src/db/repos/log-summaries/buckets';
import { foldLogSummaries } from '../src/db/repos/log-summaries/fold';
import { AWAITING_FOLD_SQL, newestLogId, readFoldedThrough } from '../src/db/repos/log-summaries/state';
import { deleteLogsBefore, type LogScope, sumLogQuota, sumLogQuotaRaw } from '../src/db/repos/logs';
import type { NewLogRow } from '../src/db/schema';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { startTestApp } from './harness';
import { logOnly } from './ledger-books';
import { seededRandom } from './seeded-random';

const DAY = 86400;
const HOUR = 3600;
const W = 1_770_000_000 - (1_770_000_000 % DAY);

/**
 * The ledger writes a lone log without its summaries; a fold adds them after the commit, and until
 * then the totals read them from the logs. No server runs here, so no fold runs but the test's own.
 */
describe.skipIf(TEST_DIALECT === 'mysql')('log summaries folded after the commit', () => {
  let database: TestDatabase;
  let db: Db;
  let seq = 0;
  const { random, pick, timeWithinThreeDays, logOf } = seededRandom(11);
  const users = [
    { id: 1, name: 'alice' },
    { id: 2, name: 'bob' },
  ];
  const randomLog = (): NewLogRow => logOf(pick(users), timeWithinThreeDays(W), 'fold');
  /**
   * Batches of one log and of several, through the ledger, as the relay settles them; answers how
   * many were alone (left to a fold; a batch's logs are summarized in its transaction).
   */
  const settle = async (batches: number) => {
    let lone = 0;
    for (let i = 0; i < batches; i++) {
      const size = pick([1, 1, 1, 7, 30]);
      const batch = Array.from({ length: size }, () => logOnly('fold-test', randomLog()));
      await db.ledger.settle('fold-test', ++seq, batch, W);
      if (size === 1) lone++;
    }
    return lone;
  };
  const randomFilter = (): [Partial<LogFilter>, LogScope] => {
    const filter: Partial<LogFilter> = { type: pick([0, 1, 2, 2, 3]) };
    if (random() < 0.7) filter.startTimestamp = timeWithinThreeDays(W);
    if (random() < 0.7) filter.endTimestamp = timeWithinThreeDays(W);
    if (random() < 0.3) filter.modelName = pick(['gpt-4', 'gpt-4o']);
    if (random() < 0.3) filter.tokenName = pick(['a1', 'b1']);
    if (random() < 0.2) filter.username = pick(['alice', 'bob']);
    if (random() < 0.3) filter.channel = pick([1, 2, 3]);
    return [filter, random() < 0.3 ? { userId: 1 } : {}];
  };
  /** Every total (no filter, and random ones) is the plain SUM over the logs. */
  const expectTotalsExact = async () => {
    expect(await sumLogQuota(db, {}, {})).toBe(await sumLogQuotaRaw(db, {}, {}));
    for (let i = 0; i < 80; i++) {
      const [filter, scope] = randomFilter();
      const raw = await sumLogQuotaRaw(db, filter, scope);
      expect({ filter, scope, quota: await sumLogQuota(db, filter, scope) }).toEqual({
        filter,
        scope,
        quota: raw,
      });
    }
  };
  const sorted = (rows: object[]) =>
    rows
      .map((row) =>
        JSON.stringify(
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])),
        ),
      )
      .sort();
  /** The summary tables as they are, and as every log in the table gives them. */
  const summariesAndLogs = async () => {
    const logs = await db.kysely
      .selectFrom('logs')
      .select([...SUMMARIZED_COLUMNS])
      .execute();
    const expected = summarizeLogs(logs);
    return {
      actual: {
        hourly: sorted(await db.kysely.selectFrom('log_summaries').selectAll().execute()),
        daily: sorted(await db.kysely.selectFrom('log_daily_summaries').selectAll().execute()),
      },
      expected: { hourly: sorted(expected.hourly), daily: sorted(expected.daily) },
    };
  };
  const expectSummariesWhole = async () => {
    const { actual, expected } = await summariesAndLogs();
    expect(actual).toEqual(expected);
  };
  const awaitingFold = async () =>
    Number(
      (
        await db.kysely
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll<number>().as('logs'))
          .where(sql.raw<boolean>(AWAITING_FOLD_SQL))
          .where(
            'id',
            '>',
            sql<number>`(select summarized_through from log_summary_state where name = 'folded')`,
          )
          .executeTakeFirstOrThrow()
      ).logs,
    );

  const open = async () => {
    database = await createTestDatabase();
    db = openDatabase(database.target);
    await migrateToLatest(db);
  };
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  it('totals count the logs not folded yet; a fold takes each in once', async () => {
    await open();
    const lone = await settle(40);
    expect(lone).toBeGreaterThan(10);
    expect(await awaitingFold()).toBe(lone);
    const unfolded = await summariesAndLogs();
    expect(unfolded.actual).not.toEqual(unfolded.expected);
    await expectTotalsExact();

    await foldLogSummaries(db);
    expect(await awaitingFold()).toBe(0);
    await expectSummariesWhole();
    await expectTotalsExact();
    // Again: nothing is taken in twice.
    await foldLogSummaries(db);
    await expectSummariesWhole();

    // Some folded, some not: still exact; the next fold takes in the new ones.
    expect(await settle(15)).toBeGreaterThan(0);
    expect(await awaitingFold()).toBeGreaterThan(0);
    await expectTotalsExact();
    await foldLogSummaries(db);
    await expectSummariesWhole();
  });

  it('folds in small steps, and several folds and a clean-up at once take every log in once', async () => {
    await open();
    await settle(30);
    await foldLogSummaries(db, 7);
    await expectSummariesWhole();
    await settle(30);
    const cut = W + DAY + 5 * HOUR + 1234;
    await Promise.all([
      foldLogSummaries(db, 5),
      foldLogSummaries(db, 9),
      deleteLogsBefore(db, cut),
      settle(5),
    ]);
    await expectTotalsExact();
    await foldLogSummaries(db);
    await expectSummariesWhole();
    await expectTotalsExact();
  });

  it('a clean-up takes out only the folded logs it deletes; those not folded never enter', async () => {
    await open();
    await settle(30);
    await foldLogSummaries(db);
    expect(await settle(60)).toBeGreaterThan(20);
    expect(await awaitingFold()).toBeGreaterThan(20);
    // Mid-hour and mid-day: both partial buckets lose what their deleted logs added.
    expect(await deleteLogsBefore(db, W + DAY + 5 * HOUR + 1234)).toBeGreaterThan(20);
    await expectTotalsExact();
    await foldLogSummaries(db);
    await expectSummariesWhole();
    await expectTotalsExact();
  });

  it('a server folds on its own once its ledger has written a thousand logs', async () => {
    database = await createTestDatabase();
    // The app's clock held still: the fold a quiet server makes 5 s after the last one never comes,
    // however slowly the logs are written, so only their count can start it.
    const startedAt = Date.now();
    const t = await startTestApp({ database, clock: () => startedAt });
    db = openDatabase(database.target);
    try {
      const folded = () => readFoldedThrough(db);
      // Charged to the root user (nothing: each costs 0), settled fifty at a time. The thousandth log
      // may be counted while the last fifty are still being written: those before them are in the fold.
      let committedBeforeTheLast = 0;
      for (let call = 0; call < 1000; call += 50) {
        if (call === 950) committedBeforeTheLast = await newestLogId(db);
        await Promise.all(
          Array.from({ length: 50 }, () =>
            t.db.ledger.settle('fold-test', ++seq, [{ ...logOnly('fold-test', randomLog()), userId: 1 }], W),
          ),
        );
      }
      await vi.waitFor(async () => expect(await folded()).toBeGreaterThanOrEqual(committedBeforeTheLast), {
        timeout: 10_000,
        interval: 50,
      });
      // Then the rest, by the next fold.
      await foldLogSummaries(db);
      await expectSummariesWhole();
    } finally {
      await t.close();
    }
  });

  it.skipIf(TEST_DIALECT !== 'postgres')(
    'a log a transaction still writes below the newest id is folded once it commits, not skipped',
    async () => {
      await open();
      await settle(5);
      let commit = () => {};
      let inserted = () => {};
      const insertedNow = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // A settlement that took its log's id and has not committed yet.
      const open_ = db.kysely.transaction().execute(async (trx) => {
        const values: unknown[] = new Array(LOG_VALUES_PER_ROW);
        logValues(randomLog(), values);
        await trx.executeQuery(CompiledQuery.raw(logInsert('postgres', 1, true), values));
        inserted();
        await new Promise<void>((resolve) => {
          commit = resolve;
        });
      });
      await insertedNow;
      try {
        // Later settlements commit logs with higher ids meanwhile.
        expect(await settle(12)).toBeGreaterThan(3);
        await foldLogSummaries(db);
        await expectTotalsExact();
      } finally {
        commit();
        await open_;
      }
      await expectTotalsExact();
      await foldLogSummaries(db);
      expect(await awaitingFold()).toBe(0);
      await expectSummariesWhole();
      await expectTotalsExact();
    },
  );

  it.skipIf(TEST_DIALECT !== 'sqlite')(
    'ids given again after the newest logs were deleted are folded (a table without AUTOINCREMENT)',
    async () => {
      await open();
      await settle(20);
      await foldLogSummaries(db);
      expect(await deleteLogsBefore(db, W + 10 * DAY)).toBeGreaterThan(20);
      // Without AUTOINCREMENT's counter SQLite numbers the next row after the newest left: 1 here.
      await sql`delete from sqlite_sequence where name = 'logs'`.execute(db.kysely);
      expect(await settle(10)).toBeGreaterThan(0);
      const ids = await db.kysely.selectFrom('logs').select('id').orderBy('id').execute();
      expect(ids[0]?.id).toBe(1);
      await expectTotalsExact();
      await foldLogSummaries(db);
      await expectSummariesWhole();
    },
  );
});

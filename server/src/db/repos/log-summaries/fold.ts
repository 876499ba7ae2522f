import { CompiledQuery, sql } from 'kysely';
import type { Sql } from '../../connect';
import { inTransaction } from '../../transaction';
import { lockSummaryState, newestLogId, readFoldedThrough, setFoldedThrough } from './state';
import { summaryFoldOfLogs } from './upserts';

/** Ids looked at per transaction: a short hold of the writer's lock and of the event loop. */
const IDS_PER_FOLD = 1000;

/**
 * The ledger writes a settlement's lone log marked false and leaves its summaries to this (SQLite
 * and PostgreSQL, leavesLoneLogsToFold): adds every log so marked with an id above the fold's mark,
 * up to the last id no transaction can still commit below (foldHorizon), to the summaries and moves
 * the mark there, in transactions of IDS_PER_FOLD ids, each under the summaries' lock. Until a log is
 * folded, the totals read it from the logs (sumLogQuota).
 */
export async function foldLogSummaries(db: Sql, idsPerFold = IDS_PER_FOLD): Promise<void> {
  // Nothing new (an idle server): two point reads, no transaction.
  const newest = await newestLogId(db);
  if (newest <= (await readFoldedThrough(db))) return;
  const horizon = await foldHorizon(db, newest);
  while (await inTransaction(db, (tx) => foldBatch(tx, horizon, idsPerFold))) {
    // Others' turn between two transactions.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Folds the next ids up to `horizon`; answers whether more are left. */
async function foldBatch(tx: Sql, horizon: number, limit: number): Promise<boolean> {
  const { folded: mark } = await lockSummaryState(tx);
  if (horizon <= mark) return false;
  const upTo = Math.min(horizon, mark + limit);
  for (const table of ['log_summaries', 'log_daily_summaries'] as const)
    await tx.kysely.executeQuery(CompiledQuery.raw(summaryFoldOfLogs(tx.dialect, table), [mark, upTo]));
  await setFoldedThrough(tx, upTo);
  return upTo < horizon;
}

/** How long a fold waits for the transactions writing logs when it began, at most. */
const HORIZON_WAIT_MS = 2000;

/**
 * The highest id below which no log can commit any more (`newest`, the newest id read just before,
 * once that is so), or 0 when that is not known yet.
 *
 * SQLite has one writer at a time and the ledger never chooses an id, so its ids follow commit order:
 * the newest id is that horizon. PostgreSQL's do not: a transaction takes its log's id from the
 * sequence when it inserts, and commits when it is done, maybe after one with a higher id. Every
 * transaction that took an id up to the newest one read here holds the table's ROW EXCLUSIVE lock
 * from its INSERT until it ends, so the horizon is that newest id once the transactions holding the
 * lock, read after it, have ended (a few milliseconds: the ledger's transactions are short). A
 * transaction writing logs that stays open longer holds the fold back, not the totals: they read
 * what is not folded from the logs.
 */
async function foldHorizon(db: Sql, newest: number): Promise<number> {
  if (db.dialect !== 'postgres') return newest;
  const writers = sql<{ writers: string[] | null }>`SELECT array_agg(virtualtransaction) AS writers
    FROM pg_locks WHERE relation = 'logs'::regclass AND mode = 'RowExclusiveLock'
      AND pid <> pg_backend_pid()`;
  const first = (await writers.execute(db.kysely)).rows[0]?.writers ?? [];
  if (first.length === 0) return newest;
  const started = performance.now();
  for (let delayMs = 1; performance.now() - started < HORIZON_WAIT_MS; delayMs = Math.min(delayMs * 2, 100)) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const now = new Set((await writers.execute(db.kysely)).rows[0]?.writers ?? []);
    if (!first.some((writer) => now.has(writer))) return newest;
  }
  return 0;
}

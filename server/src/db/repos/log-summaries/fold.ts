import { CompiledQuery } from 'kysely';
import type { Sql } from '../../connect';
import { inTransaction } from '../../transaction';
import { lockSummaryState, newestLogId, readFoldedThrough, setFoldedThrough } from './state';
import { summaryFoldOfLogs } from './upserts';

/** Ids looked at per transaction: a short hold of the writer's lock and of the event loop. */
const IDS_PER_FOLD = 1000;

/**
 * The embedded ledger writes a lone log marked false and leaves its summaries to this (SQLite only):
 * adds every log so marked with an id above the fold's mark to the summaries and moves the mark to
 * the newest id, in transactions of IDS_PER_FOLD ids, each under the summaries' lock. SQLite has
 * one writer at a time and the ledger never chooses an id, so its ids follow commit order: nothing
 * below the mark commits after it moved. Until a log is folded, the totals read it from the logs
 * (sumLogQuota).
 */
export async function foldLogSummaries(db: Sql, idsPerFold = IDS_PER_FOLD): Promise<void> {
  // Nothing new (an idle server): two point reads, no transaction.
  if ((await newestLogId(db)) <= (await readFoldedThrough(db))) return;
  while (await inTransaction(db, (tx) => foldBatch(tx, idsPerFold))) {
    // Others' turn between two transactions.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Folds the next ids; answers whether newer ones are left. */
async function foldBatch(tx: Sql, limit: number): Promise<boolean> {
  const { folded: mark } = await lockSummaryState(tx);
  const newest = await newestLogId(tx);
  if (newest <= mark) return false;
  const upTo = Math.min(newest, mark + limit);
  for (const table of ['log_summaries', 'log_daily_summaries'] as const)
    await tx.kysely.executeQuery(CompiledQuery.raw(summaryFoldOfLogs(table), [mark, upTo]));
  await setFoldedThrough(tx, upTo);
  return upTo < newest;
}

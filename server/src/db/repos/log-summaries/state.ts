import type { ExpressionBuilder } from 'kysely';
import { nowSeconds } from '../../../clock';
import type { Sql } from '../../connect';
import type { Database } from '../../schema';

/**
 * Which logs the summaries hold: those marked `summarized` (written with their summary, or caught up
 * since) and those the last rebuild took in (every id up to `summarized_through`). The one row of
 * `log_summary_state` also orders catch-ups, clean-ups and rebuilds, on every process: each takes its
 * lock first.
 */
const ROW = 'logs';

/** Writes the row unless it is there (migration 0004, before the first rebuild). */
export async function createSummaryState(db: Sql): Promise<void> {
  const insert = db.kysely
    .insertInto('log_summary_state')
    .values({ name: ROW, summarized_through: 0, updated_at: nowSeconds() });
  await (db.dialect === 'mysql'
    ? insert.ignore()
    : insert.onConflict((oc) => oc.column('name').doNothing())
  ).execute();
}

/**
 * Takes the row's lock until the transaction ends (run it first in the transaction) and answers the
 * last id the last rebuild took in.
 */
export async function lockSummaryState(db: Sql): Promise<number> {
  await db.kysely
    .updateTable('log_summary_state')
    .set({ updated_at: nowSeconds() })
    .where('name', '=', ROW)
    .execute();
  return readSummarizedThrough(db);
}

/** The last id the last rebuild took in, without a lock. */
export async function readSummarizedThrough(db: Sql): Promise<number> {
  const row = await db.kysely
    .selectFrom('log_summary_state')
    .select('summarized_through')
    .where('name', '=', ROW)
    .executeTakeFirst();
  if (!row) throw new Error('log_summary_state has no row: migration 0004 did not run');
  return Number(row.summarized_through);
}

/** Records that a rebuild took in every log up to `id` (under the lock). */
export async function setSummarizedThrough(db: Sql, id: number): Promise<void> {
  await db.kysely
    .updateTable('log_summary_state')
    .set({ summarized_through: id })
    .where('name', '=', ROW)
    .execute();
}

type LogsExpression = ExpressionBuilder<Database, 'logs'>;

/** Logs the summaries hold. */
export const summarized = (through: number) => (eb: LogsExpression) =>
  eb.or([eb('summarized', 'is not', null), eb('id', '<=', through)]);

/** Logs the summaries lack: another program wrote them after the last rebuild. */
export const unsummarized = (through: number) => (eb: LogsExpression) =>
  eb.and([eb('summarized', 'is', null), eb('id', '>', through)]);

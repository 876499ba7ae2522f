import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { nowSeconds } from '../../../clock';
import type { Dialect, Sql } from '../../connect';
import type { Database, LogRow } from '../../schema';

/**
 * Which logs the summaries hold: those marked `summarized` true (written with their summary, or caught
 * up since), those the last rebuild took in (every id up to `summarized_through` of the row `logs`),
 * and those the ledger wrote marked false (summarized after their commit, see fold.ts) up to
 * `summarized_through` of the row `folded`. The row `logs` also orders catch-ups, folds, clean-ups and
 * rebuilds, on every process: each takes its lock first.
 */
const ROW = 'logs';
const FOLDED = 'folded';

/** Where the summaries stand: the last rebuild's last id, and the last id folded (fold.ts). */
export interface SummaryMarks {
  through: number;
  folded: number;
}

/** Writes the row unless it is there (migration 0004, before the first rebuild). */
export async function createSummaryState(db: Sql): Promise<void> {
  await insertStateRow(db, ROW, 0);
}

/**
 * Writes the fold's row unless it is there (migration 0015): at the newest log, since every log
 * written before the ledger began to leave its logs to a fold is marked or rebuilt.
 */
export async function createFoldMark(db: Sql): Promise<void> {
  await insertStateRow(db, FOLDED, await newestLogId(db));
}

/** The highest log id there (0 without logs). */
export async function newestLogId(db: Sql): Promise<number> {
  const row = await db.kysely
    .selectFrom('logs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

async function insertStateRow(db: Sql, name: string, through: number): Promise<void> {
  const insert = db.kysely
    .insertInto('log_summary_state')
    .values({ name, summarized_through: through, updated_at: nowSeconds() });
  await (db.dialect === 'mysql'
    ? insert.ignore()
    : insert.onConflict((oc) => oc.column('name').doNothing())
  ).execute();
}

/**
 * Takes the row's lock until the transaction ends (run it first in the transaction) and answers the
 * marks.
 */
export async function lockSummaryState(db: Sql): Promise<SummaryMarks> {
  await db.kysely
    .updateTable('log_summary_state')
    .set({ updated_at: nowSeconds() })
    .where('name', '=', ROW)
    .execute();
  const rows = await db.kysely
    .selectFrom('log_summary_state')
    .select(['name', 'summarized_through'])
    .where('name', 'in', [ROW, FOLDED])
    .execute();
  const mark = (name: string) => rows.find((row) => row.name === name)?.summarized_through;
  const through = mark(ROW);
  if (through === undefined) throw new Error('log_summary_state has no row: migration 0004 did not run');
  return { through: Number(through), folded: Number(mark(FOLDED) ?? through) };
}

/** The last id a fold took in, without a lock. */
export const readFoldedThrough = (db: Sql): Promise<number> => readMark(db, FOLDED);

/** The last id the last rebuild took in, without a lock. */
export const readSummarizedThrough = (db: Sql): Promise<number> => readMark(db, ROW);

async function readMark(db: Sql, name: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('log_summary_state')
    .select('summarized_through')
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) throw new Error(`log_summary_state has no row ${name}: a migration did not run`);
  return Number(row.summarized_through);
}

/** Records that a rebuild took in every log up to `id`, the ledger's among them (under the lock). */
export async function setSummarizedThrough(db: Sql, id: number): Promise<void> {
  await db.kysely
    .updateTable('log_summary_state')
    .set({ summarized_through: id })
    .where('name', 'in', [ROW, FOLDED])
    .execute();
}

/** Records that a fold took in the ledger's logs up to `id` (under the lock). */
export async function setFoldedThrough(db: Sql, id: number): Promise<void> {
  await db.kysely
    .updateTable('log_summary_state')
    .set({ summarized_through: id })
    .where('name', '=', FOLDED)
    .execute();
}

/**
 * After logs were deleted (under the lock): the fold's mark no higher than the newest log left, so
 * that ids a table without AUTOINCREMENT gives again are not taken for folded ones.
 */
export async function keepFoldedBelowNewest(db: Sql): Promise<void> {
  const newest = db.kysely
    .selectFrom('logs')
    .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('id'));
  await db.kysely
    .updateTable('log_summary_state')
    .set({ summarized_through: newest })
    .where('name', '=', FOLDED)
    .where('summarized_through', '>', newest)
    .execute();
}

type LogsExpression = ExpressionBuilder<Database, 'logs'>;

/**
 * Whether the ledger writes a settlement's lone log without its summaries, for a fold to add after
 * the commit (fold.ts): on SQLite and PostgreSQL. MySQL's logs commit with their summaries (its fold
 * would need a way to know which transactions may still commit an id below the mark).
 */
export const leavesLoneLogsToFold = (dialect: Dialect): boolean => dialect !== 'mysql';

/**
 * Whether a settlement's logs go without their summaries: a lone log (every settlement at
 * concurrency 1) would pay both upserts for itself; a batch's share one upsert per distinct key,
 * which costs each log less than a fold.
 */
export const leftToFold = (dialect: Dialect, logs: number): boolean =>
  logs === 1 && leavesLoneLogsToFold(dialect);

/** Marked false: written by the ledger, summarized by a fold (the SQL of every dialect). */
export const AWAITING_FOLD_SQL = 'summarized = FALSE';
const AWAITING_FOLD = sql<boolean>`${sql.raw(AWAITING_FOLD_SQL)}`;

const FOLD_MARK = sql`(SELECT summarized_through FROM log_summary_state WHERE name = ${sql.lit(FOLDED)})`;

/**
 * The logs the ledger wrote that no fold took in yet, as a table named `logs`: those above the fold's
 * mark, found by the id's range and never through another index (the mark is near the newest id, and
 * a user's index would read all their logs). SQLite is told so; PostgreSQL plans the range apart
 * from the outer filters (OFFSET 0), and a range between two values it does not know yet is narrow
 * to it, where an open one is a third of the table.
 */
export const logsAwaitingFold = (db: Sql) =>
  db.kysely.selectFrom(
    (db.dialect === 'sqlite'
      ? sql<LogRow>`(SELECT * FROM logs NOT INDEXED WHERE id > ${FOLD_MARK} AND ${AWAITING_FOLD})`
      : sql<LogRow>`(SELECT * FROM logs WHERE id BETWEEN ${FOLD_MARK} + 1 AND ${FOLD_MARK} + ${sql.lit(IDS_AHEAD)} AND ${AWAITING_FOLD} OFFSET 0)`
    ).as('logs'),
  ) as unknown as SelectQueryBuilder<Database, 'logs', object>;

/** More ids than a table gets between two folds (the range's top, a bound PostgreSQL cannot estimate). */
const IDS_AHEAD = 2 ** 52;

/** Logs the summaries hold. */
export const summarized =
  ({ through, folded }: SummaryMarks) =>
  (eb: LogsExpression) =>
    eb.or([
      eb('summarized', '=', sql.lit(true)),
      eb('id', '<=', through),
      eb.and([AWAITING_FOLD, eb('id', '<=', folded)]),
    ]);

/** The same rule for a log row read (databases answer the mark as a boolean or as 0 and 1). */
export const isSummarized = (
  log: { id: number; summarized: boolean | number | null },
  { through, folded }: SummaryMarks,
): boolean =>
  log.id <= through || (log.summarized != null && (Number(log.summarized) !== 0 || log.id <= folded));

/** Logs the summaries lack: another program wrote them after the last rebuild. */
export const unsummarized = (through: number) => (eb: LogsExpression) =>
  eb.and([eb('summarized', 'is', null), eb('id', '>', through)]);

import { type Compilable, sql } from 'kysely';
import type { Sql } from '../../connect';
import type { LogDailySummaryRow, LogSummaryRow } from '../../schema';
import { DAILY_KEY, HOURLY_KEY, type LogSummaries } from './buckets';

const ROWS_PER_UPSERT = 200;

type SummaryTable = 'log_summaries' | 'log_daily_summaries';

/** Upserts of `rows` into `table` keyed by `key`, 200 rows each: the totals are added to the rows there. */
function upsertsInto(
  db: Sql,
  table: SummaryTable,
  key: readonly string[],
  rows: Array<LogSummaryRow | LogDailySummaryRow>,
): Compilable[] {
  const upserts: Compilable[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_UPSERT) {
    // The two tables share the columns the upsert names (the key's, quota, log_count).
    const insert = db.kysely
      .insertInto(table as 'log_summaries')
      .values(rows.slice(start, start + ROWS_PER_UPSERT) as LogSummaryRow[]);
    upserts.push(
      db.dialect === 'mysql'
        ? insert.onDuplicateKeyUpdate({
            quota: sql`quota + values(quota)`,
            log_count: sql`log_count + values(log_count)`,
          })
        : insert.onConflict((oc) =>
            oc.columns([...key] as Array<keyof LogSummaryRow>).doUpdateSet({
              quota: sql`${sql.ref(`${table}.quota`)} + excluded.quota`,
              log_count: sql`${sql.ref(`${table}.log_count`)} + excluded.log_count`,
            }),
          ),
    );
  }
  return upserts;
}

/** The upserts that add the summaries to the tables (one per table and 200 keys). */
export const logSummaryUpserts = (db: Sql, { hourly, daily }: LogSummaries): Compilable[] => [
  ...upsertsInto(db, 'log_summaries', HOURLY_KEY, hourly),
  ...upsertsInto(db, 'log_daily_summaries', DAILY_KEY, daily),
];

/** Adds the summaries to the tables. Run it in the log's transaction. */
export async function addLogSummaries(db: Sql, summaries: LogSummaries): Promise<void> {
  for (const upsert of logSummaryUpserts(db, summaries)) await db.kysely.executeQuery(upsert.compile());
}

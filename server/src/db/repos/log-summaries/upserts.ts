import { CompiledQuery } from 'kysely';
import type { Dialect, Sql } from '../../connect';
import type { ScriptStatement } from '../../pg-script';
import { withPlaceholders } from '../../placeholders';
import type { LogDailySummaryRow, LogSummaryRow } from '../../schema';
import { DAILY_KEY, DAY, HOUR, HOURLY_KEY, type LogSummaries } from './buckets';
import { AWAITING_FOLD_SQL } from './state';

const ROWS_PER_UPSERT = 200;

type SummaryTable = 'log_summaries' | 'log_daily_summaries';

const KEY_OF: Record<SummaryTable, readonly string[]> = {
  log_summaries: HOURLY_KEY,
  log_daily_summaries: DAILY_KEY,
};

const upsertTexts = new Map<string, string>();

/** An upsert's ending: the row's totals added to those of the row already there with its key. */
const onConflictAdd = (dialect: Dialect, table: SummaryTable): string =>
  dialect === 'mysql'
    ? ' ON DUPLICATE KEY UPDATE quota = quota + VALUES(quota), log_count = log_count + VALUES(log_count)'
    : ` ON CONFLICT (${KEY_OF[table].join(', ')}) DO UPDATE SET quota = ${table}.quota + excluded.quota, ` +
      `log_count = ${table}.log_count + excluded.log_count`;

/**
 * The upsert of `rows` summary rows into `table` (their values from hourlyValues or dailyValues, one
 * row after another): each row's totals are added to the row of its key there, or it is that key's
 * first. Written once per dialect, table and row count (no query builder on the ledger's path).
 */
export function summaryUpsert(dialect: Dialect, table: SummaryTable, rows: number): string {
  const cacheKey = `${dialect} ${table} ${rows}`;
  let text = upsertTexts.get(cacheKey);
  if (!text) {
    const key = KEY_OF[table];
    const columns = [...key, 'quota', 'log_count'];
    const row = `(${columns.map(() => '?').join(', ')})`;
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${new Array(rows).fill(row).join(', ')}`;
    text = withPlaceholders(dialect, insert + onConflictAdd(dialect, table));
    upsertTexts.set(cacheKey, text);
  }
  return text;
}

/**
 * The summary key summarizeLogs makes of a log row, as SQL over `logs`: each key column in KEY_OF's
 * order (the bucket, then NULL read as summarizeLogs reads it).
 */
const SUMMARY_KEY_OF_LOG: Record<SummaryTable, readonly string[]> = {
  log_summaries: [
    `created_at - created_at % ${HOUR}`,
    'COALESCE(type, 0)',
    'COALESCE(user_id, 0)',
    "COALESCE(username, '')",
    "COALESCE(token_name, '')",
    "COALESCE(model_name, '')",
    'COALESCE(channel_id, 0)',
  ],
  log_daily_summaries: [
    `created_at - created_at % ${DAY}`,
    'COALESCE(type, 0)',
    "COALESCE(model_name, '')",
    'COALESCE(channel_id, 0)',
  ],
};

/**
 * The upsert that adds every log with an id in (`?`, `?`] the ledger left to a fold (marked false) to
 * `table`, grouped by the database (fold.ts): its logs summed per key, in key order on PostgreSQL
 * (whose batches upsert theirs in that order too, so that the two do not wait on each other in a
 * circle).
 */
export function summaryFoldOfLogs(dialect: Dialect, table: SummaryTable): string {
  const columns = [...KEY_OF[table], 'quota', 'log_count'];
  const keys = SUMMARY_KEY_OF_LOG[table];
  const positions = keys.map((_, index) => index + 1).join(', ');
  // The batches' order: JavaScript's, code point by code point (the C collation's, not the database's).
  const keyOrder = keys.map((key) => (key.includes("''") ? `${key} COLLATE "C"` : key)).join(', ');
  const insert =
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${keys.join(', ')}, ` +
    'SUM(COALESCE(quota, 0)), COUNT(*) FROM logs ' +
    `WHERE id > ? AND id <= ? AND ${AWAITING_FOLD_SQL} AND created_at IS NOT NULL ` +
    `GROUP BY ${positions}${dialect === 'postgres' ? ` ORDER BY ${keyOrder}` : ''}`;
  return withPlaceholders(dialect, insert + onConflictAdd(dialect, table));
}

export const hourlyValues = (row: LogSummaryRow): unknown[] => [
  row.bucket,
  row.type,
  row.user_id,
  row.username,
  row.token_name,
  row.model_name,
  row.channel_id,
  row.quota,
  row.log_count,
];
export const dailyValues = (row: LogDailySummaryRow): unknown[] => [
  row.bucket,
  row.type,
  row.model_name,
  row.channel_id,
  row.quota,
  row.log_count,
];

function upsertsInto<T>(
  dialect: Dialect,
  table: SummaryTable,
  rows: T[],
  valuesOf: (row: T) => unknown[],
): ScriptStatement[] {
  const upserts: ScriptStatement[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_UPSERT) {
    const part = rows.slice(start, start + ROWS_PER_UPSERT);
    upserts.push({ sql: summaryUpsert(dialect, table, part.length), parameters: part.flatMap(valuesOf) });
  }
  return upserts;
}

/** The upserts that add the summaries to the tables (one per table and 200 keys). */
export const logSummaryUpserts = (dialect: Dialect, { hourly, daily }: LogSummaries): ScriptStatement[] => [
  ...upsertsInto(dialect, 'log_summaries', hourly, hourlyValues),
  ...upsertsInto(dialect, 'log_daily_summaries', daily, dailyValues),
];

/** Adds the summaries to the tables. Run it in the log's transaction. */
export async function addLogSummaries(db: Sql, summaries: LogSummaries): Promise<void> {
  for (const { sql, parameters } of logSummaryUpserts(db.dialect, summaries))
    await db.kysely.executeQuery(CompiledQuery.raw(sql, [...parameters]));
}

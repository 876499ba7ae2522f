import type { LogDailySummaryRow, LogSummaryRow } from '../../schema';
import { DAILY_KEY, HOURLY_KEY } from './buckets';

/** The embedded ledger's upserts (prepared once, run with the values in column order). */
export const SQLITE_UPSERT_HOURLY =
  `INSERT INTO log_summaries (${HOURLY_KEY.join(', ')}, quota, log_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
  `ON CONFLICT (${HOURLY_KEY.join(', ')}) DO UPDATE SET ` +
  'quota = quota + excluded.quota, log_count = log_count + excluded.log_count';
export const SQLITE_UPSERT_DAILY =
  `INSERT INTO log_daily_summaries (${DAILY_KEY.join(', ')}, quota, log_count) VALUES (?, ?, ?, ?, ?, ?) ` +
  `ON CONFLICT (${DAILY_KEY.join(', ')}) DO UPDATE SET ` +
  'quota = quota + excluded.quota, log_count = log_count + excluded.log_count';

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

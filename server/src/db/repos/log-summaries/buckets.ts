import type { LogDailySummaryRow, LogSummaryRow, NewLogRow } from '../../schema';

/**
 * Log totals without scanning the logs: `log_summaries` holds quota and row count per UTC hour and
 * every filterable column, `log_daily_summaries` per UTC day, type, model and channel (the admin's
 * totals that filter by no user or token, over far fewer rows). Both are written in the transaction
 * that writes the logs (on SQLite a settlement's lone log is folded in after it: fold.ts) and
 * corrected by the transaction that deletes them, so a total is exact: whole buckets from a summary
 * (and the logs not folded yet), the partial buckets at a range's edges from the finer level or the
 * raw rows. Logs without created_at (never written by one-api or Switchyard) are not summarized.
 * Logs another program writes (one-api on the same database) are added by the catch-up (catch-up.ts).
 */
export const HOUR = 3600;
export const DAY = 86400;

/** The start of the bucket holding `time` (times are never negative). */
export const bucketOf = (time: number, size: number): number => time - (time % size);

/** The log columns the summaries are made of. */
export const SUMMARIZED_COLUMNS = [
  'created_at',
  'type',
  'user_id',
  'username',
  'token_name',
  'model_name',
  'channel_id',
  'quota',
] as const;

type Summarizable = Pick<NewLogRow, (typeof SUMMARIZED_COLUMNS)[number]>;

export interface LogSummaries {
  hourly: LogSummaryRow[];
  daily: LogDailySummaryRow[];
}

/** The columns that key a summary row (its unique index). */
export const HOURLY_KEY = [
  'bucket',
  'type',
  'user_id',
  'username',
  'token_name',
  'model_name',
  'channel_id',
] as const;
export const DAILY_KEY = ['bucket', 'type', 'model_name', 'channel_id'] as const;

interface Totals {
  quota: number;
  log_count: number;
}

/** Counts one more log of `quota` into a row. */
function addLog(row: Totals, quota: number): void {
  row.quota += quota;
  row.log_count += 1;
}

/** Adds a log's quota to the row of `key`, or makes that key's first row; answers the row. */
function addTo<T extends Totals>(rows: Map<string, T>, key: string, quota: number, first: () => T): T {
  const existing = rows.get(key);
  if (existing) {
    addLog(existing, quota);
    return existing;
  }
  const row = first();
  rows.set(key, row);
  return row;
}

/** Rows sorted by key: the same lock order in every transaction that writes them. */
const sortedByKey = <T>(rows: Map<string, T>): T[] =>
  rows.size === 1
    ? [...rows.values()]
    : [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);

/**
 * Folds logs into one summary row per distinct key, sorted by key (a stable lock order). The same
 * rule in SQL, for the fold: SUMMARY_KEY_OF_LOG (upserts.ts).
 */
export function summarizeLogs(logs: Summarizable[]): LogSummaries {
  const hourly = new Map<string, LogSummaryRow>();
  const daily = new Map<string, LogDailySummaryRow>();
  // The rows the previous log went to: a batch's logs mostly come in runs of one key, which add to
  // them without a key built and looked up.
  let lastHourly: LogSummaryRow | undefined;
  let lastDaily: LogDailySummaryRow | undefined;
  for (const log of logs) {
    if (log.created_at == null) continue;
    const time = Number(log.created_at);
    const type = Number(log.type ?? 0);
    const userId = Number(log.user_id ?? 0);
    const username = log.username ?? '';
    const tokenName = log.token_name ?? '';
    const modelName = log.model_name ?? '';
    const channelId = Number(log.channel_id ?? 0);
    const quota = Number(log.quota ?? 0);
    const hour = bucketOf(time, HOUR);
    const day = bucketOf(time, DAY);
    if (
      lastHourly !== undefined &&
      lastHourly.bucket === hour &&
      lastHourly.type === type &&
      lastHourly.user_id === userId &&
      lastHourly.username === username &&
      lastHourly.token_name === tokenName &&
      lastHourly.model_name === modelName &&
      lastHourly.channel_id === channelId
    )
      addLog(lastHourly, quota);
    else {
      // The key (HOURLY_KEY's values joined by NUL) written out, not mapped and joined.
      const hourKey = `${hour}\u0000${type}\u0000${userId}\u0000${username}\u0000${tokenName}\u0000${modelName}\u0000${channelId}`;
      lastHourly = addTo(hourly, hourKey, quota, () => ({
        bucket: hour,
        type,
        user_id: userId,
        username,
        token_name: tokenName,
        model_name: modelName,
        channel_id: channelId,
        quota,
        log_count: 1,
      }));
    }
    if (
      lastDaily !== undefined &&
      lastDaily.bucket === day &&
      lastDaily.type === type &&
      lastDaily.model_name === modelName &&
      lastDaily.channel_id === channelId
    )
      addLog(lastDaily, quota);
    else {
      const dayKey = `${day}\u0000${type}\u0000${modelName}\u0000${channelId}`;
      lastDaily = addTo(daily, dayKey, quota, () => ({
        bucket: day,
        type,
        model_name: modelName,
        channel_id: channelId,
        quota,
        log_count: 1,
      }));
    }
  }
  return { hourly: sortedByKey(hourly), daily: sortedByKey(daily) };
}

/**
 * The logs as the ledger inserts them: marked as in the summaries, which its upserts add in the same
 * transaction. Unmarked, the catch-up would take them for another program's and add them again.
 */
export const asSummarized = (logs: NewLogRow[]): NewLogRow[] =>
  logs.map((log) => ({ ...log, summarized: true }));

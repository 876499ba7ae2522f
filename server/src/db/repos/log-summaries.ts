import { sql } from 'kysely';
import { inTransaction, type Sql } from '../connect';
import type { LogDailySummaryRow, LogSummaryRow, NewLogRow } from '../schema';
import { lockSummaryState, setSummarizedThrough, summarized } from './log-summary-state';

/**
 * Log totals without scanning the logs: `log_summaries` holds quota and row count per UTC hour and
 * every filterable column, `log_daily_summaries` per UTC day, type, model and channel (the admin's
 * totals that filter by no user or token, over far fewer rows). Both are written in the transaction
 * that writes the logs and corrected by the transaction that deletes them, so a total is exact:
 * whole buckets from a summary, the partial buckets at a range's edges from the finer level or
 * the raw rows. Logs without created_at (never written by one-api or Switchyard) are not summarized.
 * Logs another program writes (one-api on the same database) are added by the catch-up (log-catch-up.ts).
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

/** Folds logs into one summary row per distinct key, sorted by key (a stable lock order). */
export function summarizeLogs(logs: Summarizable[]): LogSummaries {
  const hourly = new Map<string, LogSummaryRow>();
  const daily = new Map<string, LogDailySummaryRow>();
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
    const hourKey = `${hour}\u0000${type}\u0000${userId}\u0000${username}\u0000${tokenName}\u0000${modelName}\u0000${channelId}`;
    const h = hourly.get(hourKey);
    if (h) {
      h.quota += quota;
      h.log_count += 1;
    } else {
      hourly.set(hourKey, {
        bucket: hour,
        type,
        user_id: userId,
        username,
        token_name: tokenName,
        model_name: modelName,
        channel_id: channelId,
        quota,
        log_count: 1,
      });
    }
    const day = bucketOf(time, DAY);
    const dayKey = `${day}\u0000${type}\u0000${modelName}\u0000${channelId}`;
    const d = daily.get(dayKey);
    if (d) {
      d.quota += quota;
      d.log_count += 1;
    } else {
      daily.set(dayKey, {
        bucket: day,
        type,
        model_name: modelName,
        channel_id: channelId,
        quota,
        log_count: 1,
      });
    }
  }
  const sorted = <T>(map: Map<string, T>): T[] =>
    [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { hourly: sorted(hourly), daily: sorted(daily) };
}

const HOURLY_KEY = [
  'bucket',
  'type',
  'user_id',
  'username',
  'token_name',
  'model_name',
  'channel_id',
] as const;
const DAILY_KEY = ['bucket', 'type', 'model_name', 'channel_id'] as const;

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

/**
 * The logs as the ledger inserts them: marked as in the summaries, which its upserts add in the same
 * transaction. Unmarked, the catch-up would take them for another program's and add them again.
 */
export const asSummarized = (logs: NewLogRow[]): NewLogRow[] =>
  logs.map((log) => ({ ...log, summarized: true }));

const ROWS_PER_UPSERT = 200;

/** Adds the summaries to the tables: one multi-row upsert per table (and 200 keys). Run it in the log's transaction. */
export async function addLogSummaries(db: Sql, { hourly, daily }: LogSummaries): Promise<void> {
  for (let start = 0; start < hourly.length; start += ROWS_PER_UPSERT) {
    const insert = db.kysely.insertInto('log_summaries').values(hourly.slice(start, start + ROWS_PER_UPSERT));
    await (db.dialect === 'mysql'
      ? insert.onDuplicateKeyUpdate({
          quota: sql`quota + values(quota)`,
          log_count: sql`log_count + values(log_count)`,
        })
      : insert.onConflict((oc) =>
          oc.columns([...HOURLY_KEY]).doUpdateSet((eb) => ({
            quota: eb('log_summaries.quota', '+', eb.ref('excluded.quota')),
            log_count: eb('log_summaries.log_count', '+', eb.ref('excluded.log_count')),
          })),
        )
    ).execute();
  }
  for (let start = 0; start < daily.length; start += ROWS_PER_UPSERT) {
    const insert = db.kysely
      .insertInto('log_daily_summaries')
      .values(daily.slice(start, start + ROWS_PER_UPSERT));
    await (db.dialect === 'mysql'
      ? insert.onDuplicateKeyUpdate({
          quota: sql`quota + values(quota)`,
          log_count: sql`log_count + values(log_count)`,
        })
      : insert.onConflict((oc) =>
          oc.columns([...DAILY_KEY]).doUpdateSet((eb) => ({
            quota: eb('log_daily_summaries.quota', '+', eb.ref('excluded.quota')),
            log_count: eb('log_daily_summaries.log_count', '+', eb.ref('excluded.log_count')),
          })),
        )
    ).execute();
  }
}

/**
 * Rebuilds both summaries from every log (an adopted database already has logs) and records the last
 * id they took in, in one transaction. Nobody writes logs meanwhile, so that id is exact: PostgreSQL
 * locks the table; SQLite has one writer at a time; on MySQL (repeatable read) the INSERT … SELECT
 * locks the rows and gaps it reads.
 */
export function rebuildLogSummaries(db: Sql): Promise<void> {
  return inTransaction(db, async (tx) => {
    await lockSummaryState(tx);
    if (tx.dialect === 'postgres') await sql`lock table logs in share mode`.execute(tx.kysely);
    await fillLogSummaries(tx);
    const last = await tx.kysely
      .selectFrom('logs')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    await setSummarizedThrough(tx, Number(last?.id ?? 0));
  });
}

/** Both summaries from the logs, in bucket order so that one hour's rows sit together as when written live. */
async function fillLogSummaries(db: Sql): Promise<void> {
  await db.kysely.deleteFrom('log_summaries').execute();
  await db.kysely.deleteFrom('log_daily_summaries').execute();
  await sql`insert into log_summaries (bucket, type, user_id, username, token_name, model_name, channel_id,
      quota, log_count)
    select created_at - created_at % ${sql.lit(HOUR)}, coalesce(type, 0), coalesce(user_id, 0),
      coalesce(username, ''), coalesce(token_name, ''), coalesce(model_name, ''), coalesce(channel_id, 0),
      coalesce(sum(quota), 0), count(*)
    from logs where created_at is not null
    group by created_at - created_at % ${sql.lit(HOUR)}, coalesce(type, 0), coalesce(user_id, 0),
      coalesce(username, ''), coalesce(token_name, ''), coalesce(model_name, ''), coalesce(channel_id, 0)
    order by 1`.execute(db.kysely);
  await sql`insert into log_daily_summaries (bucket, type, model_name, channel_id, quota, log_count)
    select bucket - bucket % ${sql.lit(DAY)}, type, model_name, channel_id, sum(quota), sum(log_count)
    from log_summaries
    group by bucket - bucket % ${sql.lit(DAY)}, type, model_name, channel_id
    order by 1`.execute(db.kysely);
}

/**
 * Takes the logs created before `timestamp` out of the summaries (run in the transaction that deletes
 * them): whole buckets go, the partial bucket holding `timestamp` loses what its deleted logs added
 * (those the summaries hold: one not caught up yet was never added).
 */
export async function removeLogsFromSummaries(db: Sql, timestamp: number): Promise<void> {
  // Ordered against a catch-up: none is half-way through adding logs this deletes.
  const through = await lockSummaryState(db);
  const hour = bucketOf(timestamp, HOUR);
  const day = bucketOf(timestamp, DAY);
  const removed = (from: number) =>
    db.kysely
      .selectFrom('logs')
      .where('created_at', '>=', from)
      .where('created_at', '<', timestamp)
      .where(summarized(through))
      .select((eb) => [
        eb.fn.coalesce('type', eb.lit(0)).as('type'),
        eb.fn.coalesce('model_name', sql.lit('')).as('model_name'),
        eb.fn.coalesce('channel_id', eb.lit(0)).as('channel_id'),
        eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota'),
        eb.fn.countAll<number>().as('log_count'),
      ])
      .groupBy([sql`coalesce(type, 0)`, sql`coalesce(model_name, '')`, sql`coalesce(channel_id, 0)`]);
  const hourly: LogSummaryRow[] = [];
  const daily: LogDailySummaryRow[] = [];
  if (hour < timestamp) {
    const rows = await removed(hour)
      .select((eb) => [
        eb.fn.coalesce('user_id', eb.lit(0)).as('user_id'),
        eb.fn.coalesce('username', sql.lit('')).as('username'),
        eb.fn.coalesce('token_name', sql.lit('')).as('token_name'),
      ])
      .groupBy([sql`coalesce(user_id, 0)`, sql`coalesce(username, '')`, sql`coalesce(token_name, '')`])
      .execute();
    for (const row of rows)
      hourly.push({
        bucket: hour,
        type: Number(row.type),
        user_id: Number(row.user_id),
        username: String(row.username),
        token_name: String(row.token_name),
        model_name: String(row.model_name),
        channel_id: Number(row.channel_id),
        quota: -Number(row.quota),
        log_count: -Number(row.log_count),
      });
  }
  if (day < timestamp) {
    for (const row of await removed(day).execute())
      daily.push({
        bucket: day,
        type: Number(row.type),
        model_name: String(row.model_name),
        channel_id: Number(row.channel_id),
        quota: -Number(row.quota),
        log_count: -Number(row.log_count),
      });
  }
  await addLogSummaries(db, { hourly, daily });
  await db.kysely.deleteFrom('log_summaries').where('bucket', '<', hour).execute();
  await db.kysely.deleteFrom('log_daily_summaries').where('bucket', '<', day).execute();
  await db.kysely
    .deleteFrom('log_summaries')
    .where('bucket', '=', hour)
    .where('log_count', '<=', 0)
    .execute();
  await db.kysely
    .deleteFrom('log_daily_summaries')
    .where('bucket', '=', day)
    .where('log_count', '<=', 0)
    .execute();
}

/** A time range, both ends inclusive; a missing end is unbounded. */
export interface TimeRange {
  from?: number;
  to?: number;
}

/**
 * Splits a range into the buckets of `size` it covers whole (bucket >= start and < end) and the
 * parts left at its edges.
 */
export function splitRange(
  range: TimeRange,
  size: number,
): { whole?: { from?: number; before?: number }; edges: TimeRange[] } {
  const start = range.from === undefined ? undefined : Math.ceil(range.from / size) * size;
  const end = range.to === undefined ? undefined : Math.floor((range.to + 1) / size) * size;
  if (start !== undefined && end !== undefined && start >= end) return { edges: [range] };
  const edges: TimeRange[] = [];
  if (range.from !== undefined && start !== undefined && range.from < start)
    edges.push({ from: range.from, to: start - 1 });
  if (range.to !== undefined && end !== undefined && end <= range.to) edges.push({ from: end, to: range.to });
  return { whole: { from: start, before: end }, edges };
}

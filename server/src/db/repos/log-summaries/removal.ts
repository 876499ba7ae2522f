import { sql } from 'kysely';
import type { Sql } from '../../connect';
import type { LogDailySummaryRow, LogSummaryRow } from '../../schema';
import { bucketOf, DAY, HOUR } from './buckets';
import { lockSummaryState, summarized } from './state';
import { addLogSummaries } from './upserts';

/**
 * Takes the logs created before `timestamp` out of the summaries (run in the transaction that deletes
 * them): whole buckets go, the partial bucket holding `timestamp` loses what its deleted logs added
 * (those the summaries hold: one not caught up yet was never added).
 */
export async function removeLogsFromSummaries(db: Sql, timestamp: number): Promise<void> {
  // Ordered against a catch-up: none is half-way through adding logs this deletes.
  const marks = await lockSummaryState(db);
  const hour = bucketOf(timestamp, HOUR);
  const day = bucketOf(timestamp, DAY);
  const removed = (from: number) =>
    db.kysely
      .selectFrom('logs')
      .where('created_at', '>=', from)
      .where('created_at', '<', timestamp)
      .where(summarized(marks))
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

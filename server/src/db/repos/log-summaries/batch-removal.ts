import type { Sql } from '../../connect';
import { inTransaction } from '../../transaction';
import { bucketOf, DAY, HOUR, SUMMARIZED_COLUMNS, summarizeLogs } from './buckets';
import { isSummarized, keepFoldedBelowNewest, lockSummaryState } from './state';
import { addLogSummaries } from './upserts';

type SummaryTable = 'log_summaries' | 'log_daily_summaries';

const IDS_PER_DELETE = 1000;

const negated = <T extends { quota: number; log_count: number }>(row: T): T => ({
  ...row,
  quota: -row.quota,
  log_count: -row.log_count,
});

/**
 * Deletes up to `limit` of the oldest logs created before `timestamp` in one short transaction and
 * keeps the summaries equal to the logs left, by the rule of the manual clean-up: a bucket with no
 * log left goes whole; the one bucket that keeps logs loses what the deleted ones added (those the
 * summaries hold). The batch is the oldest logs, so every bucket it reaches but the newest is empty
 * once it is deleted. The logs are found through the created_at index, so a batch reads only its own
 * rows, and the summary rows it touches are old buckets no relay write goes to. Answers how many went.
 */
export function deleteOldestLogsBefore(db: Sql, timestamp: number, limit: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    // Ordered against catch-ups and other clean-ups: no one marks or deletes these logs meanwhile.
    const marks = await lockSummaryState(tx);
    const logs = await tx.kysely
      .selectFrom('logs')
      .select(['id', 'summarized', ...SUMMARIZED_COLUMNS])
      .where('created_at', '<', timestamp)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    if (logs.length === 0) return 0;
    const ids = logs.map((log) => log.id);
    for (let start = 0; start < ids.length; start += IDS_PER_DELETE)
      await tx.kysely
        .deleteFrom('logs')
        .where('id', 'in', ids.slice(start, start + IDS_PER_DELETE))
        .execute();
    await keepFoldedBelowNewest(tx);

    const newest = Number(logs.at(-1)?.created_at);
    const partialHour = await keepsLogs(tx, bucketOf(newest, HOUR), HOUR);
    const partialDay = await keepsLogs(tx, bucketOf(newest, DAY), DAY);
    const held = logs.filter((log) => isSummarized(log, marks));
    const { hourly, daily } = summarizeLogs(held);
    const inBucket = (bucket: number | undefined) => (row: { bucket: number }) => row.bucket === bucket;
    await addLogSummaries(tx, {
      hourly: hourly.filter(inBucket(partialHour)).map(negated),
      daily: daily.filter(inBucket(partialDay)).map(negated),
    });
    const times = logs.map((log) => Number(log.created_at));
    await dropBuckets(tx, 'log_summaries', HOUR, times, partialHour);
    await dropBuckets(tx, 'log_daily_summaries', DAY, times, partialDay);
    return logs.length;
  });
}

/** The bucket starting at `bucket` when logs are left in it; else undefined. */
async function keepsLogs(tx: Sql, bucket: number, size: number): Promise<number | undefined> {
  const left = await tx.kysely
    .selectFrom('logs')
    .select('id')
    .where('created_at', '>=', bucket)
    .where('created_at', '<', bucket + size)
    .limit(1)
    .executeTakeFirst();
  return left ? bucket : undefined;
}

/** Removes the emptied buckets' rows whole, and the partial bucket's rows left at zero. */
async function dropBuckets(
  tx: Sql,
  table: SummaryTable,
  size: number,
  times: number[],
  partial: number | undefined,
): Promise<void> {
  const emptied = [...new Set(times.map((time) => bucketOf(time, size)))].filter(
    (bucket) => bucket !== partial,
  );
  if (emptied.length > 0) await tx.kysely.deleteFrom(table).where('bucket', 'in', emptied).execute();
  if (partial !== undefined)
    await tx.kysely.deleteFrom(table).where('bucket', '=', partial).where('log_count', '<=', 0).execute();
}

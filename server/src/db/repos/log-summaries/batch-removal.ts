import type { Sql } from '../../connect';
import { inTransaction } from '../../transaction';
import { SUMMARIZED_COLUMNS, summarizeLogs } from './buckets';
import { lockSummaryState } from './state';
import { addLogSummaries } from './upserts';

/**
 * Deletes up to `limit` of the oldest logs created before `timestamp` in one short transaction,
 * taking out of the summaries exactly what those logs added (the rule the ledger writes by:
 * `summarizeLogs`, for the logs the summaries hold), and summary rows left empty. Answers how many
 * went. The logs are found through the created_at index, so a batch reads only its own rows; the
 * summary rows it touches are old buckets that no relay write goes to.
 */
export function deleteOldestLogsBefore(db: Sql, timestamp: number, limit: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    // Ordered against catch-ups and other clean-ups: no one marks or deletes these logs meanwhile.
    const through = await lockSummaryState(tx);
    const logs = await tx.kysely
      .selectFrom('logs')
      .select(['id', 'summarized', ...SUMMARIZED_COLUMNS])
      .where('created_at', '<', timestamp)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    if (logs.length === 0) return 0;
    const held = logs.filter((log) => log.summarized != null || log.id <= through);
    const { hourly, daily } = summarizeLogs(held);
    const negate = <T extends { quota: number; log_count: number }>(row: T): T => ({
      ...row,
      quota: -row.quota,
      log_count: -row.log_count,
    });
    await addLogSummaries(tx, { hourly: hourly.map(negate), daily: daily.map(negate) });
    const emptied = async (table: 'log_summaries' | 'log_daily_summaries', buckets: number[]) => {
      if (buckets.length === 0) return;
      await tx.kysely
        .deleteFrom(table)
        .where('bucket', 'in', [...new Set(buckets)])
        .where('log_count', '<=', 0)
        .execute();
    };
    await emptied(
      'log_summaries',
      hourly.map((row) => row.bucket),
    );
    await emptied(
      'log_daily_summaries',
      daily.map((row) => row.bucket),
    );
    const ids = logs.map((log) => log.id);
    for (let start = 0; start < ids.length; start += 1000)
      await tx.kysely
        .deleteFrom('logs')
        .where('id', 'in', ids.slice(start, start + 1000))
        .execute();
    return logs.length;
  });
}

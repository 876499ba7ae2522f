import { sql } from 'kysely';
import type { Sql } from '../../connect';
import { inTransaction } from '../../transaction';
import { DAY, HOUR } from './buckets';
import { lockSummaryState, newestLogId, setSummarizedThrough } from './state';

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
    await setSummarizedThrough(tx, await newestLogId(tx));
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

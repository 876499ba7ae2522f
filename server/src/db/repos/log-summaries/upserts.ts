import { type Compilable, sql } from 'kysely';
import type { Sql } from '../../connect';
import { DAILY_KEY, HOURLY_KEY, type LogSummaries } from './buckets';

const ROWS_PER_UPSERT = 200;

/** One multi-row upsert per table (and 200 keys) that adds the summaries to the tables. */
export function logSummaryUpserts(db: Sql, { hourly, daily }: LogSummaries): Compilable[] {
  const upserts: Compilable[] = [];
  for (let start = 0; start < hourly.length; start += ROWS_PER_UPSERT) {
    const insert = db.kysely.insertInto('log_summaries').values(hourly.slice(start, start + ROWS_PER_UPSERT));
    upserts.push(
      db.dialect === 'mysql'
        ? insert.onDuplicateKeyUpdate({
            quota: sql`quota + values(quota)`,
            log_count: sql`log_count + values(log_count)`,
          })
        : insert.onConflict((oc) =>
            oc.columns([...HOURLY_KEY]).doUpdateSet((eb) => ({
              quota: eb('log_summaries.quota', '+', eb.ref('excluded.quota')),
              log_count: eb('log_summaries.log_count', '+', eb.ref('excluded.log_count')),
            })),
          ),
    );
  }
  for (let start = 0; start < daily.length; start += ROWS_PER_UPSERT) {
    const insert = db.kysely
      .insertInto('log_daily_summaries')
      .values(daily.slice(start, start + ROWS_PER_UPSERT));
    upserts.push(
      db.dialect === 'mysql'
        ? insert.onDuplicateKeyUpdate({
            quota: sql`quota + values(quota)`,
            log_count: sql`log_count + values(log_count)`,
          })
        : insert.onConflict((oc) =>
            oc.columns([...DAILY_KEY]).doUpdateSet((eb) => ({
              quota: eb('log_daily_summaries.quota', '+', eb.ref('excluded.quota')),
              log_count: eb('log_daily_summaries.log_count', '+', eb.ref('excluded.log_count')),
            })),
          ),
    );
  }
  return upserts;
}

/** Adds the summaries to the tables. Run it in the log's transaction. */
export async function addLogSummaries(db: Sql, summaries: LogSummaries): Promise<void> {
  for (const upsert of logSummaryUpserts(db, summaries)) await db.kysely.executeQuery(upsert.compile());
}

import { type Kysely, sql } from 'kysely';
import type { Dialect, Sql } from '../../connect';
import { ensureSchema } from '../../ensure-schema';
import { inTransaction } from '../../transaction';
import { SUMMARIZED_COLUMNS, summarizeLogs } from './buckets';
import { lockSummaryState, readSummarizedThrough, unsummarized } from './state';
import { addLogSummaries } from './upserts';

/** Logs taken in per transaction. */
const LOGS_PER_BATCH = 5000;
const IDS_PER_UPDATE = 1000;

/**
 * Adds the logs another program wrote (one-api on the same database, a script) to the summaries and
 * marks them, in batches of one transaction each; answers how many. They are found by their NULL
 * mark through an index, not by id order (a transaction can commit a lower id after a higher one),
 * so a run reads only them. With none there, a run is two point reads and no transaction.
 */
export async function catchUpLogSummaries(db: Sql, logsPerBatch = LOGS_PER_BATCH): Promise<number> {
  if (!(await anyUnsummarized(db))) return 0;
  let total = 0;
  for (;;) {
    const taken = await inTransaction(db, (tx) => catchUpBatch(tx, logsPerBatch));
    total += taken;
    if (taken < logsPerBatch) return total;
  }
}

async function anyUnsummarized(db: Sql): Promise<boolean> {
  const through = await readSummarizedThrough(db);
  const row = await db.kysely
    .selectFrom('logs')
    .select('id')
    .where(unsummarized(through))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

async function catchUpBatch(tx: Sql, limit: number): Promise<number> {
  const { through } = await lockSummaryState(tx);
  const logs = await tx.kysely
    .selectFrom('logs')
    .select(['id', ...SUMMARIZED_COLUMNS])
    .where(unsummarized(through))
    .orderBy('id')
    .limit(limit)
    .execute();
  if (logs.length === 0) return 0;
  await addLogSummaries(tx, summarizeLogs(logs));
  for (let start = 0; start < logs.length; start += IDS_PER_UPDATE) {
    const ids = logs.slice(start, start + IDS_PER_UPDATE).map((log) => log.id);
    await tx.kysely.updateTable('logs').set({ summarized: true }).where('id', 'in', ids).execute();
  }
  return logs.length;
}

/**
 * The index that finds unmarked logs. Partial where the database has partial indexes, so the logs
 * Switchyard writes (marked) never enter it; MySQL indexes every row, the mark first.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the untyped schema
export async function createUnsummarizedIndex(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'mysql') {
    const index = { name: 'idx_logs_summarized', columns: ['summarized', 'id'] };
    await ensureSchema(db, dialect, [{ name: 'logs', columns: [], indexes: [index] }]);
    return;
  }
  await db.schema
    .createIndex('idx_logs_unsummarized')
    .ifNotExists()
    .on('logs')
    .column('id')
    .where(sql.ref('summarized'), 'is', null)
    .execute();
}

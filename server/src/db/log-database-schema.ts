import type { Db } from './database';
import { ensureSchema } from './ensure-schema';
import { LOG_OUTBOX_TABLES, LOG_RECEIPT_TABLES } from './log-database-tables';
import { createUnsummarizedIndex } from './repos/log-summaries/catch-up';
import { rebuildLogSummaries } from './repos/log-summaries/rebuild';
import { createFoldMark, createSummaryState } from './repos/log-summaries/state';
import { LOG_SUMMARY_MARK_TABLES, LOG_SUMMARY_TABLES, TABLES } from './table-definitions';

/** The main database's outbox (with LOG_SQL_DSN; a table of its own beside one-api's). */
export async function ensureLogOutbox(db: Db): Promise<void> {
  if (db.logDatabase) await ensureSchema(db.kysely, db.dialect, LOG_OUTBOX_TABLES);
}

/**
 * LOG_SQL_DSN's tables: the logs (one-api's table, which may be there already), their summaries and
 * the receipts, nothing else. Summaries are built from the logs there the first time (and the fold's
 * mark written, at the newest log: logs shipped here are written with their summaries).
 */
export async function prepareLogDatabase(db: Db): Promise<void> {
  const logs = db.logDatabase;
  if (!logs) return;
  const logsTable = TABLES.filter((table) => table.name === 'logs');
  await ensureSchema(logs.kysely, logs.dialect, [
    ...logsTable,
    ...LOG_SUMMARY_TABLES,
    ...LOG_SUMMARY_MARK_TABLES,
    ...LOG_RECEIPT_TABLES,
  ]);
  await createUnsummarizedIndex(logs.kysely, logs.dialect);
  const state = await logs.kysely.selectFrom('log_summary_state').select('name').executeTakeFirst();
  if (!state) {
    await createSummaryState(logs);
    await rebuildLogSummaries(logs);
  }
  await createFoldMark(logs);
}

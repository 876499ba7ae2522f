import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../../clock';
import type { Sql } from '../connect';
import type { OutboxEntry } from '../log-outbox';
import { inTransaction, retryOnConflict } from '../transaction';
import { asSummarized, summarizeLogs } from './log-summaries/buckets';
import { addLogSummaries } from './log-summaries/upserts';

const ROWS_PER_INSERT = 200;

/**
 * Writes outbox entries to the log database with their summaries, in one transaction with a receipt
 * per entry: an entry already received (shipped before a crash kept it in the outbox, or by another
 * process's shipper at the same moment) is skipped, so each lands exactly once. Receipts go first,
 * in id order: a concurrent shipper of the same entries waits on them, then finds them taken.
 * `stillWaiting` asks the main database, after the receipts are taken, which entries are still in
 * the outbox: another shipper may have shipped one, emptied it from the outbox and forgotten its
 * receipt since this one read it. Answers how many logs this shipment wrote.
 */
export function receiveLogs(
  logDb: Sql,
  entries: OutboxEntry[],
  stillWaiting: (ids: number[]) => Promise<Set<number>>,
): Promise<number> {
  const shipment = randomUUID();
  const sorted = [...entries].sort((a, b) => a.id - b.id);
  return inTransaction(logDb, async (tx) => {
    for (let start = 0; start < sorted.length; start += ROWS_PER_INSERT) {
      const receipts = sorted
        .slice(start, start + ROWS_PER_INSERT)
        .map((entry) => ({ outbox_id: entry.id, shipment, created_at: nowSeconds() }));
      const insert = tx.kysely.insertInto('log_receipts').values(receipts);
      await (tx.dialect === 'mysql'
        ? insert.ignore()
        : insert.onConflict((oc) => oc.column('outbox_id').doNothing())
      ).execute();
    }
    const taken = new Set(
      (
        await tx.kysely
          .selectFrom('log_receipts')
          .select('outbox_id')
          .where('shipment', '=', shipment)
          .execute()
      ).map((row) => Number(row.outbox_id)),
    );
    const mine = await stillWaiting([...taken]);
    // Receipts of rows gone from the outbox protect nothing: they go with this transaction.
    const gone = [...taken].filter((id) => !mine.has(id));
    if (gone.length > 0) await forgetReceipts(tx, gone);
    const logs = asSummarized(sorted.filter((entry) => mine.has(entry.id)).map((entry) => entry.log));
    for (let start = 0; start < logs.length; start += ROWS_PER_INSERT)
      await tx.kysely
        .insertInto('logs')
        .values(logs.slice(start, start + ROWS_PER_INSERT))
        .execute();
    await addLogSummaries(tx, summarizeLogs(logs));
    return logs.length;
  });
}

/**
 * Receipts of entries gone from the outbox: they can never be shipped again. Tried again when MySQL
 * picks it as a deadlock's victim (another shipper's receipts are going in beside them): forgetting
 * twice is forgetting once.
 */
export async function forgetReceipts(logDb: Sql, outboxIds: number[]): Promise<void> {
  if (outboxIds.length > 0)
    await retryOnConflict(logDb, () =>
      logDb.kysely.deleteFrom('log_receipts').where('outbox_id', 'in', outboxIds).execute(),
    );
}

/** The oldest receipts (left by a process that stopped between emptying the outbox and forgetting them). */
export async function oldestReceipts(logDb: Sql, limit: number): Promise<number[]> {
  const rows = await logDb.kysely
    .selectFrom('log_receipts')
    .select('outbox_id')
    .orderBy('outbox_id')
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.outbox_id));
}

import type { Sql } from './connect';
import { insertReturningId } from './insert';
import type { NewLogRow } from './schema';

/**
 * With LOG_SQL_DSN the logs live in a database of their own, which no transaction of the main
 * database can reach: a log written with money (a settlement, a top-up, a redemption) goes to this
 * outbox in the money's transaction, and the shipper (domain/log-shipper.ts) moves it to the log
 * database. Without LOG_SQL_DSN nothing here runs.
 */
export interface OutboxEntry {
  id: number;
  log: NewLogRow;
}

/** The logs as outbox rows, in chunks of `size` (one insert each). */
export function outboxRows(logs: NewLogRow[], size: number): Array<Array<{ payload: string }>> {
  const chunks: Array<Array<{ payload: string }>> = [];
  for (let start = 0; start < logs.length; start += size)
    chunks.push(logs.slice(start, start + size).map((log) => ({ payload: JSON.stringify(log) })));
  return chunks;
}

/** Puts one log in the outbox (in the caller's transaction, when it has one); answers its outbox id. */
export function enqueueLog(db: Sql, log: NewLogRow): Promise<number> {
  return insertReturningId(db, db.kysely.insertInto('log_outbox').values({ payload: JSON.stringify(log) }));
}

/** The oldest waiting logs, in id order. */
export async function readOutbox(db: Sql, limit: number): Promise<OutboxEntry[]> {
  const rows = await db.kysely
    .selectFrom('log_outbox')
    .select(['id', 'payload'])
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: Number(row.id), log: JSON.parse(row.payload) as NewLogRow }));
}

/** Of these ids, those still waiting. */
export async function waitingAmong(db: Sql, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.kysely.selectFrom('log_outbox').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => Number(row.id)));
}

export async function deleteFromOutbox(db: Sql, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.kysely.deleteFrom('log_outbox').where('id', 'in', ids).execute();
}

/** How many logs wait (readiness). */
export async function outboxLength(db: Sql): Promise<number> {
  const row = await db.kysely
    .selectFrom('log_outbox')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

import type { InsertQueryBuilder, InsertResult } from 'kysely';
import type { Sql } from './connect';
import type { Database } from './schema';

type TableWithId =
  | 'users'
  | 'tokens'
  | 'channels'
  | 'redemptions'
  | 'logs'
  | 'audit_logs'
  | 'log_outbox'
  | 'payment_orders';

/** Runs an insert and gives back the new row id on every dialect (MySQL has no RETURNING). */
export async function insertReturningId<T extends TableWithId>(
  db: Pick<Sql, 'dialect'>,
  query: InsertQueryBuilder<Database, T, InsertResult>,
): Promise<number> {
  if (db.dialect === 'mysql') {
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  // biome-ignore lint/suspicious/noExplicitAny: every table named by TableWithId has an id column
  const row = await (query as InsertQueryBuilder<Database, T, any>).returning('id').executeTakeFirstOrThrow();
  return Number((row as { id: number }).id);
}

/** True when an error is a unique-constraint violation on any of the three databases. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' ||
    code === 'ER_DUP_ENTRY'
  );
}

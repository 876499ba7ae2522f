import type { Sql } from './connect';

/** A deadlock or serialization conflict: the database asks to run the statement or transaction again. */
function isConflict(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return (
    code === 'ER_LOCK_DEADLOCK' ||
    errno === 1213 ||
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === '40P01' ||
    code === '40001' ||
    // SQLite's codes come extended: SQLITE_BUSY_SNAPSHOT is a transaction that read, then found
    // another connection (a WORKERS process) had committed since, as it began to write.
    (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
  );
}

const CONFLICT_ATTEMPTS = 8;

/**
 * Runs `work` again when the database reports a conflict (it rolled the attempt back). Inside a
 * transaction the whole transaction is what must run again, so this leaves it to `inTransaction`.
 */
export async function retryOnConflict<T>(sql: Sql, work: () => Promise<T>): Promise<T> {
  if (sql.kysely.isTransaction) return work();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/** Runs `work` in one transaction: everything it writes lands together or not at all. */
export function inTransaction<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  if (sql.kysely.isTransaction) return work(sql);
  // The transaction keeps the connection's log outbox mark (LOG_SQL_DSN), so its logs go there too.
  const mark = sql.logOutbox ? { logOutbox: true as const } : {};
  return retryOnConflict(sql, () =>
    sql.kysely.transaction().execute((trx) => work({ kysely: trx, dialect: sql.dialect, ...mark })),
  );
}

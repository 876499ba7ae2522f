import type { DatabaseTarget } from '../config/database-target';
import { type Connection, type OpenOptions, openConnection, type Sql } from './connect';
import { createLedger } from './ledger';
import type { QuotaLedger } from './ledger/ledger';

/** The open database. */
export interface Db extends Connection {
  /** The quota writes of relayed calls, on the fastest path this database has. */
  ledger: QuotaLedger;
  /** Where the usage logs and their summaries are read and kept: this database, or LOG_SQL_DSN's. */
  logs: Sql;
  /** LOG_SQL_DSN's database when it is set (closed with this one). */
  logDatabase?: Connection;
}

/**
 * Opens SQL_DSN's database, and LOG_SQL_DSN's when it is given. The one place that decides the split:
 * without a log database everything is as it always was (logs written in the money's transaction);
 * with one, this database's connection is marked so that its logs go to the outbox (db/log-outbox.ts).
 */
export function openDatabase(
  target: DatabaseTarget,
  options: OpenOptions = {},
  logTarget?: DatabaseTarget,
): Db {
  const main = openConnection(target, options);
  if (!logTarget) return { ...main, ledger: createLedger(main), logs: main };
  const logDatabase = openConnection(logTarget, options);
  const connection: Connection = {
    ...main,
    logOutbox: true,
    close: async () => {
      await Promise.all([main.close(), logDatabase.close()]);
    },
  };
  return { ...connection, ledger: createLedger(connection), logs: logDatabase, logDatabase };
}

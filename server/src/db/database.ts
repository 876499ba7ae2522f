import type { DatabaseTarget } from '../config/database-target';
import { type Connection, openConnection } from './connect';
import { createLedger } from './ledger';
import type { QuotaLedger } from './ledger/ledger';
import type { SqlLogger } from './sql-log';

/** The open database. */
export interface Db extends Connection {
  /** The quota writes of relayed calls, on the fastest path this database has. */
  ledger: QuotaLedger;
}

export function openDatabase(target: DatabaseTarget, options: { logSql?: SqlLogger } = {}): Db {
  const connection = openConnection(target, options);
  return { ...connection, ledger: createLedger(connection) };
}

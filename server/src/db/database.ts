import type { DatabaseTarget } from '../config/database-target';
import { type Connection, type OpenOptions, openConnection } from './connect';
import { createLedger } from './ledger';
import type { QuotaLedger } from './ledger/ledger';

/** The open database. */
export interface Db extends Connection {
  /** The quota writes of relayed calls, on the fastest path this database has. */
  ledger: QuotaLedger;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  const connection = openConnection(target, options);
  return { ...connection, ledger: createLedger(connection) };
}

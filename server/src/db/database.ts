import { DEFAULT_POOL, type PoolSettings } from '../config/database-pool';
import type { DatabaseTarget } from '../config/database-target';
import { type Connection, openConnection } from './connect';
import { createLedger } from './ledger';
import type { QuotaLedger } from './ledger/ledger';

/** The open database. */
export interface Db extends Connection {
  /** The quota writes of relayed calls, on the fastest path this database has. */
  ledger: QuotaLedger;
}

export function openDatabase(target: DatabaseTarget, pool: PoolSettings = DEFAULT_POOL): Db {
  const connection = openConnection(target, pool);
  return { ...connection, ledger: createLedger(connection) };
}

import type { Connection } from '../connect';
import { KyselyLedger } from './kysely-ledger';
import type { QuotaLedger } from './ledger';
import { SqliteLedger } from './sqlite-ledger';

/**
 * The quota ledger on the fastest path the connection has: SQLite's driver directly; else Kysely, with
 * PostgreSQL's pipelined transactions when the connection has them (not with PG_PIPELINE=false).
 */
export function createLedger(connection: Connection): QuotaLedger {
  const { sqlite, sqliteBusyTimeout } = connection;
  return sqlite && sqliteBusyTimeout
    ? new SqliteLedger(connection.kysely, sqlite, sqliteBusyTimeout, connection.logOutbox === true)
    : new KyselyLedger(connection, connection.pgScripts);
}

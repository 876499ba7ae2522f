import type { DatabaseTarget } from '../../src/config/database-target';
import { PG_PIPELINE_ENV, type TestDatabase } from '../databases';

/** The server's settings for the same database, reached through a port of a test's proxy. */
export function throughProxy(database: TestDatabase, port: number): Record<string, string> {
  if (database.target.dialect === 'postgres') {
    const url = new URL(database.target.connectionString);
    url.host = `127.0.0.1:${port}`;
    return { SQL_DSN: url.toString(), SQLITE_PATH: '', ...PG_PIPELINE_ENV };
  }
  if (database.target.dialect === 'mysql') {
    return { SQL_DSN: `root:@tcp(127.0.0.1:${port})/${database.target.database}`, SQLITE_PATH: '' };
  }
  throw new Error('SQLite has no connection to cut');
}

/** The same database as a target for the test's own connections through the proxy. */
export function targetThroughProxy(database: TestDatabase, port: number): DatabaseTarget {
  const { target } = database;
  if (target.dialect === 'mysql') return { ...target, host: '127.0.0.1', port };
  if (target.dialect !== 'postgres') throw new Error('SQLite has no connection to cut');
  const url = new URL(target.connectionString);
  url.host = `127.0.0.1:${port}`;
  return { ...target, connectionString: url.toString() };
}

/** The database server's port, for the proxy to forward to. */
export const targetPort = (database: TestDatabase): number =>
  database.target.dialect === 'postgres'
    ? Number(new URL(database.target.connectionString).port || 5432)
    : database.target.dialect === 'mysql'
      ? (database.target.port ?? 3306)
      : 0;

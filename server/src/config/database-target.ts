import path from 'node:path';
import { type Env, fail } from './env';

/** Where the data lives: SQLite by default, PostgreSQL or MySQL/MariaDB when SQL_DSN says so. */
export type DatabaseTarget =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; connectionString: string }
  | {
      dialect: 'mysql';
      host?: string;
      port?: number;
      socketPath?: string;
      user: string;
      password: string;
      database: string;
    };

/** Parses one-api's MySQL DSN form `user:pass@tcp(host:port)/db?params` or `user:pass@unix(/path)/db`. */
function parseGoMysqlDsn(dsn: string): DatabaseTarget | undefined {
  const match = /^([^:@]*)(?::([^@]*))?@(tcp|unix)\(([^)]*)\)\/([^?]*)(?:\?.*)?$/.exec(dsn);
  if (!match) return undefined;
  const [, user = '', password = '', protocol, address = '', database = ''] = match;
  if (!database) return undefined;
  if (protocol === 'unix') return { dialect: 'mysql', socketPath: address, user, password, database };
  const [host = '127.0.0.1', portText] = address.split(':');
  const port = portText ? Number(portText) : 3306;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  return { dialect: 'mysql', host: host || '127.0.0.1', port, user, password, database };
}

function parseMysqlUrl(dsn: string): DatabaseTarget | undefined {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || !url.hostname) return undefined;
  return {
    dialect: 'mysql',
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
  };
}

/**
 * The directory relative paths are read against: the one the user started from. `npm start` runs
 * the server's own script inside server/, but npm keeps the directory it was started in as INIT_CWD;
 * without npm (`node server/dist/main.js`) it is the working directory.
 */
export function launchDirectory(env: Env): string {
  return env.INIT_CWD?.trim() || process.cwd();
}

export function parseDatabaseTarget(
  sqlDsn: string | undefined,
  sqlitePath: string | undefined,
  baseDir: string = process.cwd(),
): DatabaseTarget {
  const dsn = sqlDsn?.trim() ?? '';
  if (dsn === '') {
    const file = sqlitePath?.trim() || path.join('data', 'one-api.db');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(baseDir, file) };
  }
  return parseServerDsn(dsn, 'SQL_DSN');
}

/**
 * LOG_SQL_DSN (one-api's): the usage logs in a database of their own, PostgreSQL or MySQL in SQL_DSN's
 * forms, or a SQLite file as `sqlite:path` (relative to `baseDir`; `sqlite:///abs/path`); empty: with
 * everything else.
 */
export function parseLogDatabaseTarget(
  logSqlDsn: string | undefined,
  baseDir: string = process.cwd(),
): DatabaseTarget | undefined {
  const dsn = logSqlDsn?.trim() ?? '';
  if (dsn === '') return undefined;
  const sqliteFile = /^sqlite:(?:\/\/)?(.+)$/.exec(dsn)?.[1];
  if (sqliteFile !== undefined) return { dialect: 'sqlite', file: path.resolve(baseDir, sqliteFile) };
  return parseServerDsn(dsn, 'LOG_SQL_DSN');
}

function parseServerDsn(dsn: string, variable: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(dsn)) {
    try {
      new URL(dsn);
    } catch {
      fail(variable, 'not a valid postgres:// URL');
    }
    return { dialect: 'postgres', connectionString: dsn };
  }
  const target = dsn.startsWith('mysql://') ? parseMysqlUrl(dsn) : parseGoMysqlDsn(dsn);
  if (!target) {
    fail(
      variable,
      `expected ${variable === 'SQL_DSN' ? 'empty (SQLite), ' : 'sqlite:path/to/logs.db, '}postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db`,
    );
  }
  return target;
}

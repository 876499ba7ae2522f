import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseTarget } from '../config';
import { KyselyLedger } from './ledger/kysely-ledger';
import type { QuotaLedger } from './ledger/ledger';
import { SqliteLedger } from './ledger/sqlite-ledger';
import type { Database } from './schema';
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin';

export type Dialect = DatabaseTarget['dialect'];

/** A query builder (the database or an open transaction) plus which SQL dialect it speaks. Repos take this. */
export interface Sql {
  kysely: Kysely<Database>;
  dialect: Dialect;
}

/** The open database. */
export interface Db extends Sql {
  /** The quota writes of relayed calls, on the fastest path this database has. */
  ledger: QuotaLedger;
  close(): Promise<void>;
}

/** A deadlock or serialization conflict: the database asks to run the statement or transaction again. */
export function isConflict(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return (
    code === 'ER_LOCK_DEADLOCK' ||
    errno === 1213 ||
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === '40P01' ||
    code === '40001' ||
    code === 'SQLITE_BUSY'
  );
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
]);

/** The database cannot be reached (down, restarting, a network cut), as opposed to a bad statement. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^(08|57P)/.test(code))) return true;
  return (
    typeof message === 'string' &&
    /^Connection terminated|timeout exceeded when trying to connect/.test(message)
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
  return retryOnConflict(sql, () =>
    sql.kysely.transaction().execute((trx) => work({ kysely: trx, dialect: sql.dialect })),
  );
}

// Only the driver of the configured database is loaded: the others would cost memory for nothing.
const load = createRequire(import.meta.url);

const STATEMENT_CACHE_SIZE = 500;

/** better-sqlite3 with prepared statements kept by SQL text: the hot path prepares nothing twice. */
function withStatementCache(database: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}

function openSqlite(file: string): { kysely: Kysely<Database>; database: SqliteDatabase.Database } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const Sqlite = load('better-sqlite3') as typeof SqliteDatabase;
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 3000');
  database.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    plugins: [new SqliteBooleanPlugin()],
  });
  return { kysely, database };
}

export function openDatabase(target: DatabaseTarget): Db {
  let kysely: Kysely<Database>;
  let ledger: QuotaLedger | undefined;
  switch (target.dialect) {
    case 'sqlite': {
      const sqlite = openSqlite(target.file);
      kysely = sqlite.kysely;
      ledger = new SqliteLedger(kysely, sqlite.database);
      break;
    }
    case 'postgres': {
      const pg = load('pg') as typeof import('pg');
      // PostgreSQL sends bigint and numeric as strings; every value we keep fits a JS number.
      pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
      pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
      // one-api's keys are char(n): PostgreSQL pads shorter values (a preset INITIAL_ROOT_TOKEN) with
      // spaces on read; MySQL and SQLite do not, so strip them here to read the same everywhere.
      pg.types.setTypeParser(pg.types.builtins.BPCHAR, (value) => value.trimEnd());
      const pool = new pg.Pool({ connectionString: target.connectionString, max: 20 });
      // A connection dropped by the server (restart, failover, a network cut) must not bring the
      // process down: idle ones report on the pool, ones in use on their client (the query fails).
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      break;
    }
    case 'mysql': {
      const pool = (load('mysql2') as typeof import('mysql2')).createPool({
        host: target.host,
        port: target.port,
        socketPath: target.socketPath,
        user: target.user,
        password: target.password,
        database: target.database,
        connectionLimit: 20,
        supportBigNumbers: true,
        decimalNumbers: true,
        charset: 'utf8mb4',
      });
      // As for PostgreSQL: a dropped connection fails its query, not the process.
      pool.on('connection', (connection) => connection.on('error', () => {}));
      kysely = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
      break;
    }
  }
  const sql: Sql = { kysely, dialect: target.dialect };
  return { ...sql, ledger: ledger ?? new KyselyLedger(sql), close: () => kysely.destroy() };
}

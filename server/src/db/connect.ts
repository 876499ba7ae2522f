import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, type LogEvent, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { boundedMemo } from '../bounded-memo';
import { DEFAULT_POOL, type PoolSettings } from '../config/database-pool';
import type { DatabaseTarget } from '../config/database-target';
import { createPgScripts, type PgScripts } from './pg-script';
import type { Database } from './schema';
import { type SqlLogger, sqlLog } from './sql-log';
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin';
import { SqliteBusyTimeout } from './sqlite-busy-timeout';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer';

export type Dialect = DatabaseTarget['dialect'];

/** A query builder (the database or an open transaction) plus which SQL dialect it speaks. Repos take this. */
export interface Sql {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** LOG_SQL_DSN is set: logs written here go to this database's outbox (see db/log-outbox.ts). */
  logOutbox?: true;
}

/** An open connection pool; on SQLite also the driver's handle, which the embedded ledger runs on. */
export interface Connection extends Sql {
  sqlite?: SqliteDatabase.Database;
  /** On SQLite: whether the connection waits for a lock held elsewhere, switched by Kysely and the ledger. */
  sqliteBusyTimeout?: SqliteBusyTimeout;
  /** The connection pool's state now, where the driver tells it (metrics); SQLite has none. */
  poolUse?: () => PoolUse;
  /**
   * On PostgreSQL (unless PG_PIPELINE=false): transactions that send many statements per round trip,
   * which the ledger runs on.
   */
  pgScripts?: PgScripts;
  close(): Promise<void>;
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
  // No answer within a call's wait (db/deadline.ts).
  'DATABASE_DEADLINE',
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

export interface PoolUse {
  /** Connections open. */
  open: number;
  /** Of those, idle. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** mysql2 keeps its counts in fields of its own (lists and a queue), not in an API. */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

// Only the driver of the configured database is loaded: the others would cost memory for nothing.
const load = createRequire(import.meta.url);

const STATEMENT_CACHE_SIZE = 500;

// A database that takes longer than this to take a connection is out: the call fails clearly rather
// than wait on it (pg waits for ever by default, even for a pool being closed at shutdown).
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * better-sqlite3 as Kysely's driver sees it: prepared statements kept by SQL text (the hot path
 * prepares nothing twice), each run waiting for a lock held elsewhere (Kysely runs a statement as
 * soon as it prepared it).
 */
function forKysely(database: SqliteDatabase.Database, busyTimeout: SqliteBusyTimeout) {
  const prepared = boundedMemo(STATEMENT_CACHE_SIZE, (sql: string) => database.prepare(sql));
  return {
    prepare(sql: string) {
      busyTimeout.wait();
      return prepared(sql);
    },
    close() {
      database.close();
    },
  };
}

function openSqlite(
  file: string,
  log: ((event: LogEvent) => void) | undefined,
  busyTimeoutMs: number,
): {
  kysely: Kysely<Database>;
  database: SqliteDatabase.Database;
  busyTimeout: SqliteBusyTimeout;
  close: () => Promise<void>;
} {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const Sqlite = load('better-sqlite3') as typeof SqliteDatabase;
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  const busyTimeout = new SqliteBusyTimeout(database, busyTimeoutMs);
  database.pragma('synchronous = NORMAL');
  // Checkpoints run on a thread of their own, not inside a commit on the event loop.
  const checkpointer =
    file === ':memory:' ? undefined : startCheckpointer(file, load.resolve('better-sqlite3'));
  if (checkpointer) database.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: forKysely(database, busyTimeout) }),
    plugins: [new SqliteBooleanPlugin()],
    ...(log ? { log } : {}),
  });
  // Closed with its checkpointer's connection: nothing touches the database's files after.
  const close = async () => {
    await kysely.destroy();
    checkpointer?.stop();
    await checkpointer?.stopped;
    if (database.open) database.close();
  };
  return { kysely, database, busyTimeout, close };
}

/** How to open: the pool's settings (else the defaults), and DEBUG_SQL's statement log. */
export interface OpenOptions {
  pool?: PoolSettings;
  logSql?: SqlLogger;
}

export function openConnection(target: DatabaseTarget, options: OpenOptions = {}): Connection {
  const pool = options.pool ?? DEFAULT_POOL;
  // DEBUG_SQL: every statement, its string parameters masked.
  const log = options.logSql ? sqlLog(options.logSql) : undefined;
  let kysely: Kysely<Database>;
  let sqlite: SqliteDatabase.Database | undefined;
  let sqliteBusyTimeout: SqliteBusyTimeout | undefined;
  let poolUse: (() => PoolUse) | undefined;
  let pgScripts: PgScripts | undefined;
  let closeSqlite: (() => Promise<void>) | undefined;
  switch (target.dialect) {
    case 'sqlite': {
      ({
        kysely,
        database: sqlite,
        busyTimeout: sqliteBusyTimeout,
        close: closeSqlite,
      } = openSqlite(target.file, log, pool.sqliteBusyTimeoutMs));
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
      // pg keeps no cap on idle connections: each closes after 10 s idle (SQL_MAX_IDLE_CONNS is MySQL's).
      const pgPool = new pg.Pool({
        connectionString: target.connectionString,
        max: pool.maxOpen,
        maxLifetimeSeconds: pool.maxLifetimeSeconds,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      // A connection dropped by the server (restart, failover, a network cut) must not bring the
      // process down: idle ones report on the pool, ones in use on their client (the query fails).
      pgPool.on('error', () => {});
      pgPool.on('connect', (client) => client.on('error', () => {}));
      poolUse = () => ({
        open: pgPool.totalCount,
        idle: pgPool.idleCount,
        waiting: pgPool.waitingCount,
      });
      if (pool.pgPipeline) pgScripts = createPgScripts(pgPool, options.logSql);
      kysely = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: pgPool }),
        ...(log ? { log } : {}),
      });
      break;
    }
    case 'mysql': {
      const mysqlPool = (load('mysql2') as typeof import('mysql2')).createPool({
        host: target.host,
        port: target.port,
        socketPath: target.socketPath,
        user: target.user,
        password: target.password,
        database: target.database,
        connectionLimit: pool.maxOpen,
        maxIdle: pool.maxIdle ?? pool.maxOpen,
        // mysql2 closes a connection idle this long (its default: 60 s); it has no lifetime of its own.
        ...(pool.maxLifetimeSeconds > 0 ? { idleTimeout: pool.maxLifetimeSeconds * 1000 } : {}),
        connectTimeout: CONNECT_TIMEOUT_MS,
        supportBigNumbers: true,
        decimalNumbers: true,
        charset: 'utf8mb4',
      });
      // As for PostgreSQL: a dropped connection fails its query, not the process.
      mysqlPool.on('connection', (connection) => connection.on('error', () => {}));
      const internals = mysqlPool as unknown as Mysql2PoolInternals;
      poolUse = () => ({
        open: internals._allConnections?.length ?? 0,
        idle: internals._freeConnections?.length ?? 0,
        waiting: internals._connectionQueue?.length ?? 0,
      });
      kysely = new Kysely<Database>({
        dialect: new MysqlDialect({ pool: mysqlPool }),
        ...(log ? { log } : {}),
      });
      break;
    }
  }
  // Closing while the database is out (a shutdown during an outage) has no one to say goodbye to.
  const close = async () =>
    (closeSqlite ?? (() => kysely.destroy()))().catch((error: unknown) => {
      if (!isDatabaseUnreachable(error)) throw error;
    });
  return { kysely, dialect: target.dialect, sqlite, sqliteBusyTimeout, poolUse, pgScripts, close };
}

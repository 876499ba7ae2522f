import { type Env, readInteger } from './env';
import { readFlag } from './operations';

/**
 * How the driver keeps its connections and sends statements (one-api's SQL_MAX_* variables,
 * SQLITE_BUSY_TIMEOUT, PG_PIPELINE).
 */
export interface PoolSettings {
  /** Connections open at most (SQL_MAX_OPEN_CONNS): pg's `max`, mysql2's `connectionLimit`. */
  maxOpen: number;
  /** Idle connections kept (SQL_MAX_IDLE_CONNS): mysql2's `maxIdle`; unset, as many as may be open. */
  maxIdle: number | undefined;
  /** Seconds a connection lives (SQL_MAX_LIFETIME): pg's `maxLifetimeSeconds`, mysql2's idle timeout; 0 = for ever. */
  maxLifetimeSeconds: number;
  /** Milliseconds SQLite waits for a lock before it answers SQLITE_BUSY (SQLITE_BUSY_TIMEOUT). */
  sqliteBusyTimeoutMs: number;
  /**
   * PostgreSQL: the ledger sends a transaction's statements in few round trips (PG_PIPELINE, on by
   * default); off, one round trip per statement, as on MySQL (see docs/ledger.md).
   */
  pgPipeline: boolean;
}

export const DEFAULT_POOL: PoolSettings = {
  maxOpen: 20,
  maxIdle: undefined,
  maxLifetimeSeconds: 0,
  sqliteBusyTimeoutMs: 3000,
  pgPipeline: true,
};

export function readPoolSettings(env: Env): PoolSettings {
  const maxOpen = readInteger(env, 'SQL_MAX_OPEN_CONNS', DEFAULT_POOL.maxOpen, 1, 10_000);
  const idleRaw = env.SQL_MAX_IDLE_CONNS?.trim();
  return {
    maxOpen,
    // More idle than open is meaningless: capped, as database/sql does.
    maxIdle: idleRaw ? Math.min(readInteger(env, 'SQL_MAX_IDLE_CONNS', 0, 0, 10_000), maxOpen) : undefined,
    maxLifetimeSeconds: readInteger(env, 'SQL_MAX_LIFETIME', 0, 0, 86_400 * 365),
    sqliteBusyTimeoutMs: readInteger(
      env,
      'SQLITE_BUSY_TIMEOUT',
      DEFAULT_POOL.sqliteBusyTimeoutMs,
      0,
      3_600_000,
    ),
    pgPipeline: env.PG_PIPELINE?.trim() ? readFlag(env, 'PG_PIPELINE') : DEFAULT_POOL.pgPipeline,
  };
}

import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * The embedded database's connection never sleeps on a lock (its busy timeout is 0): SQLite's own
 * wait would hold the whole event loop. A statement or a transaction refused because another
 * connection holds the database for a moment (the checkpointer starting the WAL over, another
 * process) is tried again on a timer instead, every BUSY_RETRY_MS, for as long as SQLITE_BUSY_TIMEOUT;
 * then it fails with SQLITE_BUSY, as the driver would have.
 */
export const BUSY_RETRY_MS = 1;

/** Refused for now, worth trying again (not SQLITE_BUSY_SNAPSHOT: a read that is out of date stays so). */
export const isBusy = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

export const busyPause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));

export const stillBusy = (): Error => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** `attempt` until it does not fail with SQLITE_BUSY, a pause between tries, for `waitMs` at most. */
export async function retryWhileBusy<T>(waitMs: number, attempt: () => T | Promise<T>): Promise<T> {
  const giveUpAt = performance.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= giveUpAt) throw error;
    }
    await busyPause();
  }
}

/** Kysely's SQLite dialect whose statements wait for a busy database on timers (see above). */
export class WaitingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #waitMs: number;

  constructor(config: SqliteDialectConfig, waitMs: number) {
    super(config);
    this.#config = config;
    this.#waitMs = waitMs;
  }

  override createDriver(): Driver {
    return new WaitingSqliteDriver(this.#config, this.#waitMs);
  }
}

class WaitingSqliteDriver extends SqliteDriver {
  #connection: DatabaseConnection | undefined;

  constructor(
    config: SqliteDialectConfig,
    private readonly waitMs: number,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#connection) {
      const connection = await super.acquireConnection();
      const waitMs = this.waitMs;
      this.#connection = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          retryWhileBusy(waitMs, () => connection.executeQuery<R>(query)),
        // A read streamed row by row is not begun again half-way: it fails as it is.
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
    }
    return this.#connection;
  }
}

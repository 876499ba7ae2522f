import type SqliteDatabase from 'better-sqlite3';

/**
 * Whether the SQLite connection waits for a lock another connection holds (the checkpointer starting
 * the WAL over, another process). Kysely's statements wait, up to SQLITE_BUSY_TIMEOUT, as the driver
 * does; the ledger's BEGIN must not sleep on the event loop, so it runs without waiting and tries
 * again on a timer (see SqliteLedger). Each side switches the connection only when the other ran last:
 * on the relay's path only the ledger runs, and nothing is switched.
 */
export class SqliteBusyTimeout {
  readonly #wait: SqliteDatabase.Statement;
  readonly #noWait: SqliteDatabase.Statement;
  #waiting = true;

  constructor(
    database: SqliteDatabase.Database,
    /** How long a waiting statement waits for a lock. */
    readonly waitMs: number,
  ) {
    // SQLite sets a PRAGMA's value as it compiles it (and compiles it again on each run): the last
    // one prepared is the one in force.
    this.#noWait = database.prepare('PRAGMA busy_timeout = 0');
    this.#wait = database.prepare(`PRAGMA busy_timeout = ${waitMs}`);
  }

  /** From now on a lock held elsewhere is waited for, up to `waitMs`. */
  wait(): void {
    if (this.#waiting) return;
    this.#wait.run();
    this.#waiting = true;
  }

  /** From now on a lock held elsewhere fails the statement at once (SQLITE_BUSY). */
  noWait(): void {
    if (!this.#waiting) return;
    this.#noWait.run();
    this.#waiting = false;
  }
}

import type { Dialect, Sql } from '../db/connect';
import { deleteOldestAuditLogsBefore } from '../db/repos/audit-logs';
import { deleteOldestLogsBefore } from '../db/repos/log-summaries/batch-removal';
import type { OptionsStore } from '../domain/options';

const DAY_SECONDS = 86_400;
const EVERY_MS = 60 * 60_000;
const FIRST_RUN_AFTER_MS = 60_000;

export interface LogRetentionPace {
  /** Logs deleted per transaction. */
  batchSize: number;
  /** Pause between two batches, so that the relay's writes and other readers get the database. */
  pauseMs: number;
}

/**
 * A batch is one transaction, and SQLite's one connection is the relay's too: there a batch is kept
 * to about 50 ms of work, on a server database to a few thousand rows.
 */
export const retentionPace = (dialect: Dialect): LogRetentionPace =>
  dialect === 'sqlite' ? { batchSize: 500, pauseMs: 100 } : { batchSize: 2000, pauseMs: 100 };

/**
 * Deletes the usage logs and the audit log's entries older than the option LogRetentionDays (0: none), a minute after start-up
 * and then every hour, in small batches with pauses: no long lock, no long transaction. One process
 * of a cluster runs it (a WorkerRole's jobs); another process's run would only find fewer rows.
 */
export class LogRetention {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #closed = false;

  constructor(
    private readonly deps: {
      /** Where the usage logs are (LOG_SQL_DSN's database, else the main one). */
      db: Sql;
      /** Where the audit log is: the main database (default: `db`). */
      auditDb?: Sql;
      options: OptionsStore;
      /** Milliseconds since the epoch (tests set it). */
      clock?: () => number;
      pace?: LogRetentionPace;
      onDeleted?: (deleted: { logs: number; auditEntries: number }, before: number) => void;
      onError?: (error: unknown) => void;
    },
  ) {}

  start(): void {
    const tick = () => {
      this.run().catch((error: unknown) => this.deps.onError?.(error));
    };
    this.#timer = setTimeout(() => {
      tick();
      this.#timer = setInterval(tick, EVERY_MS);
      this.#timer.unref();
    }, FIRST_RUN_AFTER_MS);
    this.#timer.unref();
  }

  /** The time (seconds) before which logs go now; undefined when logs are kept for ever. */
  cutoff(): number | undefined {
    const days = Math.floor(this.deps.options.number('LogRetentionDays'));
    if (!(days > 0)) return undefined;
    return Math.floor((this.deps.clock ?? Date.now)() / 1000) - days * DAY_SECONDS;
  }

  /** One clean-up to the end (a run already going is joined); answers how many usage logs it deleted. */
  run(): Promise<number> {
    this.#running ??= this.#deleteAll().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#timer);
    await this.#running?.catch(() => {});
  }

  async #deleteAll(): Promise<number> {
    const before = this.cutoff();
    if (before === undefined) return 0;
    const logs = await this.#inBatches((limit) => deleteOldestLogsBefore(this.deps.db, before, limit));
    const auditEntries = await this.#inBatches((limit) =>
      deleteOldestAuditLogsBefore(this.deps.auditDb ?? this.deps.db, before, limit),
    );
    if (logs + auditEntries > 0) this.deps.onDeleted?.({ logs, auditEntries }, before);
    return logs;
  }

  /** `remove` batch after batch, with the pace's pauses, until a batch comes back short. */
  async #inBatches(remove: (limit: number) => Promise<number>): Promise<number> {
    const { batchSize, pauseMs } = this.deps.pace ?? retentionPace(this.deps.db.dialect);
    let total = 0;
    while (!this.#closed) {
      const deleted = await remove(batchSize);
      total += deleted;
      if (deleted < batchSize) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return total;
  }
}

import type { Sql } from '../db/connect';
import { catchUpLogSummaries } from '../db/repos/log-summaries/catch-up';
import { foldLogSummaries } from '../db/repos/log-summaries/fold';
import { leavesLoneLogsToFold } from '../db/repos/log-summaries/state';

const EVERY_MS = 60_000;
/**
 * The ledger's lone logs are folded into the summaries (leavesLoneLogsToFold) once this process wrote
 * FOLD_AFTER_LOGS of them (looked at every FOLD_CHECK_MS), or FOLD_AT_LEAST_EVERY_MS after the last
 * fold (other processes' logs, a quiet server): a fold's cost is per log, not per second.
 */
const FOLD_AFTER_LOGS = 1000;
const FOLD_CHECK_MS = 500;
const FOLD_AT_LEAST_EVERY_MS = 5000;

/**
 * Keeps the log summaries up with the logs: on SQLite and PostgreSQL, folds the logs the ledger
 * writes without their summaries; on every database, catches up the logs another program
 * writes (one-api on the same database during a migration, a script) at start-up, then every minute.
 * Every process runs one; the database orders their runs, so no log is taken in twice.
 */
export class LogSummaryCatchUp {
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #ticks = new Set<Promise<void>>();
  /** The ledger's count of logs left to a fold, and the time, at the last fold. */
  #lastFold = { logs: 0, atMs: 0 };

  constructor(
    private readonly deps: {
      db: Sql;
      /** The ledger's count of the logs it left to a fold (QuotaLedger.logsLeftToFold). */
      logsLeftToFold?: () => number;
      everyMs?: number;
      /** Milliseconds, for the time since the last fold (a test holds it still); else performance.now. */
      clock?: () => number;
      onCaughtUp?: (logs: number) => void;
      onError?: (error: unknown) => void;
    },
  ) {}

  /** Catches up once (start-up), then on timers. */
  async start(): Promise<void> {
    await this.#run(() => this.catchUp());
    this.#every(this.deps.everyMs ?? EVERY_MS, () => this.catchUp());
    if (leavesLoneLogsToFold(this.deps.db.dialect)) this.#every(FOLD_CHECK_MS, () => this.#foldWhenDue());
  }

  /** Folds, then takes in the logs another program wrote; answers how many of those. */
  async catchUp(): Promise<number> {
    await this.#fold();
    const logs = await catchUpLogSummaries(this.deps.db);
    if (logs > 0) this.deps.onCaughtUp?.(logs);
    return logs;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.all(this.#ticks);
  }

  async #fold(): Promise<void> {
    if (!leavesLoneLogsToFold(this.deps.db.dialect)) return;
    this.#lastFold = { logs: this.deps.logsLeftToFold?.() ?? 0, atMs: this.#now() };
    await foldLogSummaries(this.deps.db);
  }

  async #foldWhenDue(): Promise<void> {
    const logs = (this.deps.logsLeftToFold?.() ?? 0) - this.#lastFold.logs;
    if (logs >= FOLD_AFTER_LOGS || this.#now() - this.#lastFold.atMs >= FOLD_AT_LEAST_EVERY_MS)
      await this.#fold();
  }

  #now(): number {
    return this.deps.clock ? this.deps.clock() : performance.now();
  }

  #every(ms: number, work: () => Promise<unknown>): void {
    let tick: Promise<void> | undefined;
    const timer = setInterval(() => {
      // A run slower than the interval is not stacked on.
      if (tick) return;
      tick = this.#run(work).finally(() => {
        if (tick) this.#ticks.delete(tick);
        tick = undefined;
      });
      this.#ticks.add(tick);
    }, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  async #run(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.deps.onError?.(error);
    }
  }
}

import type { Sql } from '../db/connect';
import { catchUpLogSummaries } from '../db/repos/log-summaries/catch-up';

const EVERY_MS = 60_000;

/**
 * Keeps the log totals equal to the logs when another program writes logs too (one-api on the same
 * database during a migration, a script): catches up at start-up, then every minute. Every process
 * runs one; the database orders their runs, so no log is taken in twice.
 */
export class LogSummaryCatchUp {
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      db: Sql;
      everyMs?: number;
      onCaughtUp?: (logs: number) => void;
      onError?: (error: unknown) => void;
    },
  ) {}

  /** Catches up once (start-up), then on a timer. */
  async start(): Promise<void> {
    await this.#run();
    this.#timer = setInterval(() => {
      // A run slower than the interval is not stacked on.
      this.#tick ??= this.#run().finally(() => {
        this.#tick = undefined;
      });
    }, this.deps.everyMs ?? EVERY_MS);
    this.#timer.unref();
  }

  /** Takes in the logs there now; answers how many. */
  catchUp(): Promise<number> {
    return catchUpLogSummaries(this.deps.db);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#tick;
  }

  async #run(): Promise<void> {
    try {
      const logs = await this.catchUp();
      if (logs > 0) this.deps.onCaughtUp?.(logs);
    } catch (error) {
      this.deps.onError?.(error);
    }
  }
}

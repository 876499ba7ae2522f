import type { Sql } from '../db/connect';
import { deleteFromOutbox, readOutbox, waitingAmong } from '../db/log-outbox';
import { forgetReceipts, oldestReceipts, receiveLogs } from '../db/repos/log-shipments';

const EVERY_MS = 500;
const ENTRIES_PER_SHIPMENT = 1000;
const RECEIPTS_PER_SWEEP = 1000;

/**
 * With LOG_SQL_DSN: moves the logs of the main database's outbox to the log database. Each shipment
 * is one transaction on the log database (logs, summaries, receipts), then the entries leave the
 * outbox, then their receipts are forgotten; a crash between two steps leaves work the next run
 * finishes without writing a log twice (see db/repos/log-shipments.ts). The log database being out
 * only makes the outbox longer: the relay writes to the main database alone.
 */
export class LogShipper {
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<unknown> | undefined;
  /** The log database's tables are there and old receipts swept (the first run that reached it). */
  #prepared = false;
  /** Whether the last run failed: an outage is reported once, not every half second. */
  #failing = false;

  constructor(
    private readonly deps: {
      db: Sql;
      logs: Sql;
      /** Makes the log database's tables once it can be reached (it may be out at start-up). */
      prepare?: () => Promise<void>;
      everyMs?: number;
      onError?: (error: unknown) => void;
    },
  ) {}

  start(): void {
    this.#timer = setInterval(() => {
      this.#tick ??= this.#run().finally(() => {
        this.#tick = undefined;
      });
    }, this.deps.everyMs ?? EVERY_MS);
    this.#timer.unref();
  }

  /** Ships every log waiting now (and what was left half-done); answers how many were written. */
  async shipAll(): Promise<number> {
    await this.#tick;
    return this.#shipAll();
  }

  /** Stops the timer, then ships what the last calls left (best effort: what stays waits for the next start). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#tick;
    await this.#run();
  }

  async #shipAll(): Promise<number> {
    if (!this.#prepared) {
      await this.deps.prepare?.();
      await this.#sweepReceipts();
      this.#prepared = true;
    }
    let total = 0;
    for (;;) {
      const entries = await readOutbox(this.deps.db, ENTRIES_PER_SHIPMENT);
      if (entries.length === 0) return total;
      const ids = entries.map((entry) => entry.id);
      total += await receiveLogs(this.deps.logs, entries, (taken) => waitingAmong(this.deps.db, taken));
      await deleteFromOutbox(this.deps.db, ids);
      await forgetReceipts(this.deps.logs, ids);
      if (entries.length < ENTRIES_PER_SHIPMENT) return total;
    }
  }

  /** Forgets receipts a process left when it stopped after emptying the outbox (their entries are gone). */
  async #sweepReceipts(): Promise<void> {
    const ids = await oldestReceipts(this.deps.logs, RECEIPTS_PER_SWEEP);
    const waiting = await waitingAmong(this.deps.db, ids);
    await forgetReceipts(
      this.deps.logs,
      ids.filter((id) => !waiting.has(id)),
    );
  }

  async #run(): Promise<void> {
    try {
      await this.#shipAll();
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.deps.onError?.(error);
      this.#failing = true;
    }
  }
}

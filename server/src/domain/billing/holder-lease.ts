import { hostname } from 'node:os';
import type { QuotaLedger } from '../../db/ledger/ledger';
import { randomHex } from '../random';

/**
 * This process as a holder of quota: a lease in the database that it renews while alive. When a
 * process dies, its lease runs out and any process (itself after a restart) gives its holds back.
 * A process that finds its own lease gone (it was presumed dead) forgets its credit and starts a
 * new lease under a new name, so nothing can be given back twice.
 */
export class HolderLease {
  #id = newHolderId();
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<void> | undefined;
  /** A renewal and sweep in progress: a database that stalls must not gather one per period. */
  #ticking = false;

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      leaseMs: number;
      /** The lease was lost: whatever was held under the old name is no longer ours. */
      onLost: () => void;
      onError: (error: unknown) => void;
      clock?: () => number;
    },
  ) {}

  get id(): string {
    return this.#id;
  }

  /** The expiry a renewal made now gives. */
  until(): number {
    return this.#now() + this.deps.leaseMs;
  }

  async start(): Promise<void> {
    await this.deps.ledger.register(this.#id, this.until());
    await this.sweep();
    this.#timer = setInterval(() => void this.#tick(), this.deps.leaseMs / 3);
    this.#timer.unref();
  }

  /** Gives back the holds of other holders whose lease ran out. */
  async sweep(): Promise<number> {
    return this.deps.ledger.sweep(this.#now(), this.#id);
  }

  /** Called when the ledger refused this holder: take a new name and lease. */
  async replace(): Promise<void> {
    this.#renewing ??= (async () => {
      this.deps.onLost();
      this.#id = newHolderId();
      await this.deps.ledger.register(this.#id, this.until());
    })().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  /** Stops renewing and lets the lease run out at once, so what is still held goes back at the next sweep. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.deps.ledger.renew(this.#id, 0).catch(this.deps.onError);
  }

  async #tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      await this.#renew();
      await this.sweep();
    } catch (error) {
      this.deps.onError(error);
    } finally {
      this.#ticking = false;
    }
  }

  /**
   * Renews the lease, or takes a new one when it was lost. A renewal answered after the expiry it set
   * (the database stalled longer than the lease) is made again at once, so that other processes do
   * not take this one for dead.
   */
  async #renew(): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const until = this.until();
      if (!(await this.deps.ledger.renew(this.#id, until))) return this.replace();
      if (this.#now() < until) return;
    }
  }

  #now(): number {
    return (this.deps.clock ?? Date.now)();
  }
}

const newHolderId = () => `${hostname().slice(0, 32)}-${process.pid}-${randomHex(8)}`;

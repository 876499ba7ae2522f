import type { QuotaLedger } from '../../db/ledger/ledger';
import type { NewLogRow } from '../../db/schema';
import type { MaybePromise } from '../../maybe-promise';
import type { OptionsStore } from '../options';
import { HolderLease } from './holder-lease';
import { type Price, PriceList, type QuotedPrice } from './prices';
import { type Payer, type Reservation, Reservations, type ReserveRefusal } from './reservations';
import { ReservedCredit } from './reserved-credit';
import { type CallRecord, type PendingSettlements, Settlements } from './settlements';

export {
  DEFAULT_PICTURE_SIZE,
  type PicturesBilled,
  type Price,
  pictureQuota,
  pictureSizes,
  quotaFor,
} from './prices';
export type { Payer, Reservation, ReserveRefusal } from './reservations';
export type { CallRecord } from './settlements';

/** Settled calls wait to be written (SETTLEMENT_BACKLOG of them): no call is admitted until they are. */
export class SettlementBacklogFull extends Error {
  constructor(unwritten: number) {
    super(`${unwritten} settled calls wait for the database to be written: no new call until they are`);
  }
}

/** Completion tokens a call without max_tokens is assumed to produce at most, to size its ceiling. */
const DEFAULT_COMPLETION_CEILING = 4_096;

/**
 * Quota, the product's money: prices, holds before a call, settlement after it, refunds on failure.
 * Holds move only `held_quota`; a settlement charges the balance and releases the hold in one
 * transaction. See docs/ledger.md.
 */
export class Billing {
  readonly #prices: PriceList;
  readonly #lease: HolderLease;
  readonly #reservations: Reservations;
  readonly #settlements: Settlements;
  readonly #credit: ReservedCredit;

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      options: OptionsStore;
      /**
       * Settled calls that may wait to be written before new calls are refused (SETTLEMENT_BACKLOG):
       * the most a kill during a database outage can lose.
       */
      settlementBacklog: number;
      /** How long a call waits for the database to hold its quota (see relayDatabaseWaitMs). */
      databaseWaitMs: number;
      /** How long a process's holds outlive it when it dies without giving them back. */
      leaseMs: number;
      /** Told after quota was charged to a user. */
      onQuotaSpent?: (userId: number, amount: number) => void;
      /** Told of each call settled, with the quota it is charged (metrics). */
      onSettled?: (call: CallRecord, quota: number) => void;
      /** Told when a write failed (settlements are retried until they land). */
      onWriteFailed?: (error: unknown) => void;
      /** Asks other processes to give back the credit they hold for a user (needs Redis). */
      askForCredit?: (userId: number) => void;
      /** Whether credit may be held ahead and spent from memory now (the change bus is up). */
      mayUseCredit?: () => boolean;
    },
  ) {
    const { ledger, options } = deps;
    const onWriteFailed = (error: unknown) => deps.onWriteFailed?.(error);
    const credit = new ReservedCredit();
    this.#credit = credit;
    this.#prices = new PriceList(options);
    this.#lease = new HolderLease({
      ledger,
      leaseMs: deps.leaseMs,
      onLost: () => credit.clear(),
      onError: onWriteFailed,
    });
    const lease = this.#lease;
    const settlements = new Settlements({
      ledger,
      lease,
      options,
      onQuotaSpent: deps.onQuotaSpent,
      onSettled: deps.onSettled,
      onWriteFailed,
    });
    this.#settlements = settlements;
    this.#reservations = new Reservations({
      ledger,
      lease,
      credit,
      onWriteFailed,
      waitMs: deps.databaseWaitMs,
      giveBack: (holds) => settlements.giveBack(holds),
      askForCredit: deps.askForCredit,
      mayUseCredit: deps.mayUseCredit ?? (() => true),
    });
  }

  /** Takes this process's lease and gives back what dead processes held. */
  start(): Promise<void> {
    return this.#lease.start();
  }

  /** The price of a call, from the ratio options in force (cached until they change). */
  price(model: string, group: string, channelType: number): QuotedPrice {
    return this.#prices.price(model, group, channelType);
  }

  /** What a text call reserves: (PreConsumedQuota + max_tokens) × ratio. */
  estimate(price: Price, maxTokens: number): number {
    const tokens = this.deps.options.number('PreConsumedQuota') + Math.max(0, maxTokens);
    return Math.floor(tokens * price.ratio);
  }

  /** The most a text call may cost: its max_tokens (or DEFAULT_COMPLETION_CEILING) all generated. */
  ceiling(price: Price, maxTokens: number): number {
    const completion = maxTokens > 0 ? maxTokens : DEFAULT_COMPLETION_CEILING;
    const prompt = this.deps.options.number('PreConsumedQuota');
    return Math.ceil((prompt + completion * price.completionRatio) * price.ratio);
  }

  /**
   * See Reservations.reserve. Refused (an error, answered as `database_unavailable`) while
   * `settlementBacklog` settled calls wait to be written: whatever is served must be written before
   * more is, so a process killed during a database outage loses at most that many.
   */
  reserve(payer: Payer, estimate: number, ceiling: number): MaybePromise<Reservation | ReserveRefusal> {
    if (this.#settlements.unwritten >= this.deps.settlementBacklog) {
      return Promise.reject(new SettlementBacklogFull(this.#settlements.unwritten));
    }
    return this.#reservations.reserve(payer, estimate, ceiling);
  }

  /** Holds `extra` more for a call in progress; false when the account cannot spend it. */
  extend(reservation: Reservation, extra: number): Promise<boolean> {
    return this.#reservations.extend(reservation, extra);
  }

  /** Another process (or an administrator's edit) asks for the credit held for a user or a key. */
  returnCredit(of: { userId: number } | { tokenId: number }): Promise<void> {
    return this.#reservations.returnCredit(of);
  }

  /** Gives back all credit held ahead (changes may have been missed). */
  returnAllCredit(): Promise<void> {
    return this.#reservations.returnIdleCredit(0);
  }

  /** Gives a reservation back whole: the call failed. */
  refund(reservation: Reservation): Promise<void> {
    return this.#reservations.refund(reservation);
  }

  /** See Settlements.settle. */
  settle(call: CallRecord): Promise<number> {
    return this.#settlements.settle(call);
  }

  /** See Settlements.consumeLog: the log of a charge made outside the settlements (video jobs). */
  consumeLog(call: CallRecord, quota: number): NewLogRow | undefined {
    return this.#settlements.consumeLog(call, quota);
  }

  /** See Settlements.chargedElsewhere. */
  chargedElsewhere(call: CallRecord, quota: number): void {
    this.#settlements.chargedElsewhere(call, quota);
  }

  /** Credit held ahead in memory, for how many payers (metrics). */
  heldCredit(): { payers: number; quota: number } {
    return this.#credit.held();
  }

  /** Writes waiting in the group-commit queues (metrics). */
  queueDepths(): { holds: number; settlements: number } {
    return { holds: this.#reservations.queueDepth, settlements: this.#settlements.queueDepth };
  }

  /** Settled calls not yet written (a database outage), with what they are worth. */
  pending(): PendingSettlements {
    return this.#settlements.pending();
  }

  /** Resolves once every call settled so far is written and unused credit is given back (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#reservations.returnIdleCredit(0);
    await this.#settlements.drained();
  }

  /**
   * Shutdown: writes what is settled and gives credit back, waiting at most `waitMs` for the
   * database; answers what could not be written by then.
   */
  async close(waitMs: number): Promise<PendingSettlements> {
    this.#reservations.stopCreditReturns();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([this.settled().catch(() => this.#settlements.drained()), timeout]);
    clearTimeout(timer);
    const left = this.pending();
    if (left.calls === 0) await this.#lease.stop();
    return left;
  }
}

import { nowSeconds } from '../../clock';
import { DatabaseDeadlineError, withinDeadline } from '../../db/deadline';
import { GroupCommit } from '../../db/group-commit';
import {
  type Hold,
  type HoldRefusal,
  type HoldRequest,
  type HoldResult,
  LeaseLostError,
  type PayerRef,
  type QuotaLedger,
} from '../../db/ledger/ledger';
import type { MaybePromise } from '../../maybe-promise';
import type { HolderLease } from './holder-lease';
import { keyOf, type ReservedCredit } from './reserved-credit';

export interface Payer {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  unlimitedToken: boolean;
  /** The key's budget period, when it has a budget. */
  budgetPeriod?: string;
}

export interface Reservation {
  payer: Payer;
  /** Held for this call (grows when a stream's running cost is extended). */
  amount: number;
  /** The holder the hold is under. */
  holder: string;
  /** Settled or refunded: its hold is no longer this call's to give back. */
  closed?: boolean;
  /**
   * Set when the account was found short: everything it could spend on this call (its hold plus what
   * was left). A call that could cost more is limited to this (see Relay).
   */
  limit?: number;
}

export type ReserveRefusal = HoldRefusal;

/**
 * A reservation that must go to the database holds up to this many calls' worth at once when the
 * account is rich, so the payer's next calls reserve from memory: at most half of what it can spend
 * above RICH_FLOOR_CALLS worst-case calls (see holdProgram).
 */
const RESERVE_AHEAD_CALLS = 64;
const RICH_FLOOR_CALLS = 4;
/**
 * Once a payer's credit is down to this many calls' worth, more is held in the background, so that
 * a rich payer's calls do not wait for the database each time the credit runs out.
 */
const REFILL_BELOW_CALLS = 16;
/** Unused credit goes back after this long without calls of its payer. */
const CREDIT_IDLE_MS = 2_000;
/** How long a refused call waits for its own process's credit to be given back before it holds again. */
const OWN_CREDIT_WAIT_MS = 1_000;
/** Waits between asks for credit other processes hold, before a call is refused. */
const CREDIT_ASK_WAITS_MS = [20, 60, 150, 300];

export const holdOf = (reservation: Reservation): Hold => ({
  holder: reservation.holder,
  userId: reservation.payer.userId,
  tokenId: reservation.payer.tokenId,
  unlimitedToken: reservation.payer.unlimitedToken,
  budgetPeriod: reservation.payer.budgetPeriod,
  amount: reservation.amount,
});

const payerRef = (payer: Payer): PayerRef => ({
  userId: payer.userId,
  tokenId: payer.tokenId,
  unlimitedToken: payer.unlimitedToken,
  budgetPeriod: payer.budgetPeriod,
});

/** A call's hold, with as much again as RESERVE_AHEAD_CALLS allows held ahead when `ahead`. */
const holdRequest = (payer: Payer, amount: number, ceiling: number, ahead: boolean): HoldRequest => ({
  ...payerRef(payer),
  amount,
  ahead: ahead ? amount * (RESERVE_AHEAD_CALLS - 1) : 0,
  richFloor: Math.max(ceiling, amount) * RICH_FLOOR_CALLS,
});

interface HoldAsk {
  request: HoldRequest;
}
type HoldAnswer = HoldResult & { holder: string };

/** Holds before a call: from credit this process holds, else held in the database (batched). */
export class Reservations {
  readonly #holds: GroupCommit<HoldAsk, HoldAnswer>;
  #creditReturns: NodeJS.Timeout | undefined;
  /** Credit being held again in the background, by payer (see #refill). */
  readonly #refills = new Map<string, Promise<void>>();
  /** Shutting down: no more credit is held ahead. */
  #closing = false;

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      lease: HolderLease;
      credit: ReservedCredit;
      onWriteFailed: (error: unknown) => void;
      /**
       * How long a call waits for the database in all (its holds, and asks for credit): then it is
       * refused with `database_unavailable`, and a hold that lands later is given back.
       */
      waitMs: number;
      /** Gives holds back, retried until they land (Settlements.giveBack). */
      giveBack: (holds: Hold[]) => Promise<void>;
      /** Asks other processes to give back the credit they hold for a user (needs Redis). */
      askForCredit?: (userId: number) => void;
      /**
       * Whether credit may be held ahead and spent from memory now: not while edits of other
       * processes cannot be heard (the change bus is down); each call then holds its own.
       */
      mayUseCredit: () => boolean;
    },
  ) {
    this.#holds = new GroupCommit((batch) => this.#hold(batch.map((ask) => ask.request)));
  }

  /**
   * Holds the estimate from the user and (when limited) the key, or nothing at all: from credit this
   * process already holds, else with a guarded database update. `ceiling` (the most the call can
   * cost) decides whether the account is rich enough to hold credit ahead.
   */
  reserve(payer: Payer, estimate: number, ceiling: number): MaybePromise<Reservation | ReserveRefusal> {
    // At least one unit, so that an account with nothing left is refused even for a call estimated
    // at zero (one-api refuses those too); settlement charges the exact price either way.
    const amount = Math.max(1, estimate);
    const useCredit = this.deps.mayUseCredit();
    const spent = useCredit ? this.deps.credit.take(payer, amount) : undefined;
    // From credit held already: answered at once, without a promise (the common case of a busy key).
    if (spent) {
      if (!this.#closing && spent.amount < amount * REFILL_BELOW_CALLS)
        this.#refill(payer, holdRequest(payer, amount, ceiling, true));
      return { payer, amount, holder: spent.holder };
    }
    return this.#reserveInDatabase(payer, amount, ceiling, useCredit);
  }

  async #reserveInDatabase(
    payer: Payer,
    amount: number,
    ceiling: number,
    useCredit: boolean,
  ): Promise<Reservation | ReserveRefusal> {
    const { ledger, lease, credit, askForCredit, giveBack } = this.deps;
    const deadline = performance.now() + this.deps.waitMs;
    const left = () => Math.max(0, deadline - performance.now());
    const request = holdRequest(payer, amount, ceiling, useCredit);
    let answer = await this.#holdWithin(request, left());
    // Refused: credit held unused, by this process or by others, may be what is missing.
    const own = answer.ok ? [] : credit.takeUser(payer.userId);
    if (own.length > 0) {
      // Retried until it lands; the call waits for it no longer than for a hold.
      await Promise.race([
        giveBack(own),
        new Promise((resolve) => setTimeout(resolve, Math.min(OWN_CREDIT_WAIT_MS, left())).unref()),
      ]);
      answer = await this.#holdWithin({ ...request, ahead: 0 }, left());
    }
    if (!answer.ok && askForCredit) {
      if ((await withinDeadline(ledger.heldByOthers(payer.userId, lease.id), left())) > 0) {
        askForCredit(payer.userId);
        for (const wait of CREDIT_ASK_WAITS_MS) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          answer = await this.#holdWithin({ ...request, ahead: 0 }, left());
          if (answer.ok) break;
        }
      }
    }
    if (!answer.ok) return answer.refusal;
    if (answer.taken > amount) {
      credit.add(payer, answer.holder, answer.taken - amount);
      this.#scheduleCreditReturns();
    }
    const reservation: Reservation = { payer, amount, holder: answer.holder };
    if (answer.spendable + amount < ceiling) reservation.limit = answer.spendable + amount;
    return reservation;
  }

  /** Holds `extra` more for a call in progress; false when the account cannot spend it. */
  async extend(reservation: Reservation, extra: number): Promise<boolean> {
    if (extra <= 0) return true;
    const request = { ...payerRef(reservation.payer), amount: extra, ahead: 0, richFloor: 0 };
    let answer: HoldAnswer;
    try {
      answer = await this.#holdWithin(request, this.deps.waitMs);
    } catch (error) {
      // The database does not answer: the stream ends as when the account has no more to give.
      if (error instanceof DatabaseDeadlineError) return false;
      throw error;
    }
    if (!answer.ok) return false;
    if (answer.holder !== reservation.holder) {
      // The lease changed meanwhile: the old hold was given back by a sweep; only the new one counts.
      reservation.holder = answer.holder;
      reservation.amount = 0;
    }
    reservation.amount += extra;
    return true;
  }

  /** Another process (or an administrator's edit) asks for the credit held for a user or a key. */
  async returnCredit(of: { userId: number } | { tokenId: number }): Promise<void> {
    const { credit } = this.deps;
    const due = 'userId' in of ? credit.takeUser(of.userId) : credit.takeToken(of.tokenId);
    await this.deps.giveBack(due);
  }

  /** Gives a reservation back whole: the call failed. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.closed) return;
    reservation.closed = true;
    await this.deps.giveBack([holdOf(reservation)]);
  }

  /**
   * Gives back the credit of payers idle for `idleMs`. With 0, all of it, once the credit being held
   * in the background has landed (else it would be kept after all).
   */
  async returnIdleCredit(idleMs: number): Promise<void> {
    if (idleMs === 0) await Promise.all(this.#refills.values());
    await this.deps.giveBack(this.deps.credit.takeIdle(idleMs));
  }

  /** Holds queued for the database or being written. */
  get queueDepth(): number {
    return this.#holds.depth;
  }

  /** Shutdown: no credit is held ahead any more, and idle credit is no longer given back on a timer. */
  stopCreditReturns(): void {
    this.#closing = true;
    clearInterval(this.#creditReturns);
  }

  /**
   * Holds a call's worth and what may be held ahead with it for the payer's credit, without a call
   * waiting for it. It is kept only if the payer still holds credit when it lands: credit taken back
   * meanwhile (idle, asked for by another process, an edit, a lost lease) was taken back on purpose,
   * and the new hold goes back too.
   */
  #refill(payer: Payer, request: HoldRequest): void {
    const key = keyOf(payer);
    if (this.#refills.has(key)) return;
    const { credit, onWriteFailed } = this.deps;
    const landed = this.#holdWithin(request, this.deps.waitMs)
      .then(async (answer) => {
        if (!answer.ok) return;
        if (credit.left(payer) === undefined) {
          await this.deps.giveBack([{ ...payerRef(payer), holder: answer.holder, amount: answer.taken }]);
          return;
        }
        credit.add(payer, answer.holder, answer.taken);
        this.#scheduleCreditReturns();
      })
      .catch((error) => {
        // A database that does not answer: the calls hold for themselves once the credit runs out.
        if (!(error instanceof DatabaseDeadlineError)) onWriteFailed(error);
      })
      .finally(() => this.#refills.delete(key));
    this.#refills.set(key, landed);
  }

  /** A hold within `ms`; one that lands after it (nobody waits for it any more) is given back. */
  #holdWithin(request: HoldRequest, ms: number): Promise<HoldAnswer> {
    return withinDeadline(this.#holds.add({ request }), ms, (late) => {
      if (!late.ok) return;
      const { userId, tokenId, unlimitedToken, budgetPeriod } = request;
      const hold = { holder: late.holder, userId, tokenId, unlimitedToken, budgetPeriod, amount: late.taken };
      this.deps.giveBack([hold]).catch(this.deps.onWriteFailed);
    });
  }

  async #hold(batch: HoldRequest[]): Promise<HoldAnswer[]> {
    const { lease } = this.deps;
    for (let attempt = 0; ; attempt++) {
      const holder = lease.id;
      try {
        const results = await this.deps.ledger.hold(holder, lease.until(), batch, nowSeconds());
        return results.map((result) => ({ ...result, holder }));
      } catch (error) {
        if (!(error instanceof LeaseLostError) || attempt > 0) throw error;
        await lease.replace();
      }
    }
  }

  #scheduleCreditReturns(): void {
    this.#creditReturns ??= setInterval(() => {
      this.returnIdleCredit(CREDIT_IDLE_MS).catch(this.deps.onWriteFailed);
      if (this.deps.credit.size === 0) {
        clearInterval(this.#creditReturns);
        this.#creditReturns = undefined;
      }
    }, CREDIT_IDLE_MS / 2).unref();
  }
}

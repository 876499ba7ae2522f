import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import { LogType } from '@switchyard/contract/roles';
import { nowSeconds } from '../clock';
import { GroupCommit } from '../db/group-commit';
import {
  type Hold,
  type HoldRefusal,
  type HoldRequest,
  type HoldResult,
  LeaseLostError,
  type PayerRef,
  type QuotaLedger,
  type Settlement,
} from '../db/ledger/ledger';
import type { NewLogRow } from '../db/schema';
import { HolderLease } from './holder-lease';
import type { OptionsStore } from './options';
import { ReservedCredit } from './reserved-credit';

export interface Price {
  modelRatio: number;
  groupRatio: number;
  completionRatio: number;
  /** modelRatio × groupRatio */
  ratio: number;
}

/** A price with its consumption-log texts, worked out once per model, group and channel type. */
interface QuotedPrice extends Price {
  text: { perToken: string; perUnit: string };
}

/** Distinct (model, group, channel type) prices kept at most; the cache starts over past it. */
const PRICE_CACHE_SIZE = 10_000;

export interface Payer {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  unlimitedToken: boolean;
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

export interface CallRecord {
  reservation: Reservation;
  price: QuotedPrice;
  model: string;
  channelId: number;
  promptTokens: number;
  completionTokens: number;
  /** Set for calls priced per unit (images, speech) instead of by tokens. */
  fixedQuota?: number;
  requestId: string;
  isStream: boolean;
  elapsedMs: number;
}

/** ceil((prompt + completion × completionRatio) × ratio), at least 1 when anything was used at a price. */
export function quotaFor(price: Price, promptTokens: number, completionTokens: number): number {
  if (promptTokens + completionTokens === 0) return 0;
  const quota = Math.ceil((promptTokens + completionTokens * price.completionRatio) * price.ratio);
  return price.ratio > 0 && quota <= 0 ? 1 : quota;
}

/**
 * A reservation that must go to the database holds up to this many calls' worth at once when the
 * account is rich, so the payer's next calls reserve from memory: at most half of what it can spend
 * above RICH_FLOOR_CALLS worst-case calls (see holdProgram).
 */
const RESERVE_AHEAD_CALLS = 64;
const RICH_FLOOR_CALLS = 4;
/** Unused credit goes back after this long without calls of its payer. */
const CREDIT_IDLE_MS = 2_000;
/** Waits between asks for credit other processes hold, before a call is refused. */
const CREDIT_ASK_WAITS_MS = [20, 60, 150, 300];
/** Completion tokens a call without max_tokens is assumed to produce at most, to size its ceiling. */
export const DEFAULT_COMPLETION_CEILING = 4_096;

const holdOf = (reservation: Reservation): Hold => ({
  holder: reservation.holder,
  userId: reservation.payer.userId,
  tokenId: reservation.payer.tokenId,
  unlimitedToken: reservation.payer.unlimitedToken,
  amount: reservation.amount,
});

interface HoldAsk {
  request: HoldRequest;
}
type HoldAnswer = HoldResult & { holder: string };

export interface PendingSettlements {
  calls: number;
  quota: number;
}

/**
 * Quota, the product's money: prices, holds before a call, settlement after it, refunds on failure.
 * Holds move only `held_quota`; a settlement charges the balance and releases the hold in one
 * transaction. See the README, "How money moves".
 */
export class Billing {
  readonly #settlements: GroupCommit<Settlement, number>;
  readonly #prices = new Map<string, QuotedPrice>();
  #pricedWith: object[] = [];
  readonly #holds: GroupCommit<HoldAsk, HoldAnswer>;
  readonly #credit = new ReservedCredit();
  readonly #lease: HolderLease;
  #creditReturns: NodeJS.Timeout | undefined;
  #batchSeq = 0;
  #batchHolder = '';

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      options: OptionsStore;
      /** How long a process's holds outlive it when it dies without giving them back. */
      leaseMs: number;
      /** Told after quota was charged to a user. */
      onQuotaSpent?: (userId: number, amount: number) => void;
      /** Told when a write failed (settlements are retried until they land). */
      onWriteFailed?: (error: unknown) => void;
      /** Asks other processes to give back the credit they hold for a user (needs Redis). */
      askForCredit?: (userId: number) => void;
    },
  ) {
    const onError = (error: unknown) => deps.onWriteFailed?.(error);
    this.#lease = new HolderLease({
      ledger: deps.ledger,
      leaseMs: deps.leaseMs,
      onLost: () => this.#credit.clear(),
      onError,
    });
    this.#settlements = new GroupCommit<Settlement, number>(
      (batch, attempt) => this.#settle(batch, attempt),
      {
        retryDelayMs: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
        onError,
      },
    );
    this.#holds = new GroupCommit((batch) => this.#hold(batch.map((ask) => ask.request)));
  }

  /** Takes this process's lease and gives back what dead processes held. */
  start(): Promise<void> {
    return this.#lease.start();
  }

  /** The price of a call, from the ratio options in force (cached until they change). */
  price(model: string, group: string, channelType: number): QuotedPrice {
    const { options } = this.deps;
    const tables = [
      options.ratios('ModelRatio'),
      options.ratios('GroupRatio'),
      options.ratios('CompletionRatio'),
    ];
    if (
      tables.some((table, index) => table !== this.#pricedWith[index]) ||
      this.#prices.size >= PRICE_CACHE_SIZE
    ) {
      this.#prices.clear();
      this.#pricedWith = tables;
    }
    const key = `${channelType}\u0000${group}\u0000${model}`;
    let price = this.#prices.get(key);
    if (!price) {
      const [modelRatios = {}, groupRatios = {}, completionRatios = {}] = tables;
      const modelRatio = resolveModelRatio(model, channelType, modelRatios);
      const groupRatio = groupRatios[group] ?? 1;
      const completionRatio = resolveCompletionRatio(model, channelType, completionRatios);
      const base = { modelRatio, groupRatio, completionRatio, ratio: modelRatio * groupRatio };
      price = { ...base, text: { perToken: describePrice(base, false), perUnit: describePrice(base, true) } };
      this.#prices.set(key, price);
    }
    return price;
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
   * Holds the estimate from the user and (when limited) the key, or nothing at all: from credit this
   * process already holds, else with a guarded database update. `ceiling` (the most the call can
   * cost) decides whether the account is rich enough to hold credit ahead.
   */
  async reserve(payer: Payer, estimate: number, ceiling: number): Promise<Reservation | ReserveRefusal> {
    // At least one unit, so that an account with nothing left is refused even for a call estimated
    // at zero (one-api refuses those too); settlement charges the exact price either way.
    const amount = Math.max(1, estimate);
    const holder = this.#credit.take(payer, amount);
    if (holder) return { payer, amount, holder };
    const ahead = amount * (RESERVE_AHEAD_CALLS - 1);
    const request = {
      ...payerRef(payer),
      amount,
      ahead,
      richFloor: Math.max(ceiling, amount) * RICH_FLOOR_CALLS,
    };
    let answer = await this.#holds.add({ request });
    // Refused: credit held unused, by this process or by others, may be what is missing.
    const own = answer.ok ? [] : this.#credit.takeUser(payer.userId);
    if (own.length > 0) {
      await this.deps.ledger.release(own);
      answer = await this.#holds.add({ request: { ...request, ahead: 0 } });
    }
    if (!answer.ok && this.deps.askForCredit) {
      if ((await this.deps.ledger.heldByOthers(payer.userId, this.#lease.id)) > 0) {
        this.deps.askForCredit(payer.userId);
        for (const wait of CREDIT_ASK_WAITS_MS) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          answer = await this.#holds.add({ request: { ...request, ahead: 0 } });
          if (answer.ok) break;
        }
      }
    }
    if (!answer.ok) return answer.refusal;
    if (answer.taken > amount) {
      this.#credit.add(payer, answer.holder, answer.taken - amount);
      this.#scheduleCreditReturns();
    }
    const reservation: Reservation = { payer, amount, holder: answer.holder };
    if (answer.spendable + amount < ceiling) reservation.limit = answer.spendable + amount;
    return reservation;
  }

  /** Holds `extra` more for a call in progress; false when the account cannot spend it. */
  async extend(reservation: Reservation, extra: number): Promise<boolean> {
    if (extra <= 0) return true;
    const answer = await this.#holds.add({
      request: { ...payerRef(reservation.payer), amount: extra, ahead: 0, richFloor: 0 },
    });
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
    const due = 'userId' in of ? this.#credit.takeUser(of.userId) : this.#credit.takeToken(of.tokenId);
    await this.deps.ledger.release(due);
  }

  async #hold(batch: HoldRequest[]): Promise<HoldAnswer[]> {
    for (let attempt = 0; ; attempt++) {
      const holder = this.#lease.id;
      try {
        const results = await this.deps.ledger.hold(holder, this.#lease.until(), batch, nowSeconds());
        return results.map((result) => ({ ...result, holder }));
      } catch (error) {
        if (!(error instanceof LeaseLostError) || attempt > 0) throw error;
        await this.#lease.replace();
      }
    }
  }

  /** Gives back the credit of payers idle for `idleMs` (all of it with 0). */
  async #returnCredit(idleMs: number): Promise<void> {
    await this.deps.ledger.release(this.#credit.takeIdle(idleMs));
  }

  #scheduleCreditReturns(): void {
    this.#creditReturns ??= setInterval(() => {
      this.#returnCredit(CREDIT_IDLE_MS).catch((error: unknown) => this.deps.onWriteFailed?.(error));
      if (this.#credit.size === 0) {
        clearInterval(this.#creditReturns);
        this.#creditReturns = undefined;
      }
    }, CREDIT_IDLE_MS / 2).unref();
  }

  /** Gives a reservation back whole: the call failed. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.closed) return;
    reservation.closed = true;
    await this.deps.ledger.release([holdOf(reservation)]);
  }

  /**
   * Charges what the call really cost against its hold, counts it and logs it. Calls settled together
   * are committed together (one transaction); a batch that fails is retried, in order, until it lands.
   * Resolves with the quota charged once it is committed.
   */
  settle(call: CallRecord): Promise<number> {
    const { payer } = call.reservation;
    if (call.reservation.closed) throw new Error('a reservation is settled or refunded once');
    call.reservation.closed = true;
    const quota = call.fixedQuota ?? quotaFor(call.price, call.promptTokens, call.completionTokens);
    const log: NewLogRow | undefined = this.deps.options.bool('LogConsumeEnabled')
      ? {
          user_id: payer.userId,
          created_at: nowSeconds(),
          type: LogType.consume,
          content: call.fixedQuota === undefined ? call.price.text.perToken : call.price.text.perUnit,
          username: payer.username,
          token_name: payer.tokenName,
          model_name: call.model,
          quota,
          prompt_tokens: call.promptTokens,
          completion_tokens: call.completionTokens,
          channel_id: call.channelId,
          request_id: call.requestId,
          elapsed_time: call.elapsedMs,
          is_stream: call.isStream,
          system_prompt_reset: false,
        }
      : undefined;
    return this.#settlements.add({
      ...holdOf(call.reservation),
      channelId: call.channelId,
      cost: quota,
      elapsedMs: call.elapsedMs,
      log,
    });
  }

  async #settle(batch: Settlement[], attempt: number): Promise<number[]> {
    if (attempt === 0) {
      this.#batchSeq += 1;
      this.#batchHolder = this.#lease.id;
    }
    const charges = await this.deps.ledger.settle(
      this.#batchHolder,
      this.#batchSeq,
      batch,
      nowSeconds(),
      attempt > 0,
    );
    for (const [index, { userId }] of batch.entries()) {
      const charge = charges[index] ?? 0;
      if (charge > 0) this.deps.onQuotaSpent?.(userId, charge);
    }
    return charges;
  }

  /** Settled calls not yet written (a database outage), with what they are worth. */
  pending(): PendingSettlements {
    const pending = this.#settlements.pending;
    return { calls: pending.length, quota: pending.reduce((sum, call) => sum + call.cost, 0) };
  }

  /** Resolves once every call settled so far is written and unused credit is given back (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#returnCredit(0);
    await this.#settlements.drained();
  }

  /**
   * Shutdown: writes what is settled and gives credit back, waiting at most `waitMs` for the
   * database; answers what could not be written by then.
   */
  async close(waitMs: number): Promise<PendingSettlements> {
    clearInterval(this.#creditReturns);
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

const payerRef = (payer: Payer): PayerRef => ({
  userId: payer.userId,
  tokenId: payer.tokenId,
  unlimitedToken: payer.unlimitedToken,
});

export function describePrice(price: Price, perUnit: boolean): string {
  const parts = [`model ratio ${price.modelRatio.toFixed(2)}`, `group ratio ${price.groupRatio.toFixed(2)}`];
  if (!perUnit) parts.push(`completion ratio ${price.completionRatio.toFixed(2)}`);
  return parts.join(' × ');
}

import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import { LogType } from '@switchyard/contract/roles';
import { GroupCommit } from '../db/group-commit';
import type { Debit, DebitResult, QuotaLedger } from '../db/ledger/ledger';
import type { Settlement } from '../db/ledger/settlements';
import type { NewLogRow } from '../db/schema';
import type { OptionsStore } from './options';
import { nowSeconds } from './random';
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
  amount: number;
}

export type ReserveRefusal = Exclude<DebitResult, 'ok'>;

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
 * How long a settled call may wait to be written with others. The reservation is already committed,
 * so waiting never lets a call spend what is not there; a process that crashes loses at most this
 * long of settlements (each caller keeps paying its reservation, not the final price).
 */
const SETTLEMENT_LINGER_MS = 20;

/**
 * A reservation that must go to the database takes this many calls' worth at once (when the account
 * has it), so the payer's next calls reserve from memory. What is not used goes back after
 * CREDIT_IDLE_MS without calls; a crash keeps at most this less one call's worth per active payer.
 */
const RESERVE_AHEAD_CALLS = 4;
const CREDIT_IDLE_MS = 2_000;

const debitOf = ({ payer, amount }: Reservation): Debit => ({
  userId: payer.userId,
  tokenId: payer.tokenId,
  unlimitedToken: payer.unlimitedToken,
  amount,
});

/**
 * Quota, the product's money: prices, reservations before a call, settlement after it, refunds on
 * failure. Every change is a single relative SQL update; reservations are guarded (`quota >= n`).
 */
export class Billing {
  readonly #settlements: GroupCommit<Settlement>;
  readonly #prices = new Map<string, QuotedPrice>();
  #pricedWith: object[] = [];
  readonly #reservations: GroupCommit<Debit, DebitResult>;
  readonly #credit = new ReservedCredit();
  #creditReturns: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      options: OptionsStore;
      /** Told after quota was taken from a user (a reservation, or a settlement costing more). */
      onQuotaSpent?: (userId: number, amount: number) => void;
      /** Told when a background write (settled calls, unused credit) failed; it is not retried. */
      onWriteFailed?: (error: unknown) => void;
    },
  ) {
    this.#settlements = new GroupCommit<Settlement>(
      async (batch) => {
        await deps.ledger.settle(batch, nowSeconds());
        for (const { userId, delta } of batch) if (delta > 0) deps.onQuotaSpent?.(userId, delta);
        return [];
      },
      { lingerMs: SETTLEMENT_LINGER_MS, onError: deps.onWriteFailed },
    );
    this.#reservations = new GroupCommit((batch) => deps.ledger.debit(batch, nowSeconds()));
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

  /**
   * Takes the estimate from the user and (when limited) the token, or nothing at all. Reservations
   * arriving together share one transaction; each keeps its own guard.
   */
  async reserve(payer: Payer, amount: number): Promise<Reservation | ReserveRefusal> {
    // At least one unit, so that an account with nothing left is refused even for a call estimated
    // at zero (one-api refuses those too); settlement charges the exact price either way.
    const reservation = { payer, amount: Math.max(1, amount) };
    const debit = debitOf(reservation);
    if (this.#credit.take(debit, debit.amount)) return reservation;
    const ahead = debit.amount * RESERVE_AHEAD_CALLS;
    if ((await this.#reservations.add({ ...debit, amount: ahead })) === 'ok') {
      this.#credit.add(debit, ahead - debit.amount);
      this.#scheduleCreditReturns();
      this.deps.onQuotaSpent?.(payer.userId, ahead);
      return reservation;
    }
    // Not enough for several calls: this one alone, if the account covers it.
    const result = await this.#reservations.add(debit);
    if (result !== 'ok') return result;
    this.deps.onQuotaSpent?.(payer.userId, debit.amount);
    return reservation;
  }

  /** Gives back the credit of payers idle for `idleMs` (all of it with 0). */
  async #returnCredit(idleMs: number): Promise<void> {
    const due = this.#credit.takeIdle(idleMs);
    if (due.length > 0) await this.deps.ledger.credit(due);
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
    if (reservation.amount <= 0) return;
    await this.deps.ledger.credit([debitOf(reservation)]);
  }

  /**
   * Charges what the call really cost against its reservation, counts it and logs it. Calls settled
   * together are committed together (one transaction), so a busy gateway writes little; `settled`
   * says when they are written. Answers the call's final quota.
   */
  settle(call: CallRecord): number {
    const { payer, amount: reserved } = call.reservation;
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
    this.#settlements.enqueue({
      userId: payer.userId,
      tokenId: payer.tokenId,
      unlimitedToken: payer.unlimitedToken,
      channelId: call.channelId,
      quota,
      delta: quota - reserved,
      elapsedMs: call.elapsedMs,
      log,
    });
    return quota;
  }

  /** Resolves once every call settled so far is written and unused credit is given back (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#returnCredit(0);
    await this.#settlements.drained();
  }
}

export function describePrice(price: Price, perUnit: boolean): string {
  const parts = [`model ratio ${price.modelRatio.toFixed(2)}`, `group ratio ${price.groupRatio.toFixed(2)}`];
  if (!perUnit) parts.push(`completion ratio ${price.completionRatio.toFixed(2)}`);
  return parts.join(' × ');
}

import type { MaybePromise } from '../../maybe-promise';
import type { NewLogRow } from '../schema';

/**
 * Who pays a call: a user and one of their keys (whose quota counts only when it is limited, and
 * whose periodic budget counts when it has one). A key with either carries the hold in its `held_quota`.
 */
export interface PayerRef {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  /** The key's budget period as the caller knew it (a budget set meanwhile is found by the careful settlement). */
  budgetPeriod?: string;
}

/**
 * A request to hold quota: `amount` at least, and up to `ahead` more when the account is rich: at
 * most half of what stays spendable above `richFloor`, and not less than `amount`.
 */
export interface HoldRequest extends PayerRef {
  amount: number;
  ahead: number;
  /** Spendable balance that holding ahead never goes into. */
  richFloor: number;
}

export type HoldRefusal = 'user-quota' | 'token-quota' | 'token-budget';

export type HoldResult =
  | {
      ok: true;
      /** amount, plus ahead when it was taken. */
      taken: number;
      /** What the account (user, and limited key) can still spend after this hold. */
      spendable: number;
    }
  | { ok: false; refusal: HoldRefusal };

/** Quota held by one holder for one payer, to give back or to settle against. */
export interface Hold extends PayerRef {
  holder: string;
  amount: number;
}

export interface Settlement extends Hold {
  /**
   * Only gives the hold back (credit not spent, a failed call): nothing is charged, counted or
   * logged. Written in the settlements' batches, so that it is retried until it lands, once.
   */
  giveBack?: true;
  channelId: number;
  /** What the call cost. It is charged whole when the account can pay it, else what is left. */
  cost: number;
  elapsedMs: number;
  log: NewLogRow | undefined;
}

/** The holder's lease is gone (it was presumed dead and its holds given back): take a new one. */
export class LeaseLostError extends Error {
  constructor(holder: string) {
    super(`quota holder ${holder} lost its lease`);
  }
}

/**
 * The quota movements of relayed calls, the only writes on the relay's hot path. Each method is one
 * transaction. Holds move only `held_quota` (and the holder's hold rows); a settlement charges the
 * cost to `quota`/`remain_quota` and releases the hold in the same statement, so a balance an
 * administrator sets is never undone by quota coming back, and `quota + used_quota` only changes
 * through top-ups and edits.
 */
export interface QuotaLedger {
  /** Starts a holder's lease (a process, or the same process after losing its lease). */
  register(holder: string, expiresAtMs: number): Promise<void>;
  /** Extends the lease; false when it was lost. */
  renew(holder: string, expiresAtMs: number): Promise<boolean>;
  /** Guarded holds, one answer each. Throws LeaseLostError when the holder's lease is gone. */
  hold(holder: string, leaseUntilMs: number, batch: HoldRequest[], now: number): Promise<HoldResult[]>;
  /**
   * Charges settled calls and writes their logs, and gives back the holds marked `giveBack` (a hold
   * a sweep already gave back is skipped). `seq` numbers the holder's batches: a batch retried
   * after an error whose commit is unknown (`retry`) is applied only if it was not. Answers what each
   * call was charged (its cost, or less when the account could not pay it all): at once where the
   * database answered synchronously (a failure then thrown), else as a promise.
   */
  settle(
    holder: string,
    seq: number,
    batch: Settlement[],
    now: number,
    retry?: boolean,
  ): MaybePromise<number[]>;
  /**
   * Gives back the holds of holders other than `self` whose lease ran out before `nowMs`; answers how
   * many holders. A live process never sweeps its own lease: a renewal the database answered late
   * may have set an expiry already past, and its holds are still its calls' (they settle them).
   */
  sweep(nowMs: number, self: string): Promise<number>;
  /** Quota held for a user by holders other than `holder` (in flight or spare). */
  heldByOthers(userId: number, holder: string): Promise<number>;
  /**
   * How many logs this process has written without their summaries, for a fold to add
   * (log-summaries/fold.ts); always 0 where the summaries commit with the logs.
   */
  readonly logsLeftToFold: number;
}

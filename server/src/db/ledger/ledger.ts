import type { Settlement } from './settlements';

/** One all-or-nothing debit of a call's reservation: from the user and, when limited, the token. */
export interface Debit {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  amount: number;
}

export type DebitResult = 'ok' | 'user-quota' | 'token-quota';

/**
 * The quota movements of relayed calls, the only writes on the relay's hot path. Each method is one
 * transaction; every change is relative, and debits are guarded (`quota >= n`) so concurrent calls,
 * in this process or another, can never spend the same quota twice.
 */
export interface QuotaLedger {
  /** Answers, per debit, whether it was taken (nothing is taken from a refused one). */
  debit(batch: Debit[], now: number): Promise<DebitResult[]>;
  /** Gives debits back whole (failed calls). */
  credit(batch: Debit[]): Promise<void>;
  /** Writes settled calls: one update per user, token and channel, and their consumption logs. */
  settle(batch: Settlement[], now: number): Promise<void>;
}

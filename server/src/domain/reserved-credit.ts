import type { Debit } from '../db/ledger/ledger';

interface Credit {
  /** Who it was taken from: the user, and the token unless it is unlimited. */
  from: Omit<Debit, 'amount'>;
  amount: number;
  lastUsedMs: number;
}

/**
 * Quota already taken from the database for a payer's coming calls, kept in this process's memory
 * so that most calls reserve without a database round trip. Nothing here can be spent twice or
 * overdraw an account: every unit was taken first by a guarded update. Unused credit goes back to
 * the database once the payer is idle, at shutdown, and whenever `takeAll` is asked.
 */
export class ReservedCredit {
  readonly #credits = new Map<string, Credit>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Spends `amount` from the payer's credit; false when there is not that much. */
  take(payer: Omit<Debit, 'amount'>, amount: number): boolean {
    const credit = this.#credits.get(keyOf(payer));
    if (!credit || credit.amount < amount) return false;
    credit.amount -= amount;
    credit.lastUsedMs = this.clock();
    return true;
  }

  /** Keeps quota taken from the database for the payer's next calls. */
  add(payer: Omit<Debit, 'amount'>, amount: number): void {
    if (amount <= 0) return;
    const key = keyOf(payer);
    const credit = this.#credits.get(key);
    if (credit) {
      credit.amount += amount;
      credit.lastUsedMs = this.clock();
    } else {
      this.#credits.set(key, { from: payer, amount, lastUsedMs: this.clock() });
    }
  }

  /** Removes and answers the credit of payers idle for `idleMs` (all of it with 0), to give back. */
  takeIdle(idleMs: number): Debit[] {
    const now = this.clock();
    const due: Debit[] = [];
    for (const [key, credit] of this.#credits) {
      if (now - credit.lastUsedMs < idleMs) continue;
      this.#credits.delete(key);
      if (credit.amount > 0) due.push({ ...credit.from, amount: credit.amount });
    }
    return due;
  }

  get size(): number {
    return this.#credits.size;
  }
}

const keyOf = (payer: Omit<Debit, 'amount'>) => `${payer.userId}:${payer.tokenId}`;

import type { Hold, PayerRef } from '../../db/ledger/ledger';

interface Credit {
  hold: Hold;
  lastUsedMs: number;
}

/**
 * Quota held in the database for a payer's coming calls, spent from this process's memory so that
 * most calls reserve without a database round trip. Nothing here can be spent twice or overdraw an
 * account: every unit was held first by a guarded update. Unused credit goes back once the payer is
 * idle, when another process needs it, when an administrator edits the account, and at shutdown.
 */
export class ReservedCredit {
  readonly #credits = new Map<string, Credit>();

  constructor(private readonly clock: () => number = Date.now) {}

  /**
   * Spends `amount` of the payer's credit; answers the hold it is spent from (its holder, and what is
   * left in its amount), or undefined.
   */
  take(payer: PayerRef, amount: number): Readonly<Hold> | undefined {
    const credit = this.#credits.get(keyOf(payer));
    if (!credit || credit.hold.amount < amount) return undefined;
    credit.hold.amount -= amount;
    credit.lastUsedMs = this.clock();
    return credit.hold;
  }

  /**
   * What is left of the payer's credit; undefined when it holds none: none was added, or it was
   * taken back since (idle, asked for, an edit, a lost lease).
   */
  left(payer: PayerRef): number | undefined {
    return this.#credits.get(keyOf(payer))?.hold.amount;
  }

  /** Keeps quota held under `holder` for the payer's next calls. */
  add(payer: PayerRef, holder: string, amount: number): void {
    if (amount <= 0) return;
    const key = keyOf(payer);
    const credit = this.#credits.get(key);
    if (credit && credit.hold.holder === holder) {
      credit.hold.amount += amount;
      credit.lastUsedMs = this.clock();
      return;
    }
    if (credit) this.#orphans.push(credit.hold);
    this.#credits.set(key, {
      hold: {
        holder,
        userId: payer.userId,
        tokenId: payer.tokenId,
        unlimitedToken: payer.unlimitedToken,
        budgetPeriod: payer.budgetPeriod,
        amount,
      },
      lastUsedMs: this.clock(),
    });
  }

  /** Credit replaced by credit of a newer holder, waiting to be given back. */
  #orphans: Hold[] = [];

  /** Removes and answers the credit matching `due` (idle ones, a user's, a key's), to give back. */
  #takeWhere(due: (credit: Credit) => boolean): Hold[] {
    const taken = this.#orphans.splice(0);
    for (const [key, credit] of this.#credits) {
      if (!due(credit)) continue;
      this.#credits.delete(key);
      if (credit.hold.amount > 0) taken.push(credit.hold);
    }
    return taken;
  }

  /** The credit of payers idle for `idleMs` (all of it with 0). */
  takeIdle(idleMs: number): Hold[] {
    const now = this.clock();
    return this.#takeWhere((credit) => now - credit.lastUsedMs >= idleMs);
  }

  takeUser(userId: number): Hold[] {
    return this.#takeWhere((credit) => credit.hold.userId === userId);
  }

  takeToken(tokenId: number): Hold[] {
    return this.#takeWhere((credit) => credit.hold.tokenId === tokenId);
  }

  /** Forgets everything: the holds were given back by someone else (a lost lease). */
  clear(): void {
    this.#credits.clear();
    this.#orphans = [];
  }

  /** What is held ahead now: for how many payers, and how much (metrics). */
  held(): { payers: number; quota: number } {
    let quota = 0;
    for (const credit of this.#credits.values()) quota += credit.hold.amount;
    for (const hold of this.#orphans) quota += hold.amount;
    return { payers: this.#credits.size, quota };
  }

  get size(): number {
    return this.#credits.size + this.#orphans.length;
  }
}

export const keyOf = (payer: PayerRef) =>
  `${payer.userId}:${payer.tokenId}:${payer.unlimitedToken ? 1 : 0}:${payer.budgetPeriod ?? ''}`;

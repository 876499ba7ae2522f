import type { MaybePromise } from '../../maybe-promise';
import type { HoldRequest, HoldResult, QuotaLedger, Settlement } from './ledger';
import {
  heldByOthersProgram,
  holdProgram,
  NeedsCarefulSettlement,
  type Program,
  registerProgram,
  renewProgram,
  settleCarefulProgram,
  settledAlreadyProgram,
  settleFastProgram,
  sweepProgram,
} from './programs';

/** Holders released this long ago are forgotten (their settled batch numbers are kept until then). */
const KEEP_RELEASED_HOLDERS_MS = 24 * 60 * 60 * 1000;

/** The ledger's operations, each one program run as one transaction by the database's driver. */
export abstract class ProgramLedger implements QuotaLedger {
  /**
   * The last batch this process committed, kept where a COMMIT's outcome is always known to the
   * process that ran it (`commitOutcomeKnown`): a retried batch is looked up here, not in the database.
   */
  #lastSettled: { holder: string; seq: number; charges: number[] } = { holder: '', seq: 0, charges: [] };

  /**
   * @param commitOutcomeKnown A failed transaction never committed (the embedded database: its COMMIT
   * either returns or throws with the transaction undone). Over a network a COMMIT's answer can be
   * lost after it landed, so each batch marks its number in the database in the same transaction.
   */
  constructor(private readonly commitOutcomeKnown = false) {}

  get logsLeftToFold(): number {
    return 0;
  }

  /**
   * Runs the program as one transaction: all of its statements land, or none (it threw). Where
   * `commitOutcomeKnown`, `committed` is called with the program's value as soon as the COMMIT
   * returns, in the same turn, so that nothing can fail between the two.
   */
  protected abstract execute<T>(program: () => Program<T>, committed?: (value: T) => void): Promise<T>;

  /**
   * `execute`, answered at once where the database runs the program synchronously and is free: its
   * value returned, its failure thrown. A settlement takes this way: no promise for what is done already.
   */
  protected executeNow<T>(program: () => Program<T>, committed?: (value: T) => void): MaybePromise<T> {
    return this.execute(program, committed);
  }

  register(holder: string, expiresAtMs: number): Promise<void> {
    return this.execute(() => registerProgram(holder, expiresAtMs));
  }

  renew(holder: string, expiresAtMs: number): Promise<boolean> {
    return this.execute(() => renewProgram(holder, expiresAtMs));
  }

  hold(holder: string, leaseUntilMs: number, batch: HoldRequest[], now: number): Promise<HoldResult[]> {
    return this.execute(() => holdProgram(holder, leaseUntilMs, batch, now));
  }

  settle(
    holder: string,
    seq: number,
    batch: Settlement[],
    now: number,
    retry = false,
  ): MaybePromise<number[]> {
    if (retry) return this.#settleRetried(holder, seq, batch, now);
    // The batch's number: in the settlement's own transaction, or kept here once it commits.
    const mark = this.commitOutcomeKnown ? undefined : seq;
    const committed = this.commitOutcomeKnown
      ? (charges: number[]) => {
          this.#lastSettled = { holder, seq, charges };
        }
      : undefined;
    const careful = (error: unknown) => {
      if (!(error instanceof NeedsCarefulSettlement)) throw error;
      return this.execute(() => settleCarefulProgram(holder, mark, batch, now), committed);
    };
    let fast: MaybePromise<number[]>;
    try {
      fast = this.executeNow(() => settleFastProgram(holder, mark, batch, now), committed);
    } catch (error) {
      return careful(error);
    }
    return fast instanceof Promise ? fast.catch(careful) : fast;
  }

  async #settleRetried(holder: string, seq: number, batch: Settlement[], now: number): Promise<number[]> {
    const charged = await this.#settledAlready(holder, seq, batch);
    return charged ?? this.settle(holder, seq, batch, now);
  }

  /**
   * What a batch numbered `seq` was charged when it was committed already (a retry after an unknown
   * outcome): as committed where this process kept it (a holder's batches land in order, each retried
   * until it does, so only the last can be); else its costs (the database keeps only its number).
   */
  async #settledAlready(holder: string, seq: number, batch: Settlement[]): Promise<number[] | undefined> {
    if (this.commitOutcomeKnown) {
      const last = this.#lastSettled;
      return last.holder === holder && last.seq === seq ? last.charges : undefined;
    }
    if (!(await this.execute(() => settledAlreadyProgram(holder, seq)))) return undefined;
    return batch.map((call) => (call.giveBack ? 0 : call.cost));
  }

  sweep(nowMs: number, self: string): Promise<number> {
    return this.execute(() => sweepProgram(nowMs, nowMs - KEEP_RELEASED_HOLDERS_MS, self));
  }

  heldByOthers(userId: number, holder: string): Promise<number> {
    return this.execute(() => heldByOthersProgram(userId, holder));
  }
}

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
  /** Runs the program as one transaction: all of its statements land, or none (it threw). */
  protected abstract execute<T>(program: () => Program<T>): Promise<T>;

  register(holder: string, expiresAtMs: number): Promise<void> {
    return this.execute(() => registerProgram(holder, expiresAtMs));
  }

  renew(holder: string, expiresAtMs: number): Promise<boolean> {
    return this.execute(() => renewProgram(holder, expiresAtMs));
  }

  hold(holder: string, leaseUntilMs: number, batch: HoldRequest[], now: number): Promise<HoldResult[]> {
    return this.execute(() => holdProgram(holder, leaseUntilMs, batch, now));
  }

  async settle(
    holder: string,
    seq: number,
    batch: Settlement[],
    now: number,
    retry = false,
  ): Promise<number[]> {
    if (retry && (await this.execute(() => settledAlreadyProgram(holder, seq)))) {
      return batch.map((call) => (call.giveBack ? 0 : call.cost));
    }
    try {
      return await this.execute(() => settleFastProgram(holder, seq, batch, now));
    } catch (error) {
      if (!(error instanceof NeedsCarefulSettlement)) throw error;
      return this.execute(() => settleCarefulProgram(holder, seq, batch, now));
    }
  }

  sweep(nowMs: number, self: string): Promise<number> {
    return this.execute(() => sweepProgram(nowMs, nowMs - KEEP_RELEASED_HOLDERS_MS, self));
  }

  heldByOthers(userId: number, holder: string): Promise<number> {
    return this.execute(() => heldByOthersProgram(userId, holder));
  }
}

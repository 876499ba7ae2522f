import { LogType } from '@switchyard/contract/roles';
import { nowSeconds } from '../../clock';
import { GroupCommit } from '../../db/group-commit';
import type { Hold, QuotaLedger, Settlement } from '../../db/ledger/ledger';
import type { NewLogRow } from '../../db/schema';
import { type MaybePromise, whenReady } from '../../maybe-promise';
import type { OptionsStore } from '../options';
import type { HolderLease } from './holder-lease';
import { consumeFacts, type PicturesBilled, perUnitFacts, type QuotedPrice, quotaFor } from './prices';
import { holdOf, type Reservation } from './reservations';
import type { TokenUsage } from './token-usage';

export interface CallRecord {
  reservation: Reservation;
  price: QuotedPrice;
  model: string;
  channelId: number;
  /** The tokens billed, with the parts the provider reported. */
  usage: TokenUsage;
  /** Set for calls priced per unit (images, speech) instead of by tokens. */
  fixedQuota?: number;
  /** Pictures priced per unit: how many, at which size and quality (the log says so). */
  images?: PicturesBilled;
  requestId: string;
  isStream: boolean;
  elapsedMs: number;
}

export interface PendingSettlements {
  calls: number;
  quota: number;
}

/** Settlement after a call: charged against its hold, counted and logged, committed in batches. */
export class Settlements {
  readonly #settlements: GroupCommit<Settlement, number>;
  #batchSeq = 0;
  #batchHolder = '';
  /** Settled calls whose settlement is not written yet. */
  #unwritten = 0;

  constructor(
    private readonly deps: {
      ledger: QuotaLedger;
      lease: HolderLease;
      options: OptionsStore;
      /** Told after quota was charged to a user (in the batch's turn: it must not throw). */
      onQuotaSpent?: (userId: number, amount: number) => void;
      /** Told of each call settled, with the quota it is charged (metrics), before it is written. */
      onSettled?: (call: CallRecord, quota: number) => void;
      onWriteFailed: (error: unknown) => void;
    },
  ) {
    this.#settlements = new GroupCommit<Settlement, number>(
      (batch, attempt) => this.#settle(batch, attempt),
      {
        retryDelayMs: (attempt) => Math.min(50 * 2 ** attempt, 1_000),
        onError: deps.onWriteFailed,
      },
    );
  }

  /**
   * Charges what the call really cost against its hold, counts it and logs it. Calls settled together
   * are committed together (one transaction); a batch that fails is retried, in order, until it lands.
   * Resolves with the quota charged once it is committed.
   */
  settle(call: CallRecord): Promise<number> {
    if (call.reservation.closed) throw new Error('a reservation is settled or refunded once');
    call.reservation.closed = true;
    const quota = call.fixedQuota ?? quotaFor(call.price, call.usage);
    this.deps.onSettled?.(call, quota);
    const log = this.consumeLog(call, quota);
    this.#unwritten += 1;
    // Retried until it lands: it never rejects.
    return this.#settlements.add({
      ...holdOf(call.reservation),
      channelId: call.channelId,
      cost: quota,
      elapsedMs: call.elapsedMs,
      log,
    });
  }

  /** The consumption log of a call charged `quota` (none when LogConsumeEnabled is off). */
  consumeLog(call: CallRecord, quota: number): NewLogRow | undefined {
    const { payer } = call.reservation;
    const perUnit = call.fixedQuota !== undefined;
    if (!this.deps.options.bool('LogConsumeEnabled')) return undefined;
    return {
      user_id: payer.userId,
      created_at: nowSeconds(),
      type: LogType.consume,
      content: perUnit ? call.price.text.perUnit : call.price.text.perToken,
      facts: perUnit ? perUnitFacts(call.price, call.images) : consumeFacts(call.price, call.usage),
      username: payer.username,
      token_name: payer.tokenName,
      model_name: call.model,
      quota,
      prompt_tokens: call.usage.prompt_tokens,
      completion_tokens: call.usage.completion_tokens,
      channel_id: call.channelId,
      request_id: call.requestId,
      elapsed_time: call.elapsedMs,
      is_stream: call.isStream,
      system_prompt_reset: false,
    };
  }

  /** A call charged in a transaction of its own (a video job) was committed: told as a settlement is. */
  chargedElsewhere(call: CallRecord, quota: number): void {
    this.deps.onSettled?.(call, quota);
    if (quota > 0) this.deps.onQuotaSpent?.(call.reservation.payer.userId, quota);
  }

  /** Settled calls not written yet (cheap: checked before each call). */
  get unwritten(): number {
    return this.#unwritten;
  }

  /**
   * Gives holds back (unused credit, failed calls) in the settlements' batches: retried, in order,
   * until they land, and once (a batch's number makes a retry after a lost answer a no-op). A hold
   * a sweep gave back meanwhile is skipped. Resolves once they are written.
   */
  async giveBack(holds: Hold[]): Promise<void> {
    await Promise.all(
      holds.map((hold) =>
        this.#settlements.add({
          ...hold,
          giveBack: true,
          channelId: 0,
          cost: 0,
          elapsedMs: 0,
          log: undefined,
        }),
      ),
    );
  }

  /** Settled calls not yet written (a database outage), with what they are worth. */
  pending(): PendingSettlements {
    const pending = this.#settlements.pending.filter((call) => !call.giveBack);
    return { calls: pending.length, quota: pending.reduce((sum, call) => sum + call.cost, 0) };
  }

  /** Settlements queued for the database or being written. */
  get queueDepth(): number {
    return this.#settlements.depth;
  }

  /** Resolves once every call settled so far is written. */
  drained(): Promise<void> {
    return this.#settlements.drained();
  }

  /** A batch once: its calls are written when the ledger answers (a failed batch is tried again). */
  #settle(batch: Settlement[], attempt: number): MaybePromise<number[]> {
    if (attempt === 0) {
      this.#batchSeq += 1;
      this.#batchHolder = this.deps.lease.id;
    }
    return whenReady(
      this.deps.ledger.settle(this.#batchHolder, this.#batchSeq, batch, nowSeconds(), attempt > 0),
      (charges) => {
        for (let index = 0; index < batch.length; index++) {
          const call = batch[index] as Settlement;
          if (call.giveBack) continue;
          this.#unwritten -= 1;
          const charge = charges[index] ?? 0;
          if (charge > 0) this.deps.onQuotaSpent?.(call.userId, charge);
        }
        return charges;
      },
    );
  }
}

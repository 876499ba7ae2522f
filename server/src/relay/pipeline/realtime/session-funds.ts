import type { ChannelRow } from '../../../db/schema';
import { type Price, quotaFor, type Reservation } from '../../../domain/billing';
import type { OptionsStore } from '../../../domain/options';
import type { Usage } from '../../adaptors/types';
import { asRelayError, RelayError } from '../../errors';
import type { RelayCaller } from '../authenticate';
import { holdFor, quotaRefused, type ReserveDeps, refund } from '../reserve';
import { SETTLEMENT_WAIT_MS } from '../settle';
import { waitAtMost } from '../wait-at-most';

/**
 * Output tokens a session's hold covers besides its input allowance, at the dearest output rate; also
 * the most a response may write (`max_output_tokens` sent upstream, see RealtimeSession). It is the
 * largest number OpenAI takes there (1 to 4,096, else `inf`, the model's own most), so a response of an
 * account that can hold it is not cut shorter than the provider would cut it.
 */
export const SESSION_HOLD_OUTPUT_TOKENS = 4_096;

export interface SessionFundsDeps extends ReserveDeps {
  options: OptionsStore;
}

/** What a session is: whose, which model at which price, on which channel, under which request id. */
export interface SessionBill {
  caller: RelayCaller;
  model: string;
  group: string;
  channel: ChannelRow;
  requestId: string;
}

const sessionOver = () => RelayError.gateway(409, 'The realtime session has ended', 'session_closed');

/**
 * A session's hold: (PreConsumedQuota + SESSION_HOLD_OUTPUT_TOKENS × the output rate, audio's when
 * it has its own) × ratio, at least 1.
 */
export function sessionHoldOf(price: Price, preConsumed: number): number {
  const outputRate = Math.max(price.completionRatio, price.audio?.output ?? 0);
  return Math.max(1, Math.ceil((preConsumed + SESSION_HOLD_OUTPUT_TOKENS * outputRate) * price.ratio));
}

/**
 * The hold for the responses after one that reported `usage`: as the first, its input allowance
 * grown by the conversation the next response reads again (that response's input and output), at
 * the dearest input rate.
 */
function nextHoldOf(price: Price, preConsumed: number, usage: Usage): number {
  const inputRate = Math.max(1, price.audio?.input ?? 0);
  const context = (usage.prompt_tokens + usage.completion_tokens) * inputRate;
  return sessionHoldOf(price, preConsumed + context);
}

/**
 * The money of one realtime session: a hold while it is open; each response the provider reports done
 * is settled (its usage, one log) against it and the hold is taken again for what comes next. When it
 * cannot be taken again the account can no longer pay: the session must end. At the end the hold
 * goes back. Settlements and renewals run one at a time, in the order the responses ended.
 */
export class SessionFunds {
  #reservation: Reservation | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly deps: SessionFundsDeps,
    private readonly bill: SessionBill,
    reservation: Reservation,
  ) {
    this.#reservation = reservation;
  }

  /** Holds the session's first amount; refused (403, or 503 without a database) before anything opens. */
  static async open(deps: SessionFundsDeps, bill: SessionBill): Promise<SessionFunds> {
    const price = deps.billing.price(bill.model, bill.group, bill.channel.type);
    const hold = sessionHoldOf(price, deps.options.number('PreConsumedQuota'));
    const reservation = await holdFor(deps, bill.caller, hold);
    return new SessionFunds(deps, bill, reservation);
  }

  /** Quota held now for the session's next responses. */
  get held(): number {
    return this.#reservation?.amount ?? 0;
  }

  /**
   * Charges one finished response (one log) and holds again for the next; answers why the session
   * cannot go on when the hold could not be taken again (the account cannot pay for more, or the
   * database is away), undefined when it can.
   */
  settleResponse(usage: Usage, elapsedMs: number): Promise<RelayError | undefined> {
    const next = this.#queue.then(() => this.#settle(usage, elapsedMs));
    this.#queue = next.catch(() => {});
    return next;
  }

  /** The session ended: the rest of the hold goes back (once every response reported is settled). */
  close(): Promise<void> {
    const next = this.#queue.then(async () => {
      const reservation = this.#reservation;
      this.#reservation = undefined;
      if (reservation) await refund(this.deps, reservation);
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #settle(usage: Usage, elapsedMs: number): Promise<RelayError | undefined> {
    const reservation = this.#reservation;
    if (!reservation) return sessionOver();
    this.#reservation = undefined;
    const { billing, logger, options } = this.deps;
    const { model, channel, requestId } = this.bill;
    const price = billing.price(model, this.bill.group, channel.type);
    // Output is capped at what the hold covers; input beyond its allowance is held now, before the
    // charge. When the account cannot pay that, it is charged what is left (never below zero) and the
    // session ends.
    const covered = await billing
      .extend(reservation, quotaFor(price, usage) - reservation.amount)
      .catch(() => false);
    const written = billing.settle({
      reservation,
      price,
      model,
      channelId: channel.id,
      usage,
      requestId,
      isStream: true,
      elapsedMs,
    });
    await waitAtMost(written, SETTLEMENT_WAIT_MS);
    if (!covered) {
      logger?.info({ requestId }, 'realtime response cost more than the account could hold');
      return quotaRefused('user-quota');
    }
    try {
      const next = nextHoldOf(price, options.number('PreConsumedQuota'), usage);
      this.#reservation = await holdFor(this.deps, this.bill.caller, next);
      return undefined;
    } catch (error) {
      logger?.info({ requestId, reason: String(error) }, 'realtime session can no longer be paid for');
      return asRelayError(error);
    }
  }
}

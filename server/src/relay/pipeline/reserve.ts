import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRow } from '../../db/schema';
import {
  type Billing,
  type Payer,
  type Price,
  quotaFor,
  type Reservation,
  type ReserveRefusal,
  SettlementBacklogFull,
} from '../../domain/billing';
import { type MaybePromise, whenReady } from '../../maybe-promise';
import { databaseUnavailable, RelayError } from '../errors';
import type { RelayCaller } from './authenticate';
import { imageTokenCeiling } from './image-request';
import { budgetPeriodOf, budgetRefused } from './key-budget';
import type { RelayRequest } from './relay-request';
import { SETTLEMENT_WAIT_MS } from './settle';
import { completionBudget, limitCompletion, StreamSpendWatch } from './spending-limit';
import type { TokenCounter } from './tokenizer';
import { unitQuota } from './unit-pricing';
import { waitAtMost } from './wait-at-most';

export interface ReserveDeps {
  billing: Billing;
  counter: TokenCounter;
  logger?: FastifyBaseLogger;
}

/** What a call holds while it runs: its reservation, and how to watch a stream's cost on a channel. */
export interface ReservedFunds {
  reservation: Reservation;
  watch: ((channel: ChannelRow) => StreamSpendWatch | undefined) | undefined;
}

export function quotaRefused(refusal: ReserveRefusal, caller?: RelayCaller): RelayError {
  if (refusal === 'token-budget') return budgetRefused(caller?.token.row);
  return refusal === 'user-quota'
    ? RelayError.quota('Your quota is not enough for this request', 'insufficient_user_quota')
    : RelayError.quota('This API key does not have enough quota left', 'pre_consume_token_quota_failed');
}

export const payerOf = (caller: RelayCaller): Payer => ({
  userId: caller.user.id,
  username: caller.user.username,
  tokenId: caller.token.row.id,
  tokenName: caller.token.row.name,
  unlimitedToken: Boolean(caller.token.row.unlimited_quota),
  budgetPeriod: budgetPeriodOf(caller.token.row),
});

/**
 * Reserves the call's estimate at the first channel's price, and limits what an account that cannot
 * pay the worst case may ask for. Refuses (403) when not even the prompt is covered. At once when
 * the credit this process holds covers it (see Reservations.reserve), else a promise.
 */
export function reserveFor(
  deps: ReserveDeps,
  caller: RelayCaller,
  request: RelayRequest,
  group: string,
  channel: ChannelRow,
): MaybePromise<ReservedFunds> {
  const { billing } = deps;
  const firstPrice = billing.price(request.model, group, channel.type);
  const wholeCost = unitQuota(request, firstPrice) ?? imageCeilingQuota(request, firstPrice);
  const estimate = wholeCost ?? billing.estimate(firstPrice, request.maxTokens);
  const ceiling = wholeCost ?? billing.ceiling(firstPrice, request.maxTokens);
  return whenReady(reserve(deps, payerOf(caller), estimate, ceiling, caller), (reservation) => {
    const watch =
      wholeCost === undefined ? limitSpending(deps, request, group, firstPrice, reservation) : undefined;
    if (watch === 'unaffordable') {
      return refund(deps, reservation).then(() => {
        throw quotaRefused('user-quota');
      });
    }
    return { reservation, watch };
  });
}

/** A GPT image call's worst case, held whole: its answer reports what it really cost. */
function imageCeilingQuota(request: RelayRequest, price: Price): number | undefined {
  const ceiling = imageTokenCeiling(request);
  return ceiling && quotaFor(price, ceiling);
}

/**
 * Holds `amount` for `caller` (a realtime session's next responses): refused with the same 403s as a
 * call, 503 when the database cannot be reached.
 */
export function holdFor(deps: ReserveDeps, caller: RelayCaller, amount: number): MaybePromise<Reservation> {
  return reserve(deps, payerOf(caller), amount, amount, caller);
}

/**
 * Reserves the call's estimate; a database that cannot be reached is a clear 503, not a hang. At
 * once from credit held already, else a promise; a refusal is thrown at once or rejects likewise.
 */
export function reserve(
  deps: Pick<ReserveDeps, 'billing' | 'logger'>,
  payer: Payer,
  estimate: number,
  ceiling: number,
  caller: RelayCaller,
): MaybePromise<Reservation> {
  let answer: MaybePromise<Reservation | ReserveRefusal>;
  try {
    answer = deps.billing.reserve(payer, estimate, ceiling);
  } catch (error) {
    return unreachable(deps, error);
  }
  if (!(answer instanceof Promise)) return reservedOrRefused(answer, caller);
  return answer.then(
    (held) => reservedOrRefused(held, caller),
    (error: unknown) => unreachable(deps, error),
  );
}

function reservedOrRefused(answer: Reservation | ReserveRefusal, caller: RelayCaller): Reservation {
  if (typeof answer === 'string') throw quotaRefused(answer, caller);
  return answer;
}

/** A reservation the database could not take (or a backlog of settlements): logged, then a 503. */
function unreachable(deps: Pick<ReserveDeps, 'logger'>, error: unknown): never {
  if (error instanceof SettlementBacklogFull) deps.logger?.warn({ reason: error.message }, 'call refused');
  else deps.logger?.error({ err: error }, 'quota reservation failed');
  throw databaseUnavailable();
}

/**
 * For an account that cannot pay the call's worst case: asks the provider for no more than it can
 * pay, and answers how to watch a stream's cost per channel ('unaffordable' when not even the
 * prompt is covered).
 */
function limitSpending(
  deps: ReserveDeps,
  request: RelayRequest,
  group: string,
  price: Price,
  reservation: Reservation,
): ((channel: ChannelRow) => StreamSpendWatch | undefined) | 'unaffordable' | undefined {
  if (reservation.limit === undefined) return undefined;
  const { counter, billing } = deps;
  const { budget, promptTokens } = completionBudget(request, price, reservation.limit, counter);
  if (budget < 1) return 'unaffordable';
  limitCompletion(request, budget);
  if (!request.isStream) return undefined;
  return (channel) =>
    new StreamSpendWatch({
      billing,
      reservation,
      price: billing.price(request.model, group, channel.type),
      promptTokens,
      model: request.model,
      counter,
      step: reservation.amount,
    });
}

/**
 * Gives a reservation back, waiting a bounded time for it to be written (it is retried until it
 * lands); a failure is logged, never thrown over the caller's answer.
 */
export async function refund(deps: ReserveDeps, reservation: Reservation): Promise<void> {
  const written = deps.billing
    .refund(reservation)
    .catch((error: unknown) => deps.logger?.error({ err: error, reservation }, 'refund failed'));
  await waitAtMost(written, SETTLEMENT_WAIT_MS);
}

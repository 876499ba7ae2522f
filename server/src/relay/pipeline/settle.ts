import type { ChannelRow } from '../../db/schema';
import type { Billing, Price, Reservation } from '../../domain/billing';
import type { Usage } from '../adaptors/types';
import { billedUsage } from './billed-usage';
import type { IncomingCall } from './call';
import type { Outcome } from './outcome';
import type { RelayRequest } from './relay-request';
import type { TokenCounter } from './tokenizer';
import { picturesBilled, unitQuota } from './unit-pricing';
import { waitAtMost } from './wait-at-most';

export interface SettleDeps {
  billing: Billing;
  counter: TokenCounter;
}

/**
 * How long the end of an answer waits for its settlement (or a failed call for its refund) to be
 * written. Normally it takes one transaction; when the database is out, the answer goes and the
 * write is retried behind it.
 */
export const SETTLEMENT_WAIT_MS = 2_000;

/** Charges a call that succeeded and waits (a bounded time) for it to be written; answers the usage billed. */
export async function settle(
  deps: SettleDeps,
  incoming: IncomingCall,
  request: RelayRequest,
  group: string,
  channel: ChannelRow,
  reservation: Reservation,
  outcome: Outcome,
  started: number,
): Promise<Usage> {
  const { billing, counter } = deps;
  const price = billing.price(request.model, group, channel.type);
  const usage = billedUsage(request, outcome, counter);
  const written = billing.settle({
    reservation,
    price,
    fixedQuota: fixedQuota(counter, request, price, outcome.text),
    images: picturesBilled(request),
    model: request.model,
    channelId: channel.id,
    usage,
    requestId: incoming.requestId,
    isStream: request.isStream,
    elapsedMs: Math.round(performance.now() - started),
  });
  await waitAtMost(written, SETTLEMENT_WAIT_MS);
  return usage;
}

/** Per-unit calls are charged their unit price; transcripts by the tokens of the text. */
function fixedQuota(
  counter: TokenCounter,
  request: RelayRequest,
  price: Price,
  text: () => string,
): number | undefined {
  if (request.mode === 'audio-transcription' || request.mode === 'audio-translation') {
    return Math.ceil(counter.text(text(), request.model) * price.ratio);
  }
  return unitQuota(request, price);
}

import { priceInMinorUnits } from '@switchyard/contract/payments';
import type Stripe from 'stripe';
import type { OptionsStore } from '../options';
import { epaySignatureHolds } from './epay';
import type { CreditOutcome, PaymentOrders } from './orders';
import { type StripeGateway, sessionFacts } from './stripe-gateway';

export interface NotificationAnswer {
  status: number;
  /** What the gateway is answered (EPay reads the text `success`). */
  body: string;
  /** What happened, for the server's log. */
  outcome: CreditOutcome | 'forged' | 'closed' | 'ignored' | 'disabled';
}

const answer = (
  status: number,
  body: string,
  outcome: NotificationAnswer['outcome'],
): NotificationAnswer => ({
  status,
  body,
  outcome,
});

/** A refusal is answered 400 (the gateway may try again: it is recorded each time, credited never). */
const stripeAnswer = (outcome: CreditOutcome): NotificationAnswer =>
  outcome === 'refused'
    ? answer(400, '{"received":false}', outcome)
    : answer(200, '{"received":true}', outcome);

/**
 * The gateways' notifications: their signatures checked with the root-only secrets, then handed to
 * the orders, which credit each paid order once. The amount a notification names is only compared.
 */
export class PaymentNotifications {
  constructor(
    private readonly deps: { orders: PaymentOrders; options: OptionsStore; stripe: StripeGateway },
  ) {}

  /** A Stripe webhook call: its raw body and `Stripe-Signature` header. */
  async stripe(rawBody: Buffer, signature: string, ip: string): Promise<NotificationAnswer> {
    const { orders, options, stripe } = this.deps;
    // Checked whether or not Stripe is still offered: a payment started before it was switched off still credits.
    const secret = options.get('StripeWebhookSecret');
    if (!secret) return answer(404, '{"received":false}', 'disabled');
    const readEvent = await stripe.webhookReader();
    let event: Stripe.Event;
    try {
      event = readEvent(secret, rawBody, signature);
    } catch {
      return answer(400, '{"received":false}', 'forged');
    }
    const object: unknown = event.data?.object;
    if (typeof object !== 'object' || object === null) return answer(200, '{"received":true}', 'ignored');
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = sessionFacts(event.data.object);
        if (!session.paid) return answer(200, '{"received":true}', 'ignored');
        return stripeAnswer(
          await orders.credit({
            tradeNo: session.tradeNo,
            method: 'stripe',
            providerRef: session.id,
            money: session.money,
            currency: session.currency,
            ip,
          }),
        );
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed': {
        const session = sessionFacts(event.data.object);
        const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
        await orders.close(session.tradeNo, 'stripe', status);
        return answer(200, '{"received":true}', 'closed');
      }
      default:
        return answer(200, '{"received":true}', 'ignored');
    }
  }

  /** An EPay notification (notify_url), answered `success` once it needs no retry. */
  async epay(params: Record<string, string> | undefined, ip: string): Promise<NotificationAnswer> {
    const { orders, options } = this.deps;
    const key = options.get('EPayKey');
    if (!key) return answer(404, 'fail', 'disabled');
    if (!params || params.pid !== options.get('EPayPid') || !epaySignatureHolds(params, key)) {
      return answer(400, 'fail', 'forged');
    }
    if (params.trade_status !== 'TRADE_SUCCESS') return answer(200, 'success', 'ignored');
    const outcome = await orders.credit({
      tradeNo: params.out_trade_no ?? '',
      method: 'epay',
      providerRef: params.trade_no ?? '',
      money: priceInMinorUnits(params.money ?? '') ?? null,
      currency: null,
      ip,
    });
    return outcome === 'refused' ? answer(400, 'fail', outcome) : answer(200, 'success', outcome);
  }
}

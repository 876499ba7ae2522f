import { type CreatedOrder, type CreateOrderInput, minorUnitsText } from '@switchyard/contract/payments';
import type { PaymentOrderRow } from '../../db/schema';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { Actor } from '../permissions';
import { redactSecrets } from '../redact-secrets';
import { serverAddress } from '../server-address';
import { epaySubmitUrl } from './epay';
import type { CreditOutcome, PaymentOrders } from './orders';
import type { StripeGateway } from './stripe-gateway';

/** The route a gateway's asynchronous notification comes to (EPay's notify_url). */
export const EPAY_NOTIFY_PATH = '/api/topup/epay/notify';

/**
 * Paying for an order: the gateway's page the browser is sent to, and, when the user comes back
 * before the gateway's notification, asking Stripe itself whether the session was paid.
 */
export class PaymentCheckout {
  constructor(
    private readonly deps: {
      orders: PaymentOrders;
      options: OptionsStore;
      stripe: StripeGateway;
      /** Told what went wrong calling a gateway, its key already redacted. */
      onGatewayError?: (reason: string) => void;
    },
  ) {}

  async start(actor: Actor, input: CreateOrderInput): Promise<CreatedOrder> {
    const { orders, options } = this.deps;
    const order = await orders.create(actor, input);
    const site = serverAddress(options);
    const back = `${site}/topup?order=${order.trade_no}`;
    const name = `${options.get('SystemName') || 'Switchyard'} top-up ×${order.amount}`;
    if (input.method === 'epay') {
      const url = epaySubmitUrl(options.get('EPayAddress'), options.get('EPayKey'), {
        pid: options.get('EPayPid'),
        type: input.epay_type ?? 'alipay',
        out_trade_no: order.trade_no,
        notify_url: site + EPAY_NOTIFY_PATH,
        return_url: back,
        name,
        money: minorUnitsText(Number(order.money)),
      });
      return { trade_no: order.trade_no, url };
    }
    try {
      const session = await this.deps.stripe.createCheckout(options.get('StripeSecretKey'), {
        tradeNo: order.trade_no,
        name,
        money: Number(order.money),
        currency: order.currency,
        successUrl: back,
        cancelUrl: `${back}&cancelled=1`,
      });
      await orders.started(order, session.id);
      return { trade_no: order.trade_no, url: session.url };
    } catch (error) {
      this.deps.onGatewayError?.(redactSecrets(String(error), options.get('StripeSecretKey')));
      await orders.notStarted(order);
      throw new DomainError('payment_gateway_failed', {}, 502);
    }
  }

  /**
   * An order of the caller's as it stands; a pending Stripe order is first checked with Stripe (the
   * user may be back before the webhook), and credited through the same once-only path.
   */
  async own(actor: Actor, tradeNo: string, ip: string): Promise<PaymentOrderRow> {
    const { orders, options } = this.deps;
    const order = await orders.own(actor, tradeNo);
    if (order.status !== 'pending' || order.method !== 'stripe' || !order.provider_ref) return order;
    let outcome: CreditOutcome | undefined;
    try {
      const session = await this.deps.stripe.retrieveSession(
        options.get('StripeSecretKey'),
        order.provider_ref,
      );
      if (session.paid && session.tradeNo === order.trade_no) {
        outcome = await orders.credit({
          tradeNo: order.trade_no,
          method: 'stripe',
          providerRef: session.id,
          money: session.money,
          currency: session.currency,
          ip,
        });
      }
    } catch (error) {
      // The webhook still credits it; the page asks again.
      this.deps.onGatewayError?.(redactSecrets(String(error), options.get('StripeSecretKey')));
    }
    return outcome ? orders.own(actor, tradeNo) : order;
  }
}

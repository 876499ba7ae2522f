import type Stripe from 'stripe';
import { onFirstUse } from '../../on-first-use';

const stripeLibrary = onFirstUse(() => import('stripe').then((module) => module.default));

/** Where the Stripe client sends its calls (STRIPE_API_URL: a fake Stripe in tests). */
function clientOptions(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443), protocol };
}

export interface CheckoutRequest {
  tradeNo: string;
  name: string;
  money: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

/** What a Checkout Session says about its payment (from a webhook event or a retrieval). */
export interface SessionFacts {
  id: string;
  tradeNo: string;
  paid: boolean;
  money: number | null;
  currency: string;
}

export const sessionFacts = (session: Stripe.Checkout.Session): SessionFacts => ({
  id: session.id,
  tradeNo: session.metadata?.trade_no ?? session.client_reference_id ?? '',
  paid: session.payment_status === 'paid',
  money: session.amount_total,
  currency: (session.currency ?? '').toUpperCase(),
});

/** Stripe: Checkout Sessions made with the secret key, and webhook events checked with the signing secret. */
export class StripeGateway {
  constructor(private readonly apiUrl: string) {}

  async #client(secretKey: string): Promise<Stripe> {
    const Library = await stripeLibrary();
    return new Library(secretKey, { ...clientOptions(this.apiUrl), maxNetworkRetries: 1, timeout: 15_000 });
  }

  async createCheckout(secretKey: string, request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const client = await this.#client(secretKey);
    const session = await client.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.money,
              product_data: { name: request.name },
            },
          },
        ],
        client_reference_id: request.tradeNo,
        metadata: { trade_no: request.tradeNo },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      { idempotencyKey: request.tradeNo },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
    return { id: session.id, url: session.url };
  }

  async retrieveSession(secretKey: string, id: string): Promise<SessionFacts> {
    const client = await this.#client(secretKey);
    return sessionFacts(await client.checkout.sessions.retrieve(id));
  }

  /** Reads webhook calls: the event of one, or throws when its signature is not the signing secret's. */
  async webhookReader(): Promise<
    (webhookSecret: string, rawBody: Buffer, signature: string) => Stripe.Event
  > {
    const { webhooks } = await stripeLibrary();
    return (webhookSecret, rawBody, signature) => webhooks.constructEvent(rawBody, signature, webhookSecret);
  }
}

import { createHmac, randomBytes } from 'node:crypto';
import { HttpFake, type RecordedRequest } from './http-fake';

/** A Checkout Session as the fake keeps it (the fields the gateway reads). */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  amount_total: number;
  currency: string;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  client_reference_id: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
}

/** Stripe's `Stripe-Signature` for a payload: `t=…,v1=` HMAC-SHA256 of `t.payload` with the signing secret. */
export function stripeSignature(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * A fake Stripe speaking its wire format: form-encoded `POST /v1/checkout/sessions`, `GET
 * /v1/checkout/sessions/:id`, and a checkout page (`/pay/:id`) that marks the session paid, posts the
 * signed `checkout.session.completed` webhook and sends the browser back to the success URL.
 */
export class FakeStripe {
  readonly sessions = new Map<string, FakeSession>();
  readonly http = new HttpFake((request, response) => this.#answer(request, response));
  /** Whether the secret key is taken; when not, the refusal quotes it whole (a careless gateway). */
  acceptsKey = true;
  /** Where the checkout page posts its webhook (the gateway's route). */
  webhookUrl = '';

  constructor(readonly webhookSecret: string) {}

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  get url(): string {
    return this.http.url;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  session(id: string): FakeSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  }

  pay(id: string): FakeSession {
    const session = this.session(id);
    Object.assign(session, { payment_status: 'paid', status: 'complete' });
    return session;
  }

  /** A webhook event's body and signature for `session` (its current state, or as changed by `patch`). */
  event(type: string, session: FakeSession, patch: Partial<FakeSession> = {}, secret = this.webhookSecret) {
    const payload = JSON.stringify({
      id: `evt_${randomBytes(8).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object: { ...session, ...patch } },
    });
    return { payload, signature: stripeSignature(payload, secret) };
  }

  async #answer(request: RecordedRequest, response: import('node:http').ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const path = request.url.split('?')[0] ?? '';
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!this.acceptsKey || !key.startsWith('sk_')) {
        return send(401, {
          error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key}` },
        });
      }
      const form = new URLSearchParams(request.body);
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        url: `${this.url}/pay/${id}`,
        amount_total:
          Number(form.get('line_items[0][price_data][unit_amount]')) *
          Number(form.get('line_items[0][quantity]')),
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        payment_status: 'unpaid',
        status: 'open',
        client_reference_id: form.get('client_reference_id') ?? '',
        metadata: { trade_no: form.get('metadata[trade_no]') ?? '' },
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url') ?? '',
      };
      this.sessions.set(id, session);
      return send(200, session);
    }
    const retrieved = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
    if (request.method === 'GET' && retrieved) {
      const session = this.sessions.get(retrieved[1] ?? '');
      return session ? send(200, session) : send(404, { error: { type: 'invalid_request_error' } });
    }
    const page = /^\/pay\/([\w-]+)$/.exec(path);
    if (request.method === 'GET' && page) {
      const session = this.sessions.get(page[1] ?? '');
      if (!session) return send(404, { error: 'no such session' });
      this.pay(session.id);
      const { payload, signature } = this.event('checkout.session.completed', session);
      await fetch(this.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      response.writeHead(303, { location: session.success_url });
      response.end();
      return;
    }
    send(404, { error: { type: 'invalid_request_error', message: `no route ${request.method} ${path}` } });
  }
}

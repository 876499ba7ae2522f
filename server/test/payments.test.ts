import { createHash } from 'node:crypto';
import type { AuditEntry } from '@switchyard/contract/audit';
import type { CreatedOrder, PaymentOrder, RefundResult, TopUpOffer } from '@switchyard/contract/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe, stripeSignature } from './fakes/stripe';
import { type Client, type EnvelopeBody, logCapture, startTestApp, type TestApp } from './harness';

const WEBHOOK_SECRET = 'whsec_test_signing_secret_0123456789';
const STRIPE_KEY = 'sk_test_fake_secret_key_0123456789';
const EPAY_KEY = 'epay-merchant-key-0123456789';
const QUOTA_PER_UNIT = 500_000;

/** 易支付's signature, written from its documentation (not the server's code). */
const epaySign = (params: Record<string, string>, key: string) =>
  createHash('md5')
    .update(
      Object.keys(params)
        .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
        .sort()
        .map((name) => `${name}=${params[name]}`)
        .join('&') + key,
    )
    .digest('hex');

describe('online top-up: Stripe and EPay orders credited exactly once', () => {
  let a: TestApp;
  let b: TestApp;
  let stripe: FakeStripe;
  let root: Client;
  let buyer: Client;
  let buyerId: number;
  const log = logCapture();

  beforeAll(async () => {
    stripe = await new FakeStripe(WEBHOOK_SECRET).start();
    const env = { STRIPE_API_URL: stripe.url };
    a = await startTestApp({ env, logger: log.logger });
    root = await a.root();
    const settings: Record<string, string> = {
      StripeSecretKey: STRIPE_KEY,
      StripeWebhookSecret: WEBHOOK_SECRET,
      StripeEnabled: 'true',
      EPayAddress: 'https://pay.example.test/',
      EPayPid: '1001',
      EPayKey: EPAY_KEY,
      EPayEnabled: 'true',
      TopUpUnitPrice: '2.50',
      TopUpMinAmount: '2',
      TopUpAmountOptions: '2, 5,10',
      ServerAddress: a.baseUrl,
    };
    for (const [key, value] of Object.entries(settings)) {
      const saved = await root.put('/api/option/', { key, value });
      expect(saved.body.success, `${key}: ${saved.body.message}`).toBe(true);
    }
    // A second process on the same database: it reads the options at start.
    b = await startTestApp({ env, database: a.database });
    stripe.webhookUrl = `${a.baseUrl}/api/topup/stripe/webhook`;
    buyer = await a.user('buyer');
    buyerId = (await buyer.get<EnvelopeBody<{ id: number }>>('/api/user/self')).body.data!.id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await stripe?.close();
  });

  const quotaOf = async (client: Client) =>
    (await client.get<EnvelopeBody<{ quota: number }>>('/api/user/self')).body.data!.quota;
  const order = async (tradeNo: string) =>
    (await buyer.get<EnvelopeBody<PaymentOrder>>(`/api/topup/order/self/${tradeNo}`)).body.data!;
  const start = async (client: Client, body: Record<string, unknown>) => {
    const response = await client.post<EnvelopeBody<CreatedOrder>>('/api/topup/order', body);
    expect(response.body.success, response.body.message).toBe(true);
    return response.body.data!;
  };
  const stripeOrder = async (amount = 4) => {
    const created = await start(buyer, { method: 'stripe', amount });
    const session = stripe.session(new URL(created.url).pathname.split('/').pop() ?? '');
    return { ...created, session };
  };
  const webhook = (app: TestApp, payload: string, signature: string | undefined) =>
    fetch(`${app.baseUrl}/api/topup/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
  const logsOf = (userId: number) =>
    a.db.kysely.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 1).execute();
  const auditOf = async (action: string) =>
    (await root.get<EnvelopeBody<AuditEntry[]>>(`/api/audit/?action=${action}`)).body.data ?? [];

  it('keeps the gateways’ secrets from everyone but root, and out of the options API', async () => {
    const listed = (await root.get<EnvelopeBody<Array<{ key: string; value: string }>>>('/api/option/')).body
      .data!;
    const keys = listed.map((entry) => entry.key);
    expect(keys).toContain('StripeEnabled');
    for (const secret of ['StripeSecretKey', 'StripeWebhookSecret', 'EPayKey'])
      expect(keys).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toMatch(/sk_test|whsec_|epay-merchant/);
    expect((await buyer.get('/api/option/')).body.success).toBe(false);
    const audit = JSON.stringify(await auditOf('option.update'));
    expect(audit).not.toMatch(/sk_test|whsec_|epay-merchant/);
    const offer = (await buyer.get<EnvelopeBody<TopUpOffer>>('/api/topup/offer')).body.data!;
    expect(offer).toEqual({
      methods: ['stripe', 'epay'],
      amounts: [2, 5, 10],
      min_amount: 2,
      unit_price: 250,
      currency: 'USD',
      quota_per_unit: QUOTA_PER_UNIT,
    });
    expect(JSON.stringify(offer)).not.toMatch(/sk_test|whsec_|epay-merchant/);
  });

  it('refuses malformed and out-of-range orders without writing one', async () => {
    const count = async () => (await a.db.kysely.selectFrom('payment_orders').select('id').execute()).length;
    const before = await count();
    for (const body of [
      { method: 'stripe', amount: 1 },
      { method: 'stripe', amount: 2.5 },
      { method: 'stripe', amount: -3 },
      { method: 'stripe', amount: 10_000_000_000 },
      { method: 'paypal', amount: 4 },
      { method: 'stripe', amount: '4' },
      { method: 'epay', amount: 4, epay_type: 'bitcoin' },
    ]) {
      const response = await buyer.post('/api/topup/order', body);
      expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      expect(response.body.success, JSON.stringify(body)).toBe(false);
    }
    expect((await buyer.post('/api/topup/order', 'not json')).status).toBeLessThan(500);
    expect((await a.client().post('/api/topup/order', { method: 'stripe', amount: 4 })).status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('makes a Checkout Session of the order’s price, and credits it once when the webhook comes first', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(4);
    expect(session).toMatchObject({ amount_total: 1000, currency: 'usd', client_reference_id: trade_no });
    expect(stripe.http.last().headers.authorization).toBe(`Bearer ${STRIPE_KEY}`);
    expect((await order(trade_no)).status).toBe('pending');

    stripe.pay(session.id);
    const { payload, signature } = stripe.event('checkout.session.completed', session);
    const first = await webhook(a, payload, signature);
    expect(first.status).toBe(200);
    // Duplicated and replayed (the same bytes and signature), on either process.
    for (const app of [a, b, a]) expect((await webhook(app, payload, signature)).status).toBe(200);
    const again = stripe.event('checkout.session.completed', session);
    expect((await webhook(b, again.payload, again.signature)).status).toBe(200);

    expect(await order(trade_no)).toMatchObject({ status: 'paid', quota: 4 * QUOTA_PER_UNIT, money: 1000 });
    expect(await quotaOf(buyer)).toBe(before + 4 * QUOTA_PER_UNIT);
    const logs = (await logsOf(buyerId)).filter((log) => String(log.content).includes(trade_no));
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]!.quota)).toBe(4 * QUOTA_PER_UNIT);
    expect(
      (await auditOf('topup.paid')).filter((entry) => JSON.stringify(entry.after).includes(trade_no)),
    ).toHaveLength(1);
  });

  it('credits a payment once when the user is back before the webhook (Stripe asked), the webhook after', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(2);
    stripe.pay(session.id);
    expect((await order(trade_no)).status).toBe('paid');
    expect(await quotaOf(buyer)).toBe(before + 2 * QUOTA_PER_UNIT);
    const { payload, signature } = stripe.event('checkout.session.completed', session);
    expect((await webhook(b, payload, signature)).status).toBe(200);
    expect(await quotaOf(buyer)).toBe(before + 2 * QUOTA_PER_UNIT);
  });

  it('credits a payment that arrives after its expiry or failure notice, and a late expiry changes nothing', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(2);
    const expired = stripe.event('checkout.session.expired', session, { status: 'expired' });
    expect((await webhook(a, expired.payload, expired.signature)).status).toBe(200);
    const failed = stripe.event('checkout.session.async_payment_failed', session);
    expect((await webhook(a, failed.payload, failed.signature)).status).toBe(200);
    expect((await order(trade_no)).status).toBe('expired');
    const paid = stripe.event('checkout.session.async_payment_succeeded', session, {
      payment_status: 'paid',
      status: 'complete',
    });
    expect((await webhook(b, paid.payload, paid.signature)).status).toBe(200);
    expect((await webhook(a, expired.payload, expired.signature)).status).toBe(200);
    expect((await order(trade_no)).status).toBe('paid');
    expect(await quotaOf(buyer)).toBe(before + 2 * QUOTA_PER_UNIT);
  });

  it('refuses forged, tampered, stale and unsigned webhooks: nothing credited', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(2);
    const paidSession = { ...session, payment_status: 'paid' as const, status: 'complete' as const };
    const forged = stripe.event('checkout.session.completed', paidSession, {}, 'whsec_someone_else');
    const genuine = stripe.event('checkout.session.completed', paidSession);
    const tampered = genuine.payload.replace('"amount_total":500', '"amount_total":5');
    const stale = stripeSignature(genuine.payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
    for (const [payload, signature] of [
      [forged.payload, forged.signature],
      [tampered, genuine.signature],
      [genuine.payload, stale],
      [genuine.payload, undefined],
      [genuine.payload, 't=1,v1=00'],
      ['{"not":"an event"', genuine.signature],
    ] as const) {
      const response = await webhook(a, payload, signature);
      expect(response.status).toBe(400);
    }
    const huge = await webhook(a, 'x'.repeat(300_000), genuine.signature);
    expect(huge.status).toBeLessThan(500);
    expect(await huge.json()).toMatchObject({ success: false, code: 'body_too_large' });
    expect((await order(trade_no)).status).toBe('pending');
    expect(await quotaOf(buyer)).toBe(before);
  });

  it('refuses and records a paid notice whose amount or currency is not the order’s', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(2);
    for (const patch of [{ id: 'cs_test_another_session' }, { amount_total: 1 }, { currency: 'jpy' }]) {
      const event = stripe.event('checkout.session.completed', session, { ...patch, payment_status: 'paid' });
      expect((await webhook(a, event.payload, event.signature)).status).toBe(400);
    }
    const refused = await order(trade_no);
    expect(refused.status).toBe('pending');
    expect(refused.error).toMatch(/refused a payment of 500 JPY/);
    expect(await quotaOf(buyer)).toBe(before);
    const entries = (await auditOf('topup.refused')).filter((entry) =>
      JSON.stringify(entry.after).includes(trade_no),
    );
    expect(entries).toHaveLength(3);
  });

  it('credits once when two processes receive the same notification at once', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, session } = await stripeOrder(5);
    stripe.pay(session.id);
    const { payload, signature } = stripe.event('checkout.session.completed', session);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => webhook(index % 2 ? b : a, payload, signature)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
    expect(await quotaOf(buyer)).toBe(before + 5 * QUOTA_PER_UNIT);
    const logs = (await logsOf(buyerId)).filter((log) => String(log.content).includes(trade_no));
    expect(logs).toHaveLength(1);
  });

  it('sends EPay orders to submit.php signed, and credits a signed TRADE_SUCCESS notification once', async () => {
    const before = await quotaOf(buyer);
    const { trade_no, url } = await start(buyer, { method: 'epay', amount: 2, epay_type: 'wxpay' });
    const submit = new URL(url);
    expect(`${submit.origin}${submit.pathname}`).toBe('https://pay.example.test/submit.php');
    const sent = Object.fromEntries(submit.searchParams);
    expect(sent).toMatchObject({
      pid: '1001',
      type: 'wxpay',
      out_trade_no: trade_no,
      money: '5.00',
      notify_url: `${a.baseUrl}/api/topup/epay/notify`,
      sign_type: 'MD5',
    });
    expect(sent.sign).toBe(epaySign(sent, EPAY_KEY));

    const notice: Record<string, string> = {
      pid: '1001',
      trade_no: '2026112800001',
      out_trade_no: trade_no,
      type: 'wxpay',
      name: sent.name ?? '',
      money: '5.00',
      trade_status: 'TRADE_SUCCESS',
      sign_type: 'MD5',
    };
    const signed = { ...notice, sign: epaySign(notice, EPAY_KEY) };
    const notify = (app: TestApp, params: Record<string, string>, how: 'GET' | 'POST' = 'GET') =>
      how === 'GET'
        ? fetch(`${app.baseUrl}/api/topup/epay/notify?${new URLSearchParams(params)}`)
        : fetch(`${app.baseUrl}/api/topup/epay/notify`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(params).toString(),
          });

    // Forged: a wrong key, a changed amount under the old signature, another merchant.
    const wrongKey = { ...notice, sign: epaySign(notice, 'guess') };
    const cheaper = { ...signed, money: '0.01' };
    const otherPid = { ...notice, pid: '1002' };
    for (const params of [wrongKey, cheaper, { ...otherPid, sign: epaySign(otherPid, EPAY_KEY) }]) {
      const response = await notify(a, params);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe('fail');
    }
    // A parameter given twice, or one too long, is no notification.
    const doubled = `${new URLSearchParams(signed)}&money=500.00`;
    const twice = await fetch(`${a.baseUrl}/api/topup/epay/notify?${doubled}`);
    expect(twice.status).toBe(400);
    const long = await notify(a, { ...signed, name: 'x'.repeat(5000) });
    expect(long.status).toBeLessThan(500);
    expect(await long.text()).not.toBe('success');
    expect(await quotaOf(buyer)).toBe(before);

    // Genuine but for another amount: refused and noted on the order.
    const wrongAmount = { ...notice, money: '50.00' };
    const refused = await notify(b, { ...wrongAmount, sign: epaySign(wrongAmount, EPAY_KEY) }, 'POST');
    expect(refused.status).toBe(400);
    expect((await order(trade_no)).error).toMatch(/5000/);

    const answers = await Promise.all([
      notify(a, signed),
      notify(b, signed, 'POST'),
      notify(a, signed, 'POST'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('success');
    }
    expect(await order(trade_no)).toMatchObject({ status: 'paid', quota: 2 * QUOTA_PER_UNIT, money: 500 });
    expect(await quotaOf(buyer)).toBe(before + 2 * QUOTA_PER_UNIT);
  });

  it('answers 502 when Stripe refuses the order, closes it, and logs no key', async () => {
    stripe.acceptsKey = false;
    try {
      const response = await buyer.post('/api/topup/order', { method: 'stripe', amount: 2 });
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ success: false, code: 'payment_gateway_failed' });
      expect(response.text).not.toContain(STRIPE_KEY);
    } finally {
      stripe.acceptsKey = true;
    }
    const failed = (await buyer.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/self')).body.data![0]!;
    expect(failed.status).toBe('failed');
    expect(log.text()).toContain('payment gateway call failed');
    expect(log.text()).not.toContain(STRIPE_KEY);
    expect(log.text()).not.toMatch(/whsec_|epay-merchant/);
  });

  it('shows a user their own orders only, and root all of them', async () => {
    const other = await a.user('other-buyer');
    await start(other, { method: 'stripe', amount: 2 });
    const own = (await buyer.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/self?p=0')).body.data!;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((row) => row.user_id === buyerId)).toBe(true);
    const theirs = (await other.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/self')).body.data!;
    expect(theirs).toHaveLength(1);
    expect((await other.get(`/api/topup/order/self/${own[0]!.trade_no}`)).body.success).toBe(false);
    expect((await buyer.get('/api/topup/order/')).body.success).toBe(false);
    const all = (await root.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/?p=0')).body.data!;
    expect(new Set(all.map((row) => row.username))).toEqual(new Set(['buyer', 'other-buyer']));
    const paid = (await root.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/?status=paid')).body.data!;
    expect(paid.every((row) => row.status === 'paid')).toBe(true);
  });

  it('refunds a paid order once, taking back what the user still has and saying what was spent', async () => {
    const refundee = await a.user('refundee');
    const { trade_no, session } = await (async () => {
      const created = await start(refundee, { method: 'stripe', amount: 4 });
      return { ...created, session: stripe.session(new URL(created.url).pathname.split('/').pop() ?? '') };
    })();
    stripe.pay(session.id);
    const event = stripe.event('checkout.session.completed', session);
    expect((await webhook(a, event.payload, event.signature)).status).toBe(200);
    const self = (await refundee.get<EnvelopeBody<{ id: number; quota: number }>>('/api/user/self')).body
      .data!;
    expect(self.quota).toBe(4 * QUOTA_PER_UNIT);
    // The user spent all but 300,000 of it.
    const edited = await root.put('/api/user/', { id: self.id, username: 'refundee', quota: 300_000 });
    expect(edited.body.success, edited.body.message).toBe(true);
    const row = (
      await root.get<EnvelopeBody<PaymentOrder[]>>('/api/topup/order/?status=paid')
    ).body.data!.find((candidate) => candidate.trade_no === trade_no)!;
    const refunds = await Promise.all([
      root.post<EnvelopeBody<RefundResult>>(`/api/topup/order/${row.id}/refund`),
      root.post<EnvelopeBody<RefundResult>>(`/api/topup/order/${row.id}/refund`),
    ]);
    const done = refunds.filter((response) => response.body.success);
    expect(done).toHaveLength(1);
    expect(done[0]!.body.data).toEqual({ taken: 300_000, short: 4 * QUOTA_PER_UNIT - 300_000 });
    expect(await quotaOf(refundee)).toBe(0);
    const refunded = (await refundee.get<EnvelopeBody<PaymentOrder>>(`/api/topup/order/self/${trade_no}`))
      .body.data!;
    expect(refunded).toMatchObject({ status: 'refunded', refunded_quota: 300_000 });
    const entries = (await auditOf('topup.refund')).filter((entry) =>
      JSON.stringify(entry.after).includes(trade_no),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]!.after).toMatchObject({ taken: 300_000 });
    expect((await buyer.post(`/api/topup/order/${row.id}/refund`)).body).toMatchObject({
      success: false,
      code: 'role_too_low',
    });
    // A late duplicate of the paid notice credits nothing again.
    expect((await webhook(b, event.payload, event.signature)).status).toBe(200);
    expect(await quotaOf(refundee)).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { balances, type Customer, createChannel, createCustomer } from './relay-setup';

interface Subscription {
  object: string;
  has_payment_method: boolean;
  soft_limit_usd: number;
  hard_limit_usd: number;
  system_hard_limit_usd: number;
  access_until: number;
}
interface Usage {
  object: string;
  total_usage: number;
}
interface OpenAiErrorBody {
  error: { message: string; type: string; param: string; code: string | null };
}

const QUOTA_PER_UNIT = 500_000;

/** The dashboard as ChatGPT-style apps call it: plain fetch with `Authorization: Bearer sk-…`. */
async function dashboard<T>(t: TestApp, path: string, authorization?: string) {
  const response = await fetch(`${t.baseUrl}${path}`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

async function spend(customer: Customer, calls: number): Promise<void> {
  for (let call = 0; call < calls; call++) {
    await customer.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });
  }
}

/** Waits until the relay has settled what was spent (settlement may trail the answer). */
async function settled(t: TestApp, customer: Customer) {
  await t.app.services.relay.settled();
  return balances(t, customer.userId, customer.token.id);
}

describe('billing dashboard for API keys', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("answers a limited key's grant and spending in dollars, under /v1 and at the root", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    const customer = await createCustomer(t, 'dash-lim', {
      token: { remain_quota: 1_500_000, expired_time: expiresAt },
    });
    await spend(customer, 3);
    const after = await settled(t, customer);
    expect(after.tokenUsed).toBeGreaterThan(0);
    expect(after.remain + after.tokenUsed).toBe(1_500_000);

    // The openai SDK's own client, as an app using it would ask (baseURL ends in /v1).
    const viaSdk = (await customer.openai.get('/dashboard/billing/subscription')) as Subscription;
    const expected: Subscription = {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: 3,
      hard_limit_usd: 3,
      system_hard_limit_usd: 3,
      access_until: expiresAt,
    };
    expect(viaSdk).toEqual(expected);
    const usage = (await customer.openai.get('/dashboard/billing/usage')) as Usage;
    expect(usage).toEqual({ object: 'list', total_usage: (after.tokenUsed / QUOTA_PER_UNIT) * 100 });
    // A client's balance, limit − usage, is what the key has left.
    expect(viaSdk.hard_limit_usd - usage.total_usage / 100).toBeCloseTo(after.remain / QUOTA_PER_UNIT, 9);

    const key = `Bearer sk-${customer.token.key}`;
    const atRoot = await dashboard<Subscription>(t, '/dashboard/billing/subscription', key);
    expect(atRoot.status).toBe(200);
    expect(atRoot.body).toEqual(expected);
    expect(atRoot.headers.get('access-control-allow-origin')).toBe('*');
    expect((await dashboard<Usage>(t, '/dashboard/billing/usage', key)).body).toEqual(usage);
  });

  it("bounds a key without a limit by its owner's quota, and a key that never expires reads access_until 0", async () => {
    const customer = await createCustomer(t, 'dash-unlim', {
      quota: 2_000_000,
      token: { unlimited_quota: true, remain_quota: 0, expired_time: -1 },
    });
    await spend(customer, 2);
    const after = await settled(t, customer);
    expect(after.tokenUsed).toBeGreaterThan(0);
    const key = `Bearer sk-${customer.token.key}`;
    const subscription = await dashboard<Subscription>(t, '/v1/dashboard/billing/subscription', key);
    const granted = (after.quota + after.tokenUsed) / QUOTA_PER_UNIT;
    expect(subscription.body).toEqual({
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: granted,
      hard_limit_usd: granted,
      system_hard_limit_usd: granted,
      access_until: 0,
    });
    const usage = await dashboard<Usage>(t, '/v1/dashboard/billing/usage', key);
    expect(usage.body.total_usage).toBe((after.tokenUsed / QUOTA_PER_UNIT) * 100);
    // limit − usage is what the owner has left.
    expect(subscription.body.hard_limit_usd - usage.body.total_usage / 100).toBeCloseTo(
      after.quota / QUOTA_PER_UNIT,
      9,
    );
  });

  it('follows DisplayInCurrencyEnabled (quota units) and DisplayTokenStatEnabled (the owner’s numbers)', async () => {
    const customer = await createCustomer(t, 'dash-opts', {
      quota: 3_000_000,
      token: { remain_quota: 1_000_000 },
    });
    await spend(customer, 1);
    const after = await settled(t, customer);
    const key = `Bearer sk-${customer.token.key}`;
    try {
      await root.put('/api/option/', { key: 'DisplayInCurrencyEnabled', value: 'false' });
      expect(
        (await dashboard<Subscription>(t, '/dashboard/billing/subscription', key)).body.hard_limit_usd,
      ).toBe(1_000_000);
      expect((await dashboard<Usage>(t, '/dashboard/billing/usage', key)).body.total_usage).toBe(
        after.tokenUsed * 100,
      );

      await root.put('/api/option/', { key: 'DisplayTokenStatEnabled', value: 'false' });
      const subscription = await dashboard<Subscription>(t, '/dashboard/billing/subscription', key);
      expect(subscription.body).toMatchObject({
        hard_limit_usd: after.quota + after.usedQuota,
        access_until: 0,
      });
      expect((await dashboard<Usage>(t, '/dashboard/billing/usage', key)).body.total_usage).toBe(
        after.usedQuota * 100,
      );
    } finally {
      await root.put('/api/option/', { key: 'DisplayInCurrencyEnabled', value: 'true' });
      await root.put('/api/option/', { key: 'DisplayTokenStatEnabled', value: 'true' });
    }
  });

  it('refuses a bad, missing or disabled key with 401 in OpenAI’s error shape', async () => {
    for (const path of ['/dashboard/billing/subscription', '/v1/dashboard/billing/usage']) {
      const bad = await dashboard<OpenAiErrorBody>(t, path, 'Bearer sk-notARealKey123');
      expect(bad.status, path).toBe(401);
      expect(bad.body.error).toMatchObject({ type: 'one_api_error', code: 'invalid_api_key', param: '' });
      expect(bad.body.error.message).toMatch(/^Invalid API key/);
      expect(bad.headers.get('access-control-allow-origin')).toBe('*');
      const missing = await dashboard<OpenAiErrorBody>(t, path);
      expect(missing.status).toBe(401);
      expect(missing.body.error.message).toMatch(/^No API key provided/);
    }

    const customer = await createCustomer(t, 'dash-off');
    await customer.client.put('/api/token/?status_only=true', { id: customer.token.id, status: 2 });
    await expect(customer.openai.get('/dashboard/billing/subscription')).rejects.toMatchObject({
      status: 401,
      error: { code: 'invalid_api_key' },
    });
  });

  it('answers the CORS preflight of browser apps', async () => {
    const response = await fetch(`${t.baseUrl}/dashboard/billing/subscription`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

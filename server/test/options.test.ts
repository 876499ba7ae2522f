import { OPTION_KEYS } from '@switchyard/contract/options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type Entries = EnvelopeBody<Array<{ key: string; value: string }>>;
const SECRETS = [
  'SMTPToken',
  'GitHubClientSecret',
  'LarkClientSecret',
  'OidcClientSecret',
  'WeChatServerToken',
  'TurnstileSecretKey',
  'MessagePusherToken',
  'StripeSecretKey',
  'StripeWebhookSecret',
  'EPayKey',
];

describe('options', () => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
  });
  afterAll(() => t.close());

  const optionMap = async () =>
    Object.fromEntries(
      ((await root.get<Entries>('/api/option/')).body.data ?? []).map((e) => [e.key, e.value]),
    );

  it('lists every option with one-api defaults and no secret', async () => {
    const options = await optionMap();
    for (const key of OPTION_KEYS) {
      if (SECRETS.includes(key)) expect(options).not.toHaveProperty(key);
      else expect(options).toHaveProperty(key);
    }
    expect(options).toMatchObject({
      QuotaPerUnit: '500000',
      DisplayInCurrencyEnabled: 'true',
      PasswordLoginEnabled: 'true',
      RegisterEnabled: 'true',
      EmailVerificationEnabled: 'false',
      ChannelDisableThreshold: '5',
      QuotaRemindThreshold: '1000',
      PreConsumedQuota: '500',
      RetryTimes: '0',
      Theme: 'default',
      SMTPPort: '587',
    });
    expect(JSON.parse(options.GroupRatio ?? '')).toEqual({ default: 1, vip: 1, svip: 1 });
  });

  it('saves a secret but never returns it', async () => {
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'hunter2-secret' })).body.success).toBe(
      true,
    );
    const response = await root.get('/api/option/');
    expect(response.text).not.toContain('hunter2-secret');
    const stored = await t.db.kysely
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'SMTPToken')
      .executeTakeFirst();
    expect(stored?.value).toBe('hunter2-secret');
  });

  it.each([
    ['PasswordLoginEnabled', 'yes', /must be true or false/],
    ['TopUpUnitPrice', '1.234', /at most two decimals/],
    ['TopUpUnitPrice', '0', /positive price/],
    ['TopUpCurrency', 'dollars', /three-letter code/],
    ['TopUpCurrency', 'jpy', /currency with two decimals/],
    ['TopUpAmountOptions', '10,-5', /positive whole amounts/],
    ['StripeEnabled', 'true', /Stripe secret key and webhook signing secret/],
    ['EPayEnabled', 'true', /EPay address, merchant ID and key/],
    ['PasswordLoginEnabled', 'TRUE', /must be true or false/],
    ['QuotaForNewUser', '-1', /whole number of 0 or more/],
    ['QuotaForNewUser', '1.5', /whole number of 0 or more/],
    ['RetryTimes', 'three', /whole number of 0 or more/],
    ['QuotaPerUnit', '-0.01', /number of 0 or more/],
    ['ChannelDisableThreshold', 'abc', /number of 0 or more/],
    ['ModelRatio', '{not json', /ModelRatio is not a valid JSON string/],
    ['GroupRatio', '[1,2]', /GroupRatio is not a valid JSON string/],
    ['CompletionRatio', '{"gpt-4":"two"}', /must be a number/],
    ['GroupRatio', '{"vip":-1}', /must be a number of 0 or more/],
    ['Theme', 'neon', /Theme must be one of default, berry, air/],
    ['NoSuchOption', 'x', /Unknown option/],
    ['GitHubOAuthEnabled', 'true', /GitHub client ID/],
    ['WeChatAuthEnabled', 'true', /WeChat server address/],
    ['TurnstileCheckEnabled', 'true', /Turnstile site key/],
  ])('refuses %s = %j and changes nothing', async (key, value, message) => {
    const before = await optionMap();
    const response = await root.put('/api/option/', { key, value });
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await optionMap()).toEqual(before);
    const stored = await t.db.kysely
      .selectFrom('options')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    expect(stored?.value).not.toBe(value);
  });

  it('refuses a value that is not a string', async () => {
    const response = await root.put('/api/option/', { key: 'RetryTimes', value: 3 });
    expect(response.status).toBe(200);
    expect(response.body.message).toMatch(/value must be a string/);
  });

  it('applies a change at once, without a restart', async () => {
    await root.put('/api/option/', { key: 'SystemName', value: 'Acme AI' });
    await root.put('/api/option/', { key: 'DisplayInCurrencyEnabled', value: 'false' });
    await root.put('/api/option/', { key: 'GroupRatio', value: '{"default":1,"gold":0.5}' });
    const status = (await t.client().get<EnvelopeBody<Record<string, unknown>>>('/api/status')).body.data;
    expect(status).toMatchObject({ system_name: 'Acme AI', display_in_currency: false });
    expect((await root.get<EnvelopeBody<string[]>>('/api/group/')).body.data?.sort()).toEqual([
      'default',
      'gold',
    ]);
    const restarted = await startTestApp({ database: t.database });
    try {
      const again = (await restarted.client().get<EnvelopeBody<Record<string, unknown>>>('/api/status')).body
        .data;
      expect(again).toMatchObject({ system_name: 'Acme AI', display_in_currency: false });
    } finally {
      await restarted.close();
    }
  });

  it('enables a feature once it is configured, and keeps the whitelist unique', async () => {
    await root.put('/api/option/', { key: 'GitHubClientId', value: 'client-123' });
    expect((await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'true' })).body.success).toBe(
      true,
    );
    await root.put('/api/option/', { key: 'EmailDomainWhitelist', value: 'a.com, b.com,A.com,,b.com' });
    expect((await optionMap()).EmailDomainWhitelist).toBe('a.com,b.com');
    await root.put('/api/option/', { key: 'ServerAddress', value: 'https://ai.example.com/' });
    expect(
      (await t.client().get<EnvelopeBody<{ server_address: string }>>('/api/status')).body.data
        ?.server_address,
    ).toBe('https://ai.example.com');
  });
});

import type { PriceRow, PriceSheet } from '@switchyard/contract/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

const MILLION = 1_000_000;

describe('the price list', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let vip: Customer;

  const sheet = async (client: Client, path = '/api/pricing') =>
    (await client.get<EnvelopeBody<PriceSheet>>(path)).body;
  const row = (rows: PriceRow[], model: string): PriceRow => {
    const found = rows.find((candidate) => candidate.model === model);
    if (!found) throw new Error(`${model} is not listed`);
    return found;
  };

  beforeAll(async () => {
    fake = await new HttpFake(
      openAiHandler({
        usage: { prompt_tokens: 1000, completion_tokens: 500, prompt_tokens_details: { cached_tokens: 200 } },
      }),
    ).start();
    t = await startTestApp();
    root = await t.root();
    await root.put('/api/option/', { key: 'GroupRatio', value: '{"default":1,"vip":1.5,"svip":2}' });
    await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
    await createChannel(root, {
      base_url: fake.url,
      group: 'default,vip',
      models: 'gpt-4o-mini,dall-e-3,sora-2,mystery-model',
    });
    await createChannel(root, { base_url: fake.url, group: 'svip', models: 'gpt-4' });
    vip = await createCustomer(t, 'vipper');
    await root.put('/api/user/', { id: vip.userId, group: 'vip' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("lists the models of the user's group only, and says which have no price of their own", async () => {
    const body = await sheet(vip.client);
    expect(body.success).toBe(true);
    const { groups, rows } = body.data!;
    expect(groups).toEqual(['vip']);
    expect(rows.map((r) => r.model)).toEqual(['dall-e-3', 'gpt-4o-mini', 'mystery-model', 'sora-2']);
    expect(rows.every((r) => r.group === 'vip')).toBe(true);
    expect(row(rows, 'mystery-model').listed).toBe(false);
    expect(row(rows, 'gpt-4o-mini')).toMatchObject({ listed: true, unit: 'tokens', varies: false });
    expect(row(rows, 'dall-e-3').unit).toBe('image');
    expect(row(rows, 'sora-2').unit).toBe('second');
  });

  it('prices a chat call exactly as billing charges it (cached tokens, group ratio)', async () => {
    const { rows } = (await sheet(vip.client)).data!;
    const price = row(rows, 'gpt-4o-mini');
    await vip.openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await t.app.services.relay.settled();
    const log = (await consumeLogs(t, vip.userId)).at(-1)!;
    // 1000 prompt tokens of which 200 were read from the cache, and 500 completion tokens.
    const expected = Math.ceil((800 * price.input + 200 * price.cacheRead! + 500 * price.output!) / MILLION);
    expect(Number(log.quota)).toBe(expected);
    expect(price.cacheRead).toBeLessThan(price.input);
  });

  it('prices a picture exactly as billing charges it', async () => {
    const { rows } = (await sheet(vip.client)).data!;
    await vip.openai.images.generate({ model: 'dall-e-3', prompt: 'a cat' });
    await t.app.services.relay.settled();
    const log = (await consumeLogs(t, vip.userId)).at(-1)!;
    expect(log.model_name).toBe('dall-e-3');
    expect(Number(log.quota)).toBe(row(rows, 'dall-e-3').input);
  });

  it('shows visitors nothing until root exposes the list, then only the exposed groups', async () => {
    const visitor = t.client();
    const closed = await visitor.get('/api/pricing/public');
    expect(closed.status).toBe(403);
    expect(closed.body).toMatchObject({ success: false, code: 'pricing_not_public' });
    expect((await visitor.get('/api/pricing')).status).toBe(401);

    await root.put('/api/option/', { key: 'PublicPricingEnabled', value: 'true' });
    const byDefault = (await sheet(visitor, '/api/pricing/public')).data!;
    expect(byDefault.groups).toEqual(['default']);
    expect(new Set(byDefault.rows.map((r) => r.group))).toEqual(new Set(['default']));
    // The default group's ratio is 1: two thirds of the vip price.
    const vipRows = (await sheet(vip.client)).data!.rows;
    expect(row(byDefault.rows, 'gpt-4o-mini').input * 1.5).toBe(row(vipRows, 'gpt-4o-mini').input);

    await root.put('/api/option/', { key: 'PublicPricingGroups', value: 'svip, vip' });
    const exposed = (await sheet(visitor, '/api/pricing/public')).data!;
    expect(exposed.groups).toEqual(['svip', 'vip']);
    expect(exposed.rows.map((r) => `${r.group}/${r.model}`)).toContain('svip/gpt-4');
    expect(exposed.rows.some((r) => r.group === 'default')).toBe(false);
    await root.put('/api/option/', { key: 'PublicPricingEnabled', value: 'false' });
  });

  it('shows the highest price of a model that channels of several types price differently', async () => {
    const before = row((await sheet(vip.client)).data!.rows, 'gpt-4o-mini');
    await root.put('/api/option/', { key: 'ModelRatio', value: '{"gpt-4o-mini(8)": 1}' });
    await createChannel(root, { type: 8, base_url: fake.url, group: 'vip', models: 'gpt-4o-mini' });
    const after = row((await sheet(vip.client)).data!.rows, 'gpt-4o-mini');
    expect(after.varies).toBe(true);
    expect(after.listed).toBe(true);
    // A ratio of 1 in the group vip (1.5): 1.5M quota per 1M input tokens, above the default's.
    expect(after.input).toBe(1_500_000);
    expect(after.input).toBeGreaterThan(before.input);
  });
});

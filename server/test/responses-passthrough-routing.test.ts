import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler } from './fakes/anthropic';
import { HttpFake } from './fakes/http-fake';
import { responsesHandler } from './fakes/openai-responses';
import { type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const MODEL = 'gpt-4o';
const KEY = 'sk-proj-passthrough-channel-key';

describe('/v1/responses pass-through retries, and translation elsewhere', () => {
  let t: TestApp;
  let failing: HttpFake;
  let healthy: HttpFake;
  let anthropic: HttpFake;
  let customer: Customer;
  let root: Awaited<ReturnType<TestApp['root']>>;

  beforeAll(async () => {
    failing = await new HttpFake(
      responsesHandler({ error: { status: 503, type: 'server_error', code: null } }),
    ).start();
    healthy = await new HttpFake(responsesHandler({ reply: 'from the second' })).start();
    anthropic = await new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'Bonjour from Claude' })).start();
    t = await startTestApp();
    root = await t.root();
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    await createChannel(root, { type: 1, base_url: failing.url, key: KEY, models: MODEL, priority: 10 });
    await createChannel(root, {
      type: 3,
      base_url: healthy.url,
      key: KEY,
      models: `${MODEL},gpt-4.1`,
      priority: 5,
    });
    await createChannel(root, {
      type: 14,
      base_url: anthropic.url,
      key: KEY,
      models: 'claude-sonnet-4-20250514',
    });
    customer = await createCustomer(t, 'passretry', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([failing.close(), healthy.close(), anthropic.close()]);
  });

  it('tries the next channel when the first fails before answering, with the same bytes, and bills once', async () => {
    for (const stream of [false, true]) {
      const request = { model: MODEL, input: 'x', store: false };
      const { quota, log } = await spentBy(t, customer, async () => {
        const response = stream
          ? await customer.openai.responses.stream(request).finalResponse()
          : await customer.openai.responses.create(request);
        expect(response.output_text).toBe('from the second');
      });
      expect(failing.requests.length).toBeGreaterThan(0);
      expect(healthy.last().body).toBe(failing.last().body);
      expect(healthy.last().url).toBe('/openai/v1/responses');
      expect(quota).toBe(expectedQuota(MODEL, 3, { prompt: 12, completion: 4 }));
      const channels = await root.get<EnvelopeBody<Array<{ base_url: string; id: number }>>>('/api/channel/');
      const second = channels.body.data!.find((channel) => channel.base_url === healthy.url)!;
      expect(log).toMatchObject({ channel_id: second.id, prompt_tokens: 12, completion_tokens: 4 });
    }
  });

  it("names Azure's deployment in the body's model: the model without dots, as for chat", async () => {
    await customer.openai.responses.create({ model: 'gpt-4.1', input: 'x', store: false });
    expect(healthy.last().body).toBe(JSON.stringify({ model: 'gpt-41', input: 'x', store: false }));
    expect(healthy.last().headers['api-key']).toBe(KEY);
  });

  it('translates for a channel of another format (Anthropic): chat in between, a Responses answer out', async () => {
    const response = await customer.openai.responses.create({
      model: 'claude-sonnet-4-20250514',
      input: 'Hello',
      max_output_tokens: 50,
    });
    expect(anthropic.last().url).toBe('/v1/messages');
    expect(anthropic.last().json).toMatchObject({ max_tokens: 50, messages: [{ role: 'user' }] });
    expect(response.output_text).toBe('Bonjour from Claude');
    const refused = await expectRefunded(t, customer, () =>
      customer.openai.responses.create({
        model: 'claude-sonnet-4-20250514',
        input: 'Hello',
        tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }],
      }),
    );
    expect(refused.error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused.error as InstanceType<typeof OpenAI.APIError>).code).toBe('unsupported_tool_type');
    expect(refused).toMatchObject({ refunded: true, logged: false });
    expect(response.id).toMatch(/^resp_/);
  });
});

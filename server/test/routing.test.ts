import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { type Customer, consumeLogs, createChannel, createCustomer, openAiFor } from './relay-setup';

/** What a caller of each client format is answered for `model`: its status, and its error body's names. */
async function refusalsFor(t: TestApp, customer: Customer, model: string) {
  const failure = (error: unknown) => error as { status?: number; error?: Record<string, unknown> };
  const claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
  const chat = failure(
    await customer.openai.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e),
  );
  const responses = failure(
    await customer.openai.responses.create({ model, input: 'hi' }).catch((e: unknown) => e),
  );
  const messages = failure(
    await claude.messages
      .create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e),
  );
  const gemini = await fetch(`${t.baseUrl}/v1beta/models/${model}:generateContent`, {
    method: 'POST',
    headers: { 'x-goog-api-key': `sk-${customer.token.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
  });
  const geminiError = ((await gemini.json()) as { error: { status: string } }).error;
  return {
    chat: [chat.status, chat.error?.code],
    responses: [responses.status, responses.error?.code],
    messages: [messages.status, (messages.error?.error as { type?: string } | undefined)?.type],
    gemini: [gemini.status, geminiError.status],
  };
}

const ask = (customer: Customer, model = 'gpt-4') =>
  customer.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('routing', () => {
  let t: TestApp;
  let root: Client;
  let fakes: HttpFake[];
  let customer: Customer;

  beforeAll(async () => {
    fakes = await Promise.all([0, 1, 2].map(() => new HttpFake(openAiHandler()).start()));
    t = await startTestApp();
    root = await t.root();
    customer = await createCustomer(t, 'router', { quota: 100_000_000, token: { unlimited_quota: true } });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });
  beforeEach(async () => {
    // Each test starts with no channels.
    for (const channel of (await root.get<EnvelopeBody<Array<{ id: number }>>>('/api/channel/')).body.data ??
      []) {
      await root.delete(`/api/channel/${channel.id}`);
    }
    await root.put('/api/option/', { key: 'RetryTimes', value: '0' });
    for (const fake of fakes) {
      fake.requests.length = 0;
      fake.use(openAiHandler());
    }
  });

  it('sends everything to the highest priority tier', async () => {
    await createChannel(root, { base_url: fakes[0]!.url, priority: 10 });
    await createChannel(root, { base_url: fakes[1]!.url, priority: 5 });
    for (let i = 0; i < 10; i++) await ask(customer);
    expect(fakes[0]!.requests).toHaveLength(10);
    expect(fakes[1]!.requests).toHaveLength(0);
  });

  it('spreads calls inside a tier in proportion to weight', async () => {
    await createChannel(root, { base_url: fakes[0]!.url, weight: 3 });
    await createChannel(root, { base_url: fakes[1]!.url, weight: 1 });
    await createChannel(root, { base_url: fakes[2]!.url, weight: 0 });
    const calls = 400;
    for (let i = 0; i < calls; i += 20) await Promise.all(Array.from({ length: 20 }, () => ask(customer)));
    const share = fakes[0]!.requests.length / calls;
    expect(share).toBeGreaterThan(0.65);
    expect(share).toBeLessThan(0.85);
    expect(fakes[1]!.requests.length).toBe(calls - fakes[0]!.requests.length);
    expect(fakes[2]!.requests).toHaveLength(0);
  });

  it('picks uniformly when every weight of the tier is 0', async () => {
    await createChannel(root, { base_url: fakes[0]!.url });
    await createChannel(root, { base_url: fakes[1]!.url });
    for (let i = 0; i < 200; i += 20) await Promise.all(Array.from({ length: 20 }, () => ask(customer)));
    expect(fakes[0]!.requests.length).toBeGreaterThan(60);
    expect(fakes[1]!.requests.length).toBeGreaterThan(60);
  });

  it('retries a failed call on another channel, falling to a lower tier', async () => {
    fakes[0]!.use(openAiError(503, 'overloaded', 'server_error'));
    await createChannel(root, { base_url: fakes[0]!.url, priority: 10 });
    await createChannel(root, { base_url: fakes[1]!.url, priority: 1 });
    await expect(ask(customer)).rejects.toMatchObject({ status: 503 });
    await root.put('/api/option/', { key: 'RetryTimes', value: '2' });
    const answer = await ask(customer);
    expect(answer.choices[0]?.message.content).toBe('Hello from the fake upstream');
    expect(fakes[0]!.requests).toHaveLength(2);
    expect(fakes[1]!.requests).toHaveLength(1);
    await t.app.services.relay.settled();
    const log = (await consumeLogs(t, customer.userId)).at(-1)!;
    expect(log.channel_id).not.toBe(0);
  });

  it('does not retry a client error', async () => {
    await root.put('/api/option/', { key: 'RetryTimes', value: '3' });
    fakes[0]!.use(openAiError(400, 'bad parameter', 'invalid_request_error'));
    await createChannel(root, { base_url: fakes[0]!.url, priority: 10 });
    await createChannel(root, { base_url: fakes[1]!.url, priority: 1 });
    await expect(ask(customer)).rejects.toMatchObject({ status: 400 });
    expect(fakes[1]!.requests).toHaveLength(0);
  });

  it('says the group is saturated when every channel is rate limited', async () => {
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    fakes[0]!.use(openAiError(429, 'Rate limit reached', 'requests'));
    fakes[1]!.use(openAiError(429, 'Rate limit reached', 'requests'));
    await createChannel(root, { base_url: fakes[0]!.url });
    await createChannel(root, { base_url: fakes[1]!.url });
    const error = await ask(customer).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429 });
    expect(String((error as Error).message)).toMatch(/saturated/);
  });

  it('maps the model for the upstream and bills by the requested name', async () => {
    await createChannel(root, { base_url: fakes[0]!.url, model_mapping: '{"gpt-4":"gpt-4-0613-custom"}' });
    await ask(customer, 'gpt-4');
    expect(fakes[0]!.last().json).toMatchObject({ model: 'gpt-4-0613-custom' });
    await t.app.services.relay.settled();
    expect((await consumeLogs(t, customer.userId)).at(-1)?.model_name).toBe('gpt-4');
  });

  it('lets an admin pin a channel with sk-KEY-ID, and refuses a normal user', async () => {
    await createChannel(root, { base_url: fakes[0]!.url, priority: 10 });
    const pinned = await createChannel(root, { base_url: fakes[1]!.url, priority: 1 });
    const admin = await createCustomer(t, 'pinadmin', { quota: 10_000_000 });
    await root.post('/api/user/manage', { username: 'pinadmin', action: 'promote' });
    t.app.services.identities.userChanged(admin.userId);
    await openAiFor(t, `sk-${admin.token.key}-${pinned}`).chat.completions.create({
      model: 'gpt-4',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fakes[1]!.requests).toHaveLength(1);
    const refused = await openAiFor(t, `sk-${customer.token.key}-${pinned}`)
      .chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, code: 'channel_pin_forbidden' });
    expect(String((refused as Error).message)).toMatch(/cannot pin a channel/);
  });

  it('routes by the user group', async () => {
    await createChannel(root, { base_url: fakes[0]!.url, group: 'default' });
    await createChannel(root, { base_url: fakes[1]!.url, group: 'vip' });
    const vip = await createCustomer(t, 'vipuser', { quota: 10_000_000 });
    await root.put('/api/user/', { id: vip.userId, group: 'vip' });
    await ask(vip);
    expect(fakes[1]!.requests).toHaveLength(1);
    expect(fakes[0]!.requests).toHaveLength(0);
  });

  it('disables a channel whose key the provider refuses, and moves on', async () => {
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    fakes[0]!.use(openAiError(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
    const dead = await createChannel(root, { base_url: fakes[0]!.url, priority: 10 });
    await createChannel(root, { base_url: fakes[1]!.url, priority: 1 });
    await ask(customer);
    const channel = await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${dead}`);
    expect(channel.body.data?.status).toBe(3);
    await ask(customer);
    expect(fakes[0]!.requests).toHaveLength(1);
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
  });

  it('answers a model no channel serves 404 in every client format, and one whose channels are all down 503', async () => {
    const served = await createChannel(root, { base_url: fakes[0]!.url, models: 'gpt-4' });
    const switchedOff = await createChannel(root, { base_url: fakes[1]!.url, models: 'gpt-switched-off' });
    await root.put('/api/channel/', { id: switchedOff, status: 2 });
    const notFound = {
      chat: [404, 'model_not_found'],
      responses: [404, 'model_not_found'],
      messages: [404, 'not_found_error'],
      gemini: [404, 'NOT_FOUND'],
    };
    // Unknown to every channel, and listed only by a channel an administrator switched off.
    expect(await refusalsFor(t, customer, 'gpt-nobody-serves')).toEqual(notFound);
    expect(await refusalsFor(t, customer, 'gpt-switched-off')).toEqual(notFound);
    // With their default retries the SDKs (and Claude Code on top of Anthropic's) ask once and give up.
    let asked = 0;
    const counting = (url: string | URL | Request, init?: RequestInit) => {
      asked += 1;
      return fetch(url, init);
    };
    const apiKey = `sk-${customer.token.key}`;
    const claude = new Anthropic({ apiKey, baseURL: t.baseUrl, fetch: counting });
    const openai = new OpenAI({ apiKey, baseURL: `${t.baseUrl}/v1`, fetch: counting });
    const hi = [{ role: 'user' as const, content: 'hi' }];
    await expect(
      claude.messages.create({ model: 'gpt-nobody-serves', max_tokens: 16, messages: hi }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      openai.chat.completions.create({ model: 'gpt-nobody-serves', messages: hi }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(asked).toBe(2);

    // The only channel of gpt-4 is switched off by the gateway after its key was refused: down, for now.
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    fakes[0]!.use(openAiError(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
    await expect(ask(customer)).rejects.toMatchObject({ status: 401 });
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    const channel = await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${served}`);
    expect(channel.body.data?.status).toBe(3);
    expect(await refusalsFor(t, customer, 'gpt-4')).toEqual({
      chat: [503, 'model_not_available'],
      responses: [503, 'model_not_available'],
      messages: [503, 'api_error'],
      gemini: [503, 'UNAVAILABLE'],
    });
    expect(fakes[0]!.requests).toHaveLength(1);
    expect(fakes[1]!.requests).toHaveLength(0);
  });
});

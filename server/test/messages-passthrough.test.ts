import Anthropic from '@anthropic-ai/sdk';
import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicHandler, type FakeAnthropicOptions } from './fakes/anthropic';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const MODEL = 'claude-sonnet-4-20250514';
const KEY = 'sk-ant-api03-passthrough-channel';
const GROUP_RATIO = 1.5;

/** The SDK's own requests and the exact bytes it received, through a recording fetch. */
function recordingClaude(apiKey: string, baseURL: string) {
  const exchanges: Array<{ body: string; answer: Promise<string> }> = [];
  const client = new Anthropic({
    apiKey,
    baseURL,
    maxRetries: 0,
    fetch: async (url: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(url, init);
      exchanges.push({ body: String(init?.body), answer: response.clone().text() });
      return response;
    },
  });
  return { client, exchanges, last: () => exchanges.at(-1)! };
}

/** (prompt + completion × completion ratio) × model ratio × group ratio, rounded up. */
const handPrice = (prompt: number, completion: number) =>
  Math.ceil(
    (prompt + completion * resolveCompletionRatio(MODEL, ANTHROPIC)) *
      resolveModelRatio(MODEL, ANTHROPIC) *
      GROUP_RATIO,
  );

describe('/v1/messages passed through to Anthropic channels', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let customer: Customer;
  let claude: ReturnType<typeof recordingClaude>;
  let sent: string[];

  const answer = (options: Omit<FakeAnthropicOptions, 'apiKey' | 'sent'>) => {
    sent = [];
    fake.use(anthropicHandler({ apiKey: KEY, sent, ...options }));
  };

  beforeAll(async () => {
    fake = await new HttpFake(anthropicHandler({ apiKey: KEY })).start();
    t = await startTestApp();
    root = await t.root();
    await root.put('/api/option/', {
      key: 'GroupRatio',
      value: JSON.stringify({ default: GROUP_RATIO, vip: 1, svip: 1 }),
    });
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: fake.url,
      key: KEY,
      models: `${MODEL},claude-latest`,
      model_mapping: JSON.stringify({ 'claude-latest': MODEL }),
    });
    customer = await createCustomer(t, 'passthrough', { quota: 100_000_000 });
    claude = recordingClaude(`sk-${customer.token.key}`, t.baseUrl);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('sends the client body untouched with the channel key, and answers the upstream bytes, billed by hand', async () => {
    answer({ reply: 'Bonjour', usage: { input_tokens: 31, output_tokens: 7 } });
    const { quota, log } = await spentBy(t, customer, () =>
      claude.client.messages.create(
        {
          model: MODEL,
          max_tokens: 2048,
          // Not in this SDK's types any more, but Anthropic's API takes it.
          ...({ top_k: 5 } as object),
          metadata: { user_id: 'customer-7' },
          thinking: { type: 'enabled', budget_tokens: 1024 },
          system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
          messages: [
            {
              role: 'user',
              content: [{ type: 'text', text: 'Hello 👋', cache_control: { type: 'ephemeral', ttl: '1h' } }],
            },
          ],
        },
        { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,extended-cache-ttl-2025-04-11' } },
      ),
    );
    const upstream = fake.last();
    expect(upstream.url).toBe('/v1/messages');
    expect(upstream.body).toBe(claude.last().body);
    expect(upstream.json).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 1024 },
      top_k: 5,
      system: [{ cache_control: { type: 'ephemeral' } }],
    });
    expect(upstream.headers['x-api-key']).toBe(KEY);
    expect(upstream.headers.authorization).toBeUndefined();
    expect(JSON.stringify(upstream.headers)).not.toContain(customer.token.key);
    expect(upstream.headers['anthropic-beta']).toBe(
      'interleaved-thinking-2025-05-14,extended-cache-ttl-2025-04-11',
    );
    expect(await claude.last().answer).toBe(sent[0]);
    expect(quota).toBe(handPrice(31, 7));
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 31, completion_tokens: 7, quota });
  });

  it('streams every event as the upstream sent it (thinking, signature, ping), byte for byte, billed', async () => {
    answer({
      thinking: { thinking: 'Let me think it over', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' },
      reply: 'The answer is 4',
      usage: { input_tokens: 20, output_tokens: 12 },
    });
    const events: string[] = [];
    let final: Anthropic.Message | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = claude.client.messages.stream({
        model: MODEL,
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'What is 2 + 2?' }],
      });
      stream.on('streamEvent', (event) => events.push(event.type));
      final = await stream.finalMessage();
    });
    expect(fake.last().body).toBe(claude.last().body);
    expect(await claude.last().answer).toBe(sent[0]);
    expect(sent[0]).toContain('event: ping\n');
    expect(sent[0]).toContain('"type":"signature_delta"');
    expect(events[0]).toBe('message_start');
    expect(final?.content).toEqual([
      { type: 'thinking', thinking: 'Let me think it over', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' },
      { type: 'text', text: 'The answer is 4' },
    ]);
    expect(quota).toBe(handPrice(20, 12));
    expect(log).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
  });

  it('ends a stream that breaks off with an Anthropic error event after the bytes that arrived', async () => {
    const head = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: MODEL,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 9, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'half an answer' } },
    ]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join('');
    fake.use((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(head, () => setTimeout(() => res.destroy(), 50));
    });
    const texts: string[] = [];
    let error: unknown;
    await spentBy(t, customer, async () => {
      const stream = claude.client.messages.stream({
        model: MODEL,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'x' }],
      });
      stream.on('text', (text) => texts.push(text));
      error = await stream.finalMessage().catch((e: unknown) => e);
    });
    expect(texts).toEqual(['half an answer']);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const received = await claude.last().answer;
    expect(received.startsWith(head)).toBe(true);
    expect(received.slice(head.length)).toMatch(
      /^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"The upstream answer broke off/,
    );
  });

  it('maps the model and nothing else', async () => {
    answer({ reply: 'ok' });
    await claude.client.messages.create({
      model: 'claude-latest',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'a "model": "claude-latest" in the text' }],
    });
    const clientBody = claude.last().body;
    expect(fake.last().body).toBe(
      clientBody.replace('{"model":"claude-latest"', `{"model":${JSON.stringify(MODEL)}`),
    );
    expect(fake.last().body).toContain('a \\"model\\": \\"claude-latest\\" in the text');
  });

  it('reads cache tokens from the native usage into prompt tokens', async () => {
    answer({
      reply: 'cached',
      usage: {
        input_tokens: 5,
        output_tokens: 3,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 40,
      },
    });
    const { log } = await spentBy(t, customer, () =>
      claude.client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'again' }],
      }),
    );
    // Anthropic's input_tokens leaves out cache reads and writes; our prompt tokens count them all.
    expect(log).toMatchObject({ prompt_tokens: 145, completion_tokens: 3 });
  });

  it.each([
    { status: 400, type: 'invalid_request_error', SdkError: Anthropic.BadRequestError },
    { status: 429, type: 'rate_limit_error', SdkError: Anthropic.RateLimitError },
    { status: 529, type: 'overloaded_error', SdkError: Anthropic.InternalServerError },
  ])('an upstream $status reaches the SDK as its own error type, refunded, unlogged', async (spec) => {
    answer({ error: { status: spec.status, type: spec.type, message: 'upstream says no' } });
    for (const stream of [false, true]) {
      const request = { model: MODEL, max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
      const { error, refunded, logged } = await expectRefunded(t, customer, () =>
        stream
          ? claude.client.messages.stream(request).finalMessage()
          : claude.client.messages.create(request),
      );
      expect(error).toBeInstanceOf(spec.SdkError);
      expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(spec.status);
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
        type: 'error',
        error: { type: spec.type },
      });
      if (spec.status !== 429) {
        // As the provider sent it (a 429 is the gateway's own "saturated" answer, in Anthropic's shape).
        expect(await claude.last().answer).toBe(
          JSON.stringify({
            type: 'error',
            error: { type: spec.type, message: 'upstream says no' },
            request_id: 'req_011FakeRequest',
          }),
        );
      }
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it('words an upstream error that is not in Anthropic shape itself (an HTML page is not passed on)', async () => {
    fake.use((_request, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const error = await claude.client.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringMatching(/bad response status code 502/) },
    });
    expect(await claude.last().answer).not.toContain('<html>');
  });

  it('lowers max_tokens, and only it, for an account that cannot pay the worst case', async () => {
    answer({ reply: 'short' });
    const poor = await createCustomer(t, 'poorclaude', {
      quota: 4_000_000,
      token: { remain_quota: 100_000_000 },
    });
    const { client, last } = recordingClaude(`sk-${poor.token.key}`, t.baseUrl);
    await client.messages
      .stream({ model: MODEL, max_tokens: 64_000, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    const lowered = Number(fake.last().json?.max_tokens);
    expect(lowered).toBeGreaterThan(0);
    expect(lowered).toBeLessThan(64_000);
    expect(fake.last().body).toBe(last().body.replace('"max_tokens":64000', `"max_tokens":${lowered}`));
  });

  it('counts tokens on the Anthropic channel, unbilled and unlogged', async () => {
    answer({ countTokens: 1234 });
    const { quota, log } = await spentBy(t, customer, async () => {
      const counted = await claude.client.messages.countTokens(
        {
          model: 'claude-latest',
          system: 'Be brief.',
          thinking: { type: 'enabled', budget_tokens: 1024 },
          messages: [{ role: 'user', content: 'How many?' }],
        },
        { headers: { 'anthropic-beta': 'token-counting-2024-11-01' } },
      );
      expect(counted).toEqual({ input_tokens: 1234 });
    });
    expect(fake.last().url).toBe('/v1/messages/count_tokens');
    expect(fake.last().headers['x-api-key']).toBe(KEY);
    expect(fake.last().headers['anthropic-beta']).toBe('token-counting-2024-11-01');
    expect(fake.last().body).toBe(
      claude.last().body.replace('"model":"claude-latest"', `"model":${JSON.stringify(MODEL)}`),
    );
    expect(quota).toBe(0);
    expect(log?.prompt_tokens).not.toBe(1234);
  });

  it('takes count_tokens with a Bearer key too', async () => {
    answer({ countTokens: 7 });
    const response = await fetch(`${t.baseUrl}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ input_tokens: 7 });
    const refused = await fetch(`${t.baseUrl}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [] }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('refuses count_tokens for a model the key may not use, in Anthropic shape', async () => {
    const limited = await createCustomer(t, 'limitedcount', { token: { models: 'gpt-4o' } });
    const other = new Anthropic({ apiKey: `sk-${limited.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
    const error = await other.messages
      .countTokens({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'permission_error' },
    });
  });
});

describe('/v1/messages pass-through retries and count_tokens elsewhere', () => {
  let t: TestApp;
  let root: Client;
  let failing: HttpFake;
  let healthy: HttpFake;
  let openAi: HttpFake;
  let customer: Customer;
  let claude: Anthropic;

  beforeAll(async () => {
    failing = await new HttpFake(
      anthropicHandler({ apiKey: KEY, error: { status: 529, type: 'overloaded_error' } }),
    ).start();
    healthy = await new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'from the second' })).start();
    openAi = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    root = await t.root();
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: failing.url,
      key: KEY,
      models: MODEL,
      priority: 10,
    });
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: healthy.url,
      key: KEY,
      models: MODEL,
      priority: 5,
    });
    await createChannel(root, { base_url: openAi.url, models: 'gpt-4o' });
    customer = await createCustomer(t, 'retrying', { quota: 100_000_000 });
    claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([failing.close(), healthy.close(), openAi.close()]);
  });

  it('tries the next channel when the first fails before answering, and bills once', async () => {
    for (const stream of [false, true]) {
      const request = { model: MODEL, max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
      const { quota, log } = await spentBy(t, customer, async () => {
        const message = stream
          ? await claude.messages.stream(request).finalMessage()
          : await claude.messages.create(request);
        expect(message.content).toEqual([{ type: 'text', text: 'from the second' }]);
      });
      expect(failing.requests.length).toBeGreaterThan(0);
      expect(healthy.last().body).toBe(failing.last().body);
      expect(quota).toBeGreaterThan(0);
      expect(log).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, quota });
      const channels = await root.get<EnvelopeBody<Array<{ base_url: string; id: number }>>>('/api/channel/');
      const second = channels.body.data!.find((channel) => channel.base_url === healthy.url)!;
      expect(log?.channel_id).toBe(second.id);
    }
  });

  it('counts tokens on the next channel when the first fails, unbilled and unlogged', async () => {
    const failedBefore = failing.requests.length;
    const logsBefore = (await consumeLogs(t, customer.userId)).length;
    const { quota } = await spentBy(t, customer, async () => {
      const counted = await claude.messages.countTokens({
        model: MODEL,
        messages: [{ role: 'user', content: 'How many?' }],
      });
      expect(counted).toEqual({ input_tokens: 42 });
    });
    expect(failing.requests.slice(failedBefore).map((request) => request.url)).toEqual([
      '/v1/messages/count_tokens',
    ]);
    expect(healthy.last().url).toBe('/v1/messages/count_tokens');
    expect(healthy.last().body).toBe(failing.last().body);
    expect(quota).toBe(0);
    expect(await consumeLogs(t, customer.userId)).toHaveLength(logsBefore);
  });

  it("tells channel health of a count the channel refused, and passes the refusal on in Anthropic's shape", async () => {
    const model = 'claude-dead-key';
    const dead = await createChannel(root, {
      type: ANTHROPIC,
      base_url: healthy.url,
      key: 'sk-ant-revoked',
      models: model,
    });
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    try {
      const error = await claude.messages
        .countTokens({ model, messages: [{ role: 'user', content: 'x' }] })
        .catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
        request_id: 'req_011FakeRequest',
      });
    } finally {
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    }
    const channel = await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${dead}`);
    expect(channel.body.data?.status).toBe(3);
  });

  it('counts tokens with our tokenizer on a channel of another format', async () => {
    const counted = await claude.messages.countTokens({
      model: 'gpt-4o',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello there, how many tokens is this?' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    expect(counted.input_tokens).toBeLessThan(40);
    expect(openAi.requests).toHaveLength(0);
  });
});

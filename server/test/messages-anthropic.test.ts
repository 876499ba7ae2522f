import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { anthropicHandler, type FakeAnthropicOptions } from './fakes/anthropic';
import { HttpFake } from './fakes/http-fake';
import { type Client, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const MODEL = 'claude-3-5-sonnet-20241022';
const KEY = 'sk-ant-api03-channel';

/** Claude-native clients on /v1/messages, served by an Anthropic channel: passed through untouched. */
describe('/v1/messages (Anthropic format) over an Anthropic channel', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let customer: Customer;
  let claude: Anthropic;
  let channelId: number;

  const answer = (options: Omit<FakeAnthropicOptions, 'apiKey'>) =>
    fake.use(anthropicHandler({ apiKey: KEY, ...options }));

  beforeAll(async () => {
    fake = await new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'hi' })).start();
    t = await startTestApp();
    root = await t.root();
    channelId = await createChannel(root, { type: ANTHROPIC, base_url: fake.url, key: KEY, models: MODEL });
    // A limited token: charges show on the token as well as on the user.
    customer = await createCustomer(t, 'claudenative', { quota: 100_000_000 });
    claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers a message with the channel key upstream, the provider id and usage, billed exactly', async () => {
    answer({ reply: 'Bonjour tout le monde', usage: { input_tokens: 31, output_tokens: 7 } });
    let message: Anthropic.Message | undefined;
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      message = await claude.messages.create({
        model: MODEL,
        max_tokens: 256,
        system: 'Answer in French.',
        stop_sequences: ['END'],
        metadata: { user_id: 'customer-7' },
        messages: [
          { role: 'user', content: 'Hello world' },
          { role: 'assistant', content: 'Sure:' },
          { role: 'user', content: [{ type: 'text', text: 'In French please' }] },
        ],
      });
    });
    expect(message).toEqual({
      id: 'msg_01FakeMessage',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'Bonjour tout le monde' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 31, output_tokens: 7 },
    });
    const upstream = fake.last();
    expect(upstream.url).toBe('/v1/messages');
    expect(upstream.headers['x-api-key']).toBe(KEY);
    // The client's own API version goes along with its untouched body.
    expect(upstream.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.json).toEqual({
      model: MODEL,
      system: 'Answer in French.',
      max_tokens: 256,
      stop_sequences: ['END'],
      metadata: { user_id: 'customer-7' },
      messages: [
        { role: 'user', content: 'Hello world' },
        { role: 'assistant', content: 'Sure:' },
        { role: 'user', content: [{ type: 'text', text: 'In French please' }] },
      ],
    });
    const expected = expectedQuota(MODEL, ANTHROPIC, { prompt: 31, completion: 7 });
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: MODEL,
      prompt_tokens: 31,
      completion_tokens: 7,
      quota: expected,
    });
  });

  it('streams events the SDK assembles, with the final usage, billed from the last usage report', async () => {
    answer({ reply: 'alpha beta gamma', usage: { input_tokens: 12, output_tokens: 9 } });
    const texts: string[] = [];
    const events: string[] = [];
    let final: Anthropic.Message | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = claude.messages.stream({
        model: MODEL,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Stream please' }],
      });
      stream.on('text', (text) => texts.push(text));
      stream.on('streamEvent', (event) => events.push(event.type));
      final = await stream.finalMessage();
    });
    expect(fake.last().json).toMatchObject({ model: MODEL, stream: true, max_tokens: 64 });
    expect(fake.last().headers.accept).toBe('text/event-stream');
    expect(texts).toEqual(['alpha', ' beta', ' gamma']);
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(final).toMatchObject({
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'alpha beta gamma' }],
      stop_reason: 'end_turn',
      usage: { output_tokens: 9 },
    });
    const expected = expectedQuota(MODEL, ANTHROPIC, { prompt: 12, completion: 9 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 9, quota: expected });
    expect(Boolean(log?.is_stream)).toBe(true);
  });

  const tools: Anthropic.Tool[] = [
    {
      name: 'get_weather',
      description: 'Weather of a city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ];
  const toolUse = { id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris', unit: 'c' } };

  it('tool use: definitions and choice go upstream, the tool_use block comes back, billed', async () => {
    answer({ toolUse, usage: { input_tokens: 50, output_tokens: 20 } });
    let message: Anthropic.Message | undefined;
    const { quota } = await spentBy(t, customer, async () => {
      message = await claude.messages.create({
        model: MODEL,
        max_tokens: 100,
        tools,
        tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
    });
    expect(fake.last().json).toMatchObject({
      tools,
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    });
    expect(message).toMatchObject({
      content: [{ type: 'tool_use', ...toolUse }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 50, output_tokens: 20 },
    });
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 50, completion: 20 }));

    // The result goes back as Anthropic blocks on the same turn structure.
    answer({ reply: 'It is 21 °C.' });
    const followUp = await claude.messages.create({
      model: MODEL,
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: message!.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '21' },
            { type: 'text', text: 'Answer briefly' },
          ],
        },
      ],
    });
    expect(followUp.content).toEqual([{ type: 'text', text: 'It is 21 °C.' }]);
    expect(fake.last().json).toMatchObject({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', ...toolUse }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '21' },
            { type: 'text', text: 'Answer briefly' },
          ],
        },
      ],
    });
  });

  it('tool use streamed: the SDK assembles the input from the partial JSON', async () => {
    answer({ reply: 'Let me check.', toolUse, usage: { input_tokens: 40, output_tokens: 15 } });
    let final: Anthropic.Message | undefined;
    const { quota } = await spentBy(t, customer, async () => {
      final = await claude.messages
        .stream({ model: MODEL, max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather?' }] })
        .finalMessage();
    });
    expect(final).toMatchObject({
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', ...toolUse },
      ],
      stop_reason: 'tool_use',
      usage: { output_tokens: 15 },
    });
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 40, completion: 15 }));
  });

  it.each([
    { status: 400, type: 'invalid_request_error', SdkError: Anthropic.BadRequestError },
    { status: 529, type: 'overloaded_error', SdkError: Anthropic.InternalServerError },
  ])('an upstream $status $type reaches the client in Anthropic shape, refunded, unlogged', async (spec) => {
    answer({ error: { status: spec.status, type: spec.type, message: 'prompt is too long' } });
    for (const stream of [false, true]) {
      const { error, refunded, logged } = await expectRefunded(t, customer, () =>
        stream
          ? claude.messages
              .stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
              .finalMessage()
          : claude.messages.create({
              model: MODEL,
              max_tokens: 10,
              messages: [{ role: 'user', content: 'x' }],
            }),
      );
      expect(error).toBeInstanceOf(spec.SdkError);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.status).toBe(spec.status);
      expect(apiError.error).toMatchObject({
        type: 'error',
        error: { type: spec.type, message: expect.stringContaining('prompt is too long') },
      });
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it('an error event half-way through a stream reaches the client as an error event; what arrived is billed', async () => {
    answer({
      reply: 'partial answer here',
      streamError: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const texts: string[] = [];
    let error: unknown;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = claude.messages.stream({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      });
      stream.on('text', (text) => texts.push(text));
      error = await stream.finalMessage().catch((e: unknown) => e);
    });
    expect(texts).toEqual(['partial']);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String((error as Error).message)).toMatch(/overloaded_error.*Overloaded/);
    // message_start reported 10 input tokens; the answer broke off, so its delivered text is counted.
    const completion = createTokenCounter(() => false).text('partial', MODEL);
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 10, completion }));
    expect(log).toMatchObject({ prompt_tokens: 10, completion_tokens: completion });
  });
});

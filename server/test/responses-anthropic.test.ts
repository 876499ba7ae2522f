import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler, type FakeAnthropicOptions } from './fakes/anthropic';
import { HttpFake } from './fakes/http-fake';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const MODEL = 'claude-3-5-sonnet-20241022';
const KEY = 'sk-ant-api03-channel';

/** Responses API clients served by an Anthropic channel: Responses → chat → Anthropic, and back. */
describe('/v1/responses over an Anthropic channel', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let channelId: number;
  const answer = (options: Omit<FakeAnthropicOptions, 'apiKey'>) =>
    fake.use(anthropicHandler({ apiKey: KEY, ...options }));

  beforeAll(async () => {
    fake = await new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'hi' })).start();
    t = await startTestApp();
    const root = await t.root();
    channelId = await createChannel(root, { type: ANTHROPIC, base_url: fake.url, key: KEY, models: MODEL });
    customer = await createCustomer(t, 'respclaude', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a response from a Claude message: the Anthropic request upstream, billed from its usage', async () => {
    answer({ reply: 'Bonjour', usage: { input_tokens: 31, output_tokens: 7 } });
    let response: OpenAI.Responses.Response | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      response = await customer.openai.responses.create({
        model: MODEL,
        instructions: 'Answer in French.',
        input: 'Hello',
        max_output_tokens: 200,
      });
    });
    expect(fake.last().url).toBe('/v1/messages');
    expect(fake.last().json).toMatchObject({
      model: MODEL,
      system: 'Answer in French.',
      max_tokens: 200,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: MODEL,
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Bonjour' }] }],
      usage: { input_tokens: 31, output_tokens: 7, total_tokens: 38 },
    });
    const expected = expectedQuota(MODEL, ANTHROPIC, { prompt: 31, completion: 7 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      prompt_tokens: 31,
      completion_tokens: 7,
      quota: expected,
    });
  });

  const tools: OpenAI.Responses.Tool[] = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: false,
    },
  ];
  const toolUse = { id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } };

  it('tool use comes back as a function_call item; its output goes back as a tool_result', async () => {
    answer({ toolUse, usage: { input_tokens: 50, output_tokens: 20 } });
    const first = await customer.openai.responses.create({ model: MODEL, input: 'Weather in Paris?', tools });
    expect(fake.last().json).toMatchObject({
      tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' } }],
    });
    expect(first.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'toolu_01A',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      }),
    ]);

    answer({ reply: 'Sunny, 21 °C.' });
    const followUp = await customer.openai.responses.create({
      model: MODEL,
      tools,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'toolu_01A', output: '21 and sunny' },
      ],
    });
    expect(followUp.output_text).toBe('Sunny, 21 °C.');
    expect(fake.last().json).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', ...toolUse }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '21 and sunny' }],
        },
      ],
    });
  });

  it('streamed: text and a function call as typed events; finalResponse() whole; billed', async () => {
    answer({ reply: 'Let me check.', toolUse, usage: { input_tokens: 40, output_tokens: 15 } });
    const types: string[] = [];
    let final: OpenAI.Responses.Response | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = customer.openai.responses.stream({ model: MODEL, input: 'Weather?', tools });
      stream.on('event', (event) => types.push(event.type));
      final = await stream.finalResponse();
    });
    expect(fake.last().json).toMatchObject({ stream: true });
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(final).toMatchObject({
      status: 'completed',
      output: [
        { type: 'message', content: [{ type: 'output_text', text: 'Let me check.' }] },
        { type: 'function_call', call_id: 'toolu_01A', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      usage: { input_tokens: 40, output_tokens: 15 },
    });
    const expected = expectedQuota(MODEL, ANTHROPIC, { prompt: 40, completion: 15 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 40, completion_tokens: 15, quota: expected });
  });

  it('max_tokens reached: the Anthropic stop becomes an incomplete response', async () => {
    answer({ reply: 'Once upon', stopReason: 'max_tokens' });
    const response = await customer.openai.responses.create({
      model: MODEL,
      input: 'Story',
      max_output_tokens: 2,
    });
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });
});

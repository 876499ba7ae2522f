import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { type ScriptedAnswer, scriptedChatHandler } from './fakes/openai-scripted';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const OPENAI = 1;
const MODEL = 'gpt-4o';
/** The custom channel type: OpenAI-compatible, reached through the chat translation. */
const CUSTOM = 8;

/** OpenAI SDK clients on /v1/responses, served by an OpenAI channel through the chat pipeline. */
describe('/v1/responses (OpenAI Responses API) over an OpenAI chat channel', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let channelId: number;
  let script: ScriptedAnswer = { content: 'Hello there' };
  const answer = (next: ScriptedAnswer) => {
    script = next;
  };
  const upstreamBody = () => fake.last().json as Record<string, unknown>;

  beforeAll(async () => {
    fake = await new HttpFake(scriptedChatHandler(() => script)).start();
    t = await startTestApp();
    const root = await t.root();
    // An OpenAI-compatible channel that speaks chat only: translated (OpenAI and Azure pass through).
    channelId = await createChannel(root, { type: CUSTOM, base_url: fake.url, models: `${MODEL},o3-mini` });
    customer = await createCustomer(t, 'responder', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a string input with instructions: a chat call upstream, a response object back, billed exactly', async () => {
    answer({
      content: 'Bonjour tout le monde',
      usage: { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 },
    });
    let response: OpenAI.Responses.Response | undefined;
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      response = await customer.openai.responses.create({
        model: MODEL,
        instructions: 'Answer in French.',
        input: 'Hello world',
        max_output_tokens: 256,
        temperature: 0.2,
        top_p: 0.9,
        user: 'customer-7',
        metadata: { ticket: '42' },
        store: false,
      });
    });
    expect(fake.last().url).toBe('/v1/chat/completions');
    expect(upstreamBody()).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello world' },
      ],
      max_completion_tokens: 256,
      temperature: 0.2,
      top_p: 0.9,
      user: 'customer-7',
    });
    expect(response).toMatchObject({
      id: expect.stringMatching(/^resp_\d+$/),
      object: 'response',
      status: 'completed',
      model: MODEL,
      instructions: 'Answer in French.',
      max_output_tokens: 256,
      metadata: { ticket: '42' },
      store: false,
      error: null,
      incomplete_details: null,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          id: expect.stringMatching(/^msg_/),
          content: [{ type: 'output_text', text: 'Bonjour tout le monde', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 31,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 7,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 38,
      },
    });
    expect(response!.output_text).toBe('Bonjour tout le monde');
    expect(response!.created_at).toBeGreaterThan(1_700_000_000);
    const expected = expectedQuota(MODEL, OPENAI, { prompt: 31, completion: 7 });
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: MODEL,
      prompt_tokens: 31,
      completion_tokens: 7,
    });
  });

  it('message items: developer, user text and images, earlier assistant turns, as chat messages', async () => {
    answer({ content: 'Noted' });
    await customer.openai.responses.create({
      model: MODEL,
      input: [
        { role: 'developer', content: 'Be terse.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
          ],
        },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_earlier',
          status: 'completed',
          content: [{ type: 'output_text', text: 'A cat.', annotations: [] }],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Sure?' }] },
      ],
    });
    expect(upstreamBody().messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ],
      },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'Sure?' },
    ]);
  });

  const tools: OpenAI.Responses.Tool[] = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: true,
    },
  ];

  it('function tools: a call comes back as a function_call item, its output goes back as a tool message', async () => {
    answer({
      toolCalls: [{ id: 'call_abc', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
    });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await customer.openai.responses.create({
      model: MODEL,
      input,
      tools,
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    });
    expect(upstreamBody()).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: tools[0]!.type === 'function' ? tools[0]!.parameters : {},
            strict: true,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
    expect(first.status).toBe('completed');
    expect(first.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_abc',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);

    answer({ content: 'It is 21 °C in Paris.' });
    const followUp = await customer.openai.responses.create({
      model: MODEL,
      tools,
      input: [
        ...input,
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_abc', output: '21' },
      ],
    });
    expect(followUp.output_text).toBe('It is 21 °C in Paris.');
    expect(upstreamBody().messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_abc',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: '21' },
    ]);
  });

  it('text.format json_schema becomes response_format; reasoning.effort becomes reasoning_effort', async () => {
    answer({ content: '{"city":"Paris","celsius":21}' });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
    };
    const response = await customer.openai.responses.create({
      model: MODEL,
      input: 'Weather as JSON',
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_schema', name: 'weather', schema, strict: true } },
    });
    expect(upstreamBody()).toMatchObject({
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } },
    });
    expect(JSON.parse(response.output_text)).toEqual({ city: 'Paris', celsius: 21 });
    expect(response.text).toEqual({ format: { type: 'json_schema', name: 'weather', schema, strict: true } });

    answer({ content: '{}' });
    await customer.openai.responses.create({
      model: MODEL,
      input: 'JSON',
      text: { format: { type: 'json_object' } },
    });
    expect(upstreamBody().response_format).toEqual({ type: 'json_object' });
  });

  it('a reasoning text and the usage details (cached and reasoning tokens) come back', async () => {
    answer({
      reasoning: 'The user greets me.',
      content: 'Hi!',
      usage: {
        prompt_tokens: 40,
        completion_tokens: 30,
        total_tokens: 70,
        prompt_tokens_details: { cached_tokens: 32 },
        completion_tokens_details: { reasoning_tokens: 25 },
      },
    });
    const response = await customer.openai.responses.create({ model: 'o3-mini', input: 'Hello' });
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^rs_/),
        type: 'reasoning',
        status: 'completed',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'The user greets me.' }],
      },
      expect.objectContaining({
        type: 'message',
        content: [{ type: 'output_text', text: 'Hi!', annotations: [] }],
      }),
    ]);
    expect(response.usage).toEqual({
      input_tokens: 40,
      input_tokens_details: { cached_tokens: 32 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 25 },
      total_tokens: 70,
    });
  });

  it('max_output_tokens reached: status incomplete, reason max_output_tokens', async () => {
    answer({ content: 'This answer was cut', finishReason: 'length' });
    const response = await customer.openai.responses.create({
      model: MODEL,
      input: 'Long story',
      max_output_tokens: 5,
    });
    expect(upstreamBody().max_completion_tokens).toBe(5);
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });
});

import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler } from './fakes/anthropic';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const CLAUDE = 'claude-sonnet-4-20250514';
const REASONER = 'deepseek-reasoner';
const KEY = 'sk-ant-api03-translation';

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Thinking ⇄ reasoning_content and tool use, translated between Anthropic's and OpenAI's formats. */
describe('thinking and tool use across formats', () => {
  let t: TestApp;
  let root: Client;
  let openAiFake: HttpFake;
  let anthropicFake: HttpFake;
  let customer: Customer;
  let claude: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    openAiFake = await new HttpFake(openAiHandler()).start();
    anthropicFake = await new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'hi' })).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: openAiFake.url, models: REASONER });
    await createChannel(root, { type: ANTHROPIC, base_url: anthropicFake.url, key: KEY, models: CLAUDE });
    customer = await createCustomer(t, 'translator', { quota: 100_000_000 });
    claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
    openai = customer.openai;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([openAiFake.close(), anthropicFake.close()]);
  });

  describe('a Claude client on an OpenAI-format channel', () => {
    const toolCall = { id: 'call_7', name: 'get_weather', arguments: '{"city":"Oslo"}' };

    it('gets reasoning_content as a thinking block and a tool call as tool_use', async () => {
      openAiFake.use(openAiHandler({ reasoning: 'The user wants weather.', reply: 'Checking.', toolCall }));
      const message = await claude.messages.create({
        model: REASONER,
        max_tokens: 200,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      });
      expect(message.content).toEqual([
        { type: 'thinking', thinking: 'The user wants weather.', signature: '' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
      expect(message.stop_reason).toBe('tool_use');
    });

    it('streams reasoning as thinking_delta and the tool call as input_json_delta', async () => {
      openAiFake.use(openAiHandler({ reasoning: 'Let me see it', reply: '', toolCall }));
      const deltas: string[] = [];
      const stream = claude.messages.stream({
        model: REASONER,
        max_tokens: 200,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      });
      stream.on('streamEvent', (event) => {
        if (event.type === 'content_block_delta') deltas.push(event.delta.type);
      });
      const final = await stream.finalMessage();
      expect(deltas).toContain('thinking_delta');
      expect(deltas).toContain('input_json_delta');
      expect(final.content).toEqual([
        { type: 'thinking', thinking: 'Let me see it', signature: '' },
        { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
      expect(final.stop_reason).toBe('tool_use');
    });

    it('reports cached prompt tokens the way Anthropic does (apart from input_tokens)', async () => {
      openAiFake.use(
        openAiHandler({
          reply: 'ok',
          usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 60 } },
        }),
      );
      const request = {
        model: REASONER,
        max_tokens: 20,
        messages: [{ role: 'user' as const, content: 'x' }],
      };
      const expected = { input_tokens: 40, output_tokens: 5, cache_read_input_tokens: 60 };
      expect((await claude.messages.create(request)).usage).toMatchObject(expected);
      expect((await claude.messages.stream(request).finalMessage()).usage).toMatchObject(expected);
    });

    it('sends earlier thinking back as reasoning_content and tool results as tool messages', async () => {
      openAiFake.use(openAiHandler({ reply: 'Cold.' }));
      const message = await claude.messages.create({
        model: REASONER,
        max_tokens: 200,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather in Oslo?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Need the tool.', signature: '' },
              { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Oslo' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: '-3' }] },
        ],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'Cold.' }]);
      expect(openAiFake.last().json).toMatchObject({
        messages: [
          { role: 'user', content: 'Weather in Oslo?' },
          {
            role: 'assistant',
            reasoning_content: 'Need the tool.',
            tool_calls: [{ id: 'call_7', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_7', content: '-3' },
        ],
      });
    });
  });

  describe('an OpenAI client on an Anthropic channel', () => {
    const thinking = { thinking: 'Two and two make four', signature: 'EqQBCgIYAhIM' };

    it('gets thinking blocks as reasoning_content, and its thinking request goes upstream', async () => {
      anthropicFake.use(anthropicHandler({ apiKey: KEY, thinking, reply: '4' }));
      const completion = await openai.chat.completions.create({
        model: CLAUDE,
        max_tokens: 4096,
        messages: [{ role: 'user', content: '2 + 2?' }],
        // @ts-expect-error Anthropic's extension, as its OpenAI-compatible API takes it
        thinking: { type: 'enabled', budget_tokens: 2048 },
      });
      const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & {
        reasoning_content?: string;
      };
      expect(message.content).toBe('4');
      expect(message.reasoning_content).toBe('Two and two make four');
      expect(anthropicFake.last().json).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    });

    it('streams thinking_delta as reasoning_content deltas', async () => {
      anthropicFake.use(anthropicHandler({ apiKey: KEY, thinking, reply: 'It is 4' }));
      const stream = await openai.chat.completions.create({
        model: CLAUDE,
        max_tokens: 4096,
        stream: true,
        messages: [{ role: 'user', content: '2 + 2?' }],
      });
      let reasoning = '';
      let text = '';
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
        reasoning += delta?.reasoning_content ?? '';
        text += delta?.content ?? '';
      }
      expect(reasoning).toBe('Two and two make four');
      expect(text).toBe('It is 4');
    });

    it('calls tools both ways: tool_use comes back as tool_calls, tool messages go as tool_result', async () => {
      const toolUse = { id: 'toolu_9', name: 'get_weather', input: { city: 'Lima' } };
      anthropicFake.use(anthropicHandler({ apiKey: KEY, toolUse }));
      const completion = await openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Weather in Lima?' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              parameters: weatherTool.input_schema as Record<string, unknown>,
            },
          },
        ],
      });
      const call = completion.choices[0]!.message
        .tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call).toMatchObject({
        id: 'toolu_9',
        function: { name: 'get_weather', arguments: '{"city":"Lima"}' },
      });
      anthropicFake.use(anthropicHandler({ apiKey: KEY, reply: 'Mild.' }));
      await openai.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'user', content: 'Weather in Lima?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: 'toolu_9', content: '18' },
        ],
      });
      expect(anthropicFake.last().json).toMatchObject({
        messages: [
          { role: 'user' },
          { role: 'assistant', content: [{ type: 'tool_use', ...toolUse }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: '18' }] },
        ],
      });
    });
  });
});

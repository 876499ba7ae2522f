import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { balances, type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

describe('/v1/messages (Anthropic format) over an OpenAI channel', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let customer: Customer;
  let claude: Anthropic;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'Bonjour tout le monde' })).start();
    t = await startTestApp();
    root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-4o,claude-3-haiku-20240307' });
    customer = await createCustomer(t, 'claudefan');
    claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers a message, converting the request and the answer, and bills it', async () => {
    const before = await balances(t, customer.userId, customer.token.id);
    const message = await claude.messages.create({
      model: 'gpt-4o',
      max_tokens: 256,
      system: 'Answer in French.',
      messages: [{ role: 'user', content: 'Hello world' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Bonjour tout le monde' }],
      usage: { input_tokens: 11, output_tokens: 7 },
    });
    expect(fake.last().json).toMatchObject({
      model: 'gpt-4o',
      max_tokens: 256,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello world' },
      ],
    });
    await t.app.services.relay.settled();
    const log = (await consumeLogs(t, customer.userId)).at(-1)!;
    expect(log).toMatchObject({ model_name: 'gpt-4o', prompt_tokens: 11, completion_tokens: 7 });
    expect(before.quota - (await balances(t, customer.userId, customer.token.id)).quota).toBe(log.quota);
  });

  it('streams Anthropic events that the SDK assembles', async () => {
    const stream = claude.messages.stream({
      model: 'gpt-4o',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Stream please' }],
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(texts.join('')).toBe('Bonjour tout le monde');
    expect(final.content).toHaveLength(1);
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Bonjour tout le monde' });
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(7);
  });

  it('carries tool definitions and tool results across', async () => {
    await claude.messages.create({
      model: 'gpt-4o',
      max_tokens: 100,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
      ],
    });
    expect(fake.last().json).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'toolu_1', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      ],
    });
  });

  it('answers errors in Anthropic shape', async () => {
    const bad = new Anthropic({ apiKey: 'sk-wrong', baseURL: t.baseUrl, maxRetries: 0 });
    const error = await bad.messages
      .create({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    const response = await fetch(`${t.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': `sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/max_tokens/) },
    });
  });
});

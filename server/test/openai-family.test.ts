import { CHANNEL_TYPES } from '@switchyard/contract/channel-types';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

interface Case {
  type: number;
  /** A model the type serves (priced, so the bill is not the unknown-model fallback). */
  model: string;
  /** A path the real base URL carries, kept in front of the fake's. */
  basePath?: string;
  /** What the fake must receive for chat: path and query. */
  url: string;
  /** Headers the upstream must receive (authentication, product headers). */
  headers: Record<string, string | RegExp>;
  /** Headers that must not reach the upstream. */
  absent?: string[];
  /** Whether streams ask for a usage chunk (`stream_options.include_usage`). */
  streamUsage: boolean;
  other?: string;
}

const CHAT = '/v1/chat/completions';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const proxy = (type: number): Case => ({
  type,
  model: 'gpt-3.5-turbo',
  url: CHAT,
  headers: bearer(`key-of-${type}`),
  streamUsage: true,
});
const direct = (type: number, model: string, extra: Partial<Case> = {}): Case => ({
  type,
  model,
  url: CHAT,
  headers: bearer(`key-of-${type}`),
  streamUsage: false,
  ...extra,
});

/** Every channel type that speaks OpenAI's wire format, with what makes it different. */
const CASES: Case[] = [
  proxy(1),
  proxy(2),
  {
    type: 3,
    model: 'gpt-3.5-turbo',
    // The deployment is named after the model without dots; the API version comes from `other`.
    url: '/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-02-15-preview',
    headers: { 'api-key': 'key-of-3' },
    absent: ['authorization'],
    streamUsage: true,
    other: '2024-02-15-preview',
  },
  proxy(4),
  proxy(5),
  proxy(6),
  proxy(7),
  proxy(8),
  proxy(9),
  proxy(10),
  proxy(12),
  proxy(13),
  direct(19, '360GPT_S2_V9'),
  {
    ...proxy(20),
    model: 'openai/gpt-4o-mini',
    headers: {
      ...bearer('key-of-20'),
      'x-title': 'Switchyard',
      'http-referer': /^https:\/\/github\.com\//,
    },
  },
  direct(22, 'gpt-3.5-turbo', { basePath: '/api/openapi', url: `/api/openapi${CHAT}` }),
  direct(25, 'moonshot-v1-8k'),
  direct(26, 'Baichuan2-Turbo'),
  direct(27, 'abab6.5s-chat', { url: '/v1/text/chatcompletion_v2' }),
  // Mistral refuses stream_options (422) and Groq is not trusted with it: neither is asked.
  direct(28, 'mistral-small-latest'),
  direct(29, 'llama3-8b-8192', { basePath: '/openai', url: `/openai${CHAT}` }),
  direct(31, 'yi-34b-chat-0205'),
  direct(32, 'step-1-8k'),
  // one-api's later OpenAI-format types (one-api-latest-channels §2).
  direct(36, 'deepseek-chat', { streamUsage: true }),
  direct(39, 'meta-llama/Llama-3-70b-chat-hf', { streamUsage: true }),
  direct(40, 'Doubao-pro-4k', { url: '/api/v3/chat/completions', streamUsage: true }),
  direct(41, 'gryphe/mythomax-l2-13b', { basePath: '/v3/openai', url: '/v3/openai/chat/completions' }),
  direct(44, 'Qwen/Qwen2-7B-Instruct', { streamUsage: true }),
  direct(45, 'grok-beta', { streamUsage: true }),
  direct(47, 'deepseek-v3', { url: '/v2/chat/completions' }),
  direct(48, 'generalv3.5'),
  direct(49, 'qwen-plus', { url: '/compatible-mode/v1/chat/completions', streamUsage: true }),
  direct(50, 'gpt-4o-mini', { basePath: '/v1', streamUsage: true }),
  direct(51, 'gemini-2.0-flash', {
    basePath: '/v1beta/openai',
    url: '/v1beta/openai/chat/completions',
    streamUsage: true,
  }),
];

/** The rerank providers' types: their OpenAI-compatible part is embeddings (rerank: providers/rerank.test.ts). */
const EMBEDDINGS_ONLY = [
  { type: 1001, name: 'Jina AI', model: 'jina-embeddings-v3' },
  { type: 1002, name: 'Voyage AI', model: 'rerank-2' },
];

/** Statuses the fake answers errors with, one per case in turn: each must reach the client as is. */
const ERROR_STATUSES = [400, 404, 422, 500, 503];

const REPLY = 'family reply in words';
const USAGE = { prompt_tokens: 11, completion_tokens: 7 };
const key = (spec: Case) => `key-of-${spec.type}`;

describe('the OpenAI family of channel types', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let customer: Customer;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: REPLY, usage: USAGE })).start();
    t = await startTestApp();
    root = await t.root();
    // A limited token: every charge shows on the token as well as on the user.
    customer = await createCustomer(t, 'family', { quota: 100_000_000, token: { remain_quota: 50_000_000 } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const onlyChannel = async (spec: Case, baseUrl = `${fake.url}${spec.basePath ?? ''}`) => {
    fake.use(openAiHandler({ reply: REPLY, usage: USAGE }));
    await t.db.kysely.deleteFrom('abilities').execute();
    await t.db.kysely.deleteFrom('channels').execute();
    t.app.services.router.invalidate();
    return createChannel(root, {
      type: spec.type,
      base_url: baseUrl,
      key: key(spec),
      models: `${spec.model},text-embedding-ada-002`,
      ...(spec.other ? { other: spec.other } : {}),
    });
  };

  const expectUpstream = (spec: Case) => {
    const upstream = fake.last();
    expect(upstream.method).toBe('POST');
    expect(upstream.url).toBe(spec.url);
    for (const [name, value] of Object.entries(spec.headers)) {
      if (value instanceof RegExp) expect(upstream.headers[name]).toMatch(value);
      else expect(upstream.headers[name]).toBe(value);
    }
    for (const name of spec.absent ?? []) expect(upstream.headers[name]).toBeUndefined();
    return upstream;
  };

  it('covers every OpenAI-wire type of the catalogue', () => {
    const catalogue = CHANNEL_TYPES.filter((type) => type.apiStyle === 'openai').map((type) => type.id);
    const covered = [...CASES.map((spec) => spec.type), ...EMBEDDINGS_ONLY.map((spec) => spec.type)];
    expect(covered.sort((a, b) => a - b)).toEqual(catalogue.sort((a, b) => a - b));
  });

  it.each(CASES)('type $type relays chat to its URL with its headers and bills the usage', async (spec) => {
    const channelId = await onlyChannel(spec);
    const messages = [{ role: 'user' as const, content: 'hello there' }];
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      const answer = await customer.openai.chat.completions.create({ model: spec.model, messages });
      expect(answer.choices[0]?.message.content).toBe(REPLY);
      expect(answer.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
    });
    // No mapping and no usage to ask for: the client's body goes upstream as it came.
    expect(expectUpstream(spec).json).toEqual({ model: spec.model, messages });
    const expected = expectedQuota(spec.model, spec.type, { prompt: 11, completion: 7 });
    expect(expected).toBeGreaterThan(0);
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: spec.model,
      prompt_tokens: 11,
      completion_tokens: 7,
      quota: expected,
    });
  });

  it.each(CASES)('type $type streams in order and bills the usage chunk or its own count', async (spec) => {
    const channelId = await onlyChannel(spec);
    const pieces: string[] = [];
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      const stream = await customer.openai.chat.completions.create({
        model: spec.model,
        messages: [{ role: 'user', content: 'stream it' }],
        stream: true,
      });
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    });
    expect(pieces.join('')).toBe(REPLY);
    const upstream = expectUpstream(spec);
    expect(upstream.headers.accept).toBe('text/event-stream');
    expect(upstream.json).toMatchObject({ model: spec.model, stream: true });
    const asked = (upstream.json?.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
    expect(Boolean(asked)).toBe(spec.streamUsage);
    // Asked: the fake's usage chunk is the bill. Not asked: the gateway counts prompt and answer.
    const usage = spec.streamUsage
      ? { prompt: 11, completion: 7 }
      : { prompt: 3 + 3 + countTokens('user') + countTokens('stream it'), completion: countTokens(REPLY) };
    const expected = expectedQuota(spec.model, spec.type, usage);
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: spec.model,
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      quota: expected,
    });
    expect(Boolean(log?.is_stream)).toBe(true);
  });

  it.each(CASES.map((spec, index) => ({ ...spec, status: ERROR_STATUSES[index % ERROR_STATUSES.length]! })))(
    'type $type passes an upstream $status error on, refunds and logs nothing',
    async (spec) => {
      await onlyChannel(spec);
      const message = `upstream refused (type ${spec.type})`;
      for (const stream of [false, true]) {
        fake.use(openAiError(spec.status, message, 'invalid_request_error', 'fake_refusal'));
        const { error, refunded, logged } = await expectRefunded(t, customer, async () => {
          const answer = await customer.openai.chat.completions.create({
            model: spec.model,
            messages: [{ role: 'user', content: 'fail please' }],
            stream,
          });
          // A stream that started would not be an error: read it to be sure nothing arrives.
          if (stream) for await (const _ of answer as AsyncIterable<unknown>);
        });
        expect(error).toBeInstanceOf(OpenAI.APIError);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        expect(apiError.status).toBe(spec.status);
        expect(apiError.error).toMatchObject({
          message: expect.stringContaining(message),
          type: 'invalid_request_error',
          code: 'fake_refusal',
        });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
        expectUpstream(spec);
      }
    },
  );

  it('Azure: embeddings go to the deployment too, and a missing version falls back to the default', async () => {
    const azure = CASES.find((spec) => spec.type === 3)!;
    await onlyChannel(azure);
    await customer.openai.embeddings.create({ model: 'text-embedding-ada-002', input: 'x' });
    expect(fake.last().url).toBe(
      '/openai/deployments/text-embedding-ada-002/embeddings?api-version=2024-02-15-preview',
    );
    await onlyChannel({ ...azure, other: undefined });
    await customer.openai.chat.completions.create({
      model: azure.model,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fake.last().url).toBe(
      '/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-03-01-preview',
    );
  });

  it('MiniMax serves chat only: other endpoints are refused before the upstream, and refunded', async () => {
    const minimax = CASES.find((spec) => spec.type === 27)!;
    await onlyChannel(minimax);
    const calls = fake.requests.length;
    const { error, refunded, logged } = await expectRefunded(t, customer, () =>
      customer.openai.embeddings.create({ model: 'text-embedding-ada-002', input: 'x' }),
    );
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toMatch(/MiniMax channels serve chat completions only/);
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    expect(fake.requests.length).toBe(calls);
  });

  it.each(EMBEDDINGS_ONLY)(
    '$name serves embeddings at /v1/embeddings and refuses chat before the upstream',
    async (spec) => {
      await onlyChannel({ ...direct(spec.type, spec.model), url: '/v1/embeddings' });
      const { log } = await spentBy(t, customer, () =>
        customer.openai.embeddings.create({ model: 'text-embedding-ada-002', input: 'x' }),
      );
      expect(fake.last().url).toBe('/v1/embeddings');
      expect(fake.last().headers.authorization).toBe(`Bearer key-of-${spec.type}`);
      expect(log?.model_name).toBe('text-embedding-ada-002');
      const calls = fake.requests.length;
      const { error, refunded, logged } = await expectRefunded(t, customer, () =>
        customer.openai.chat.completions.create({
          model: spec.model,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      );
      expect(error).toMatchObject({ status: 400 });
      expect(String((error as Error).message)).toContain(`${spec.name} channels serve embeddings only`);
      expect(refunded && !logged).toBe(true);
      expect(fake.requests.length).toBe(calls);
    },
  );

  it('a base URL that already ends in /v1 is not doubled', async () => {
    await onlyChannel(proxy(8), `${fake.url}/v1`);
    await customer.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fake.last().url).toBe('/v1/chat/completions');
  });
});

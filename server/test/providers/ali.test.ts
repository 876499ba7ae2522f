import { describe, expect, it } from 'vitest';
import { dashScopeHandler, EMBEDDING_PATH, GENERATION_PATH } from '../fakes/ali';
import { HttpFake } from '../fakes/http-fake';
import type { TestApp } from '../harness';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const ALI = 17;
const MODEL = 'qwen-plus';
const API_KEY = 'sk-dashscope-fake-key';
const PLUGIN = '{"pdf_extracter":{}}';

const channelStatus = async (t: TestApp, id: number) =>
  (await t.db.kysely.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

describe('Alibaba Tongyi Qianwen channels (DashScope native API)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(dashScopeHandler({ apiKey: API_KEY })).start(),
    // Plugins come from `other`, or from config.plugin, which wins over it.
    channels: [
      {
        name: 'dashscope',
        type: ALI,
        key: API_KEY,
        models: `${MODEL},text-embedding-v3`,
      },
      {
        name: 'dashscope-plugin',
        type: ALI,
        key: API_KEY,
        models: 'qwen-max-internet',
        other: PLUGIN,
      },
      {
        name: 'dashscope-config-plugin',
        type: ALI,
        key: API_KEY,
        models: 'qwen-turbo',
        other: '{"ignored":{}}',
        config: JSON.stringify({ plugin: '{"calculator":{}}' }),
      },
    ],
    customer: 'qwen-user',
  });

  it('converts the request and answer and bills the reported usage exactly', async () => {
    rig.fake.use(
      dashScopeHandler({ apiKey: API_KEY, reply: 'Ni hao', usage: { input_tokens: 40, output_tokens: 6 } }),
    );
    let content: string | null | undefined;
    let finish: string | null | undefined;
    const { quota, tokenQuota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'You are terse' },
          { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
        ],
        max_tokens: 64,
        temperature: 0.5,
        top_p: 1,
        seed: 42,
        stop: ['END'],
      });
      content = answer.choices[0]?.message.content;
      finish = answer.choices[0]?.finish_reason;
      expect(answer.object).toBe('chat.completion');
      expect(answer.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 });
    });
    expect(content).toBe('Ni hao');
    expect(finish).toBe('stop');
    const upstream = rig.fake.last();
    expect(upstream.url).toBe(GENERATION_PATH);
    expect(upstream.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
    });
    expect(upstream.headers['x-dashscope-sse']).toBeUndefined();
    expect(upstream.headers['x-dashscope-plugin']).toBeUndefined();
    expect(upstream.json).toEqual({
      model: MODEL,
      input: {
        messages: [
          { role: 'system', content: 'You are terse' },
          { role: 'user', content: 'Hello' },
        ],
      },
      parameters: {
        result_format: 'message',
        max_tokens: 64,
        temperature: 0.5,
        // DashScope refuses top_p of 1.
        top_p: 0.9999,
        seed: 42,
        stop: ['END'],
      },
    });
    const expected = expectedQuota(MODEL, ALI, { prompt: 40, completion: 6 });
    expect(expected).toBeGreaterThan(0);
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      model_name: MODEL,
      prompt_tokens: 40,
      completion_tokens: 6,
      quota: expected,
      channel_id: rig.channelId,
    });
  });

  it('streams incremental output in order and bills from the last running total', async () => {
    rig.fake.use(
      dashScopeHandler({
        apiKey: API_KEY,
        reply: 'alpha beta gamma delta',
        usage: { input_tokens: 12, output_tokens: 9 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    const upstream = rig.fake.last();
    expect(upstream.headers).toMatchObject({ 'x-dashscope-sse': 'enable', accept: 'text/event-stream' });
    expect(upstream.json).toMatchObject({
      parameters: { result_format: 'message', incremental_output: true },
    });
    // The fake sends the whole text so far in every event unless asked for increments.
    expect(pieces.filter(Boolean)).toEqual(['alpha', ' beta', ' gamma', ' delta']);
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 9 });
    expect(Boolean(log?.is_stream)).toBe(true);
    expect(quota).toBe(expectedQuota(MODEL, ALI, { prompt: 12, completion: 9 }));
  });

  it('sends the plugin header from `other`, and `-internet` turns on search under the bare model', async () => {
    rig.fake.use(dashScopeHandler({ apiKey: API_KEY, usage: { input_tokens: 20, output_tokens: 10 } }));
    const { quota, log } = await spentBy(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'qwen-max-internet',
        messages: [{ role: 'user', content: 'news?' }],
      }),
    );
    const upstream = rig.fake.last();
    expect(upstream.headers['x-dashscope-plugin']).toBe(PLUGIN);
    expect(upstream.json).toMatchObject({
      model: 'qwen-max',
      parameters: { enable_search: true, result_format: 'message' },
    });
    // Billed under the requested name, priced as qwen-max.
    expect(log).toMatchObject({ model_name: 'qwen-max-internet', prompt_tokens: 20, completion_tokens: 10 });
    expect(quota).toBe(expectedQuota('qwen-max', ALI, { prompt: 20, completion: 10 }));
  });

  it('takes the plugin from config.plugin before `other`', async () => {
    rig.fake.use(dashScopeHandler({ apiKey: API_KEY }));
    await rig.customer.openai.chat.completions.create({
      model: 'qwen-turbo',
      messages: [{ role: 'user', content: 'calc' }],
      stream: true,
    });
    expect(rig.fake.last().headers['x-dashscope-plugin']).toBe('{"calculator":{}}');
    expect(rig.fake.last().json).not.toHaveProperty('parameters.enable_search');
  });

  it('passes tools through and answers tool calls in OpenAI shape', async () => {
    rig.fake.use(
      dashScopeHandler({
        apiKey: API_KEY,
        toolCall: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' },
      }),
    );
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const answer = await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'weather?' }],
      tools,
    });
    expect(rig.fake.last().json).toMatchObject({ parameters: { tools } });
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'call_fake_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' },
      },
    ]);
  });

  it('relays embeddings as an OpenAI list in input order, billing total_tokens as prompt', async () => {
    rig.fake.use(dashScopeHandler({ apiKey: API_KEY }));
    let vectors: number[][] = [];
    let reported: unknown;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'text-embedding-v3',
        input: ['abc', 'defgh'],
        dimensions: 2,
      });
      vectors = answer.data.map((item) => Array.from(item.embedding));
      reported = answer.usage;
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe(EMBEDDING_PATH);
    expect(upstream.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(upstream.json).toEqual({
      model: 'text-embedding-v3',
      input: { texts: ['abc', 'defgh'] },
      parameters: { dimension: 2 },
    });
    expect(vectors).toEqual([
      [0, 0.25],
      [1, 1.25],
    ]);
    expect(reported).toMatchObject({ prompt_tokens: 8, total_tokens: 8 });
    expect(log).toMatchObject({ model_name: 'text-embedding-v3', prompt_tokens: 8, completion_tokens: 0 });
    expect(quota).toBe(expectedQuota('text-embedding-v3', ALI, { prompt: 8, completion: 0 }));
  });

  it('maps DashScope error codes to statuses and refunds, streaming or not', async () => {
    const cases: Array<[code: string, status: number]> = [
      ['Throttling.RateQuota', 429],
      ['DataInspectionFailed', 400],
      ['InternalError', 500],
      // DashScope says 400 for an account in arrears; it is the channel's problem, not the caller's.
      ['Arrearage', 403],
    ];
    for (const [errorCode, status] of cases) {
      rig.fake.use(dashScopeHandler({ apiKey: API_KEY, errorCode }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error, `${errorCode} stream=${stream}`).toMatchObject({ status, code: errorCode });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('an error event inside a started stream reaches the client; what was delivered is billed', async () => {
    rig.fake.use(
      dashScopeHandler({
        apiKey: API_KEY,
        reply: 'one two three',
        streamErrorAfter: { pieces: 2, code: 'DataInspectionFailed' },
      }),
    );
    const pieces: string[] = [];
    let failure: unknown;
    const { log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      try {
        for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
      } catch (error) {
        failure = error;
      }
    });
    expect(pieces.filter(Boolean)).toEqual(['one', ' two']);
    expect(String((failure as Error | undefined)?.message)).toContain('inappropriate content');
    // Cut short: at least the last running total before the error (17 in, 2 out) is billed.
    expect(log).toMatchObject({ prompt_tokens: 17 });
    expect(log?.completion_tokens).toBeGreaterThanOrEqual(2);
  });

  it('an invalid API key is a dead channel: 401, refunded, channel disabled', async () => {
    const deadId = await createChannel(rig.root, {
      name: 'dashscope-dead',
      type: ALI,
      key: 'sk-revoked',
      base_url: rig.fake.url,
      models: 'qwen-coder-turbo',
    });
    rig.fake.use(dashScopeHandler({ apiKey: API_KEY }));
    // Streaming first, with automatic disabling still off: DashScope frames this failure as SSE.
    const streamed = await expectRefunded(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: 'qwen-coder-turbo',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      for await (const _chunk of answer) break;
    });
    expect(streamed.error).toMatchObject({ status: 401, code: 'InvalidApiKey' });
    expect(streamed.refunded).toBe(true);
    expect(await channelStatus(rig.t, deadId)).toBe(1);

    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'qwen-coder-turbo',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401, code: 'InvalidApiKey', type: 'authentication_error' });
    expect(String((error as Error).message)).toContain('Invalid API-key provided.');
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    expect(rig.fake.last().headers.authorization).toBe('Bearer sk-revoked');
    expect(await channelStatus(rig.t, deadId)).toBe(3);
    // The good channel is untouched.
    expect(await channelStatus(rig.t, rig.channelId)).toBe(1);
  });
});

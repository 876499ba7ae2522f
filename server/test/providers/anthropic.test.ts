import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/relay/pipeline/tokenizer';
import { anthropicHandler } from '../fakes/anthropic';
import { HttpFake } from '../fakes/http-fake';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const ANTHROPIC = 14;
const MODEL = 'claude-3-5-sonnet-20241022';
const KEY = 'sk-ant-api03-fake';

describe('Anthropic Claude channels (Messages API)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'hi' })).start(),
    channels: [
      {
        type: ANTHROPIC,
        key: KEY,
        models: `${MODEL},claude-3-haiku-20240307`,
      },
    ],
    customer: 'claude-user',
  });

  it('lifts the system prompt, merges turns, authenticates and bills the reported usage', async () => {
    rig.fake.use(
      anthropicHandler({ apiKey: KEY, reply: 'Bonjour', usage: { input_tokens: 31, output_tokens: 7 } }),
    );
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Hello' },
          { role: 'user', content: [{ type: 'text', text: 'In French?' }] },
          { role: 'assistant', content: 'Sure:' },
        ],
        temperature: 0.2,
        top_p: 0.9,
        stop: ['END'],
        user: 'customer-42',
      });
    });
    expect(answer).toMatchObject({
      id: 'chatcmpl-msg_01FakeMessage',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Bonjour' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 },
    });
    const upstream = rig.fake.last();
    expect(upstream.method).toBe('POST');
    expect(upstream.url).toBe('/v1/messages');
    expect(upstream.headers['x-api-key']).toBe(KEY);
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.json).toEqual({
      model: MODEL,
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hello' },
            { type: 'text', text: 'In French?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Sure:' }] },
      ],
      max_tokens: 4096,
      temperature: 0.2,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'customer-42' },
    });
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 31, completion: 7 }));
    expect(log).toMatchObject({ prompt_tokens: 31, completion_tokens: 7, channel_id: rig.channelId });
  });

  it('counts cached prompt tokens as prompt tokens (at the cache read price) and maps max_tokens to length', async () => {
    rig.fake.use(
      anthropicHandler({
        apiKey: KEY,
        reply: 'cut',
        stopReason: 'max_tokens',
        usage: { input_tokens: 5, output_tokens: 16, cache_read_input_tokens: 100 },
      }),
    );
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'long story' }],
        max_tokens: 16,
      });
      expect(answer.choices[0]?.finish_reason).toBe('length');
    });
    expect(rig.fake.last().json).toMatchObject({ max_tokens: 16 });
    // (5 + 100 × 0.1 + 16 × 5) × 1.5
    expect(quota).toBe(143);
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 105, completion: 16, cached: 100 }));
  });

  it('streams text in order and bills from the last usage report, not the sum', async () => {
    rig.fake.use(
      anthropicHandler({
        apiKey: KEY,
        reply: 'alpha beta gamma',
        usage: { input_tokens: 12, output_tokens: 9 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    let lastUsage: unknown;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
        lastUsage = chunk.usage ?? lastUsage;
      }
    });
    expect(rig.fake.last().json).toMatchObject({ stream: true });
    expect(rig.fake.last().headers.accept).toBe('text/event-stream');
    expect(pieces.filter(Boolean)).toEqual(['alpha', ' beta', ' gamma']);
    expect(finish).toBe('stop');
    expect(lastUsage).toMatchObject({ prompt_tokens: 12, completion_tokens: 9 });
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 9 });
    expect(Boolean(log?.is_stream)).toBe(true);
    expect(quota).toBe(expectedQuota(MODEL, ANTHROPIC, { prompt: 12, completion: 9 }));
  });

  it('converts tools, tool choice, tool calls and tool results both ways', async () => {
    const toolUse = { id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris', unit: 'c' } };
    rig.fake.use(anthropicHandler({ apiKey: KEY, toolUse, usage: { input_tokens: 50, output_tokens: 20 } }));
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const first = await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
      tool_choice: 'required',
    });
    expect(rig.fake.last().json).toMatchObject({
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: tools[0]!.function.parameters,
        },
      ],
      tool_choice: { type: 'any' },
    });
    expect(first.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [
          {
            id: 'toolu_01A',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
          },
        ],
      },
    });

    rig.fake.use(anthropicHandler({ apiKey: KEY, reply: 'It is 21 °C.' }));
    await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: 'toolu_01A', content: '21' },
        { role: 'user', content: 'Answer briefly' },
      ],
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
    expect(rig.fake.last().json).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', ...toolUse }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '21' },
            { type: 'text', text: 'Answer briefly' },
          ],
        },
      ],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    });
  });

  it('streams tool calls as OpenAI tool call deltas', async () => {
    const toolUse = { id: 'toolu_02B', name: 'lookup', input: { query: 'switchyard gateway' } };
    rig.fake.use(anthropicHandler({ apiKey: KEY, reply: 'Let me check.', toolUse }));
    const stream = rig.customer.openai.chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'search' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const deltas: unknown[] = [];
    stream.on('chunk', (chunk) => deltas.push(...(chunk.choices[0]?.delta?.tool_calls ?? [])));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'Let me check.',
        tool_calls: [
          { id: 'toolu_02B', function: { name: 'lookup', arguments: '{"query":"switchyard gateway"}' } },
        ],
      },
    });
    expect(deltas[0]).toEqual({
      index: 0,
      id: 'toolu_02B',
      type: 'function',
      function: { name: 'lookup', arguments: '' },
    });
    expect(deltas.slice(1)).toEqual([
      { index: 0, function: { arguments: '{"query":"switc' } },
      { index: 0, function: { arguments: 'hyard gateway"}' } },
    ]);
  });

  it('sends data: URLs inline and leaves http(s) image URLs for Anthropic to fetch', async () => {
    rig.fake.use(anthropicHandler({ apiKey: KEY, reply: 'two cats' }));
    const before = rig.fake.requests.length;
    await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    expect(rig.fake.requests.length).toBe(before + 1);
    expect(rig.fake.last().json).toMatchObject({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
  });

  it('maps Anthropic errors to statuses and refunds, streaming or not', async () => {
    const cases: Array<[status: number, type: string]> = [
      [429, 'rate_limit_error'],
      [400, 'invalid_request_error'],
      [529, 'overloaded_error'],
    ];
    for (const [status, type] of cases) {
      rig.fake.use(anthropicHandler({ apiKey: KEY, error: { status, type } }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error).toMatchObject({ status, type });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('an error event mid-stream reaches the client as an error; what was delivered is billed', async () => {
    const DELIVERED = 'one-two-three-four-five-six-seven-eight-nine-ten-eleven-twelve';
    rig.fake.use(
      anthropicHandler({
        apiKey: KEY,
        reply: `${DELIVERED} never-sent`,
        usage: { input_tokens: 8, output_tokens: 30 },
        streamError: { type: 'overloaded_error', message: 'Overloaded' },
      }),
    );
    const pieces: string[] = [];
    const { log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      const failure = await (async () => {
        for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
      })().catch((error: unknown) => error);
      expect(String(failure)).toContain('Overloaded');
    });
    expect(pieces.join('')).toBe(DELIVERED);
    // message_start said 8 prompt tokens and 1 output token; no later report came, so the text the
    // client received is what is billed, not that early 1.
    const delivered = createTokenCounter(() => false).text(DELIVERED, MODEL);
    expect(delivered).toBeGreaterThan(5);
    expect(log).toMatchObject({ prompt_tokens: 8, completion_tokens: delivered });
  });

  it('refuses embeddings on a Claude channel without calling upstream', async () => {
    const before = rig.fake.requests.length;
    await createChannel(rig.root, {
      type: ANTHROPIC,
      base_url: rig.fake.url,
      key: KEY,
      models: 'claude-embed-test',
    });
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.embeddings.create({ model: 'claude-embed-test', input: 'x' }),
    );
    expect(error).toMatchObject({ status: 400 });
    expect(refunded).toBe(true);
    expect(rig.fake.requests.length).toBe(before);
  });

  it('an invalid key answers 401, refunds and switches the channel off', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    rig.fake.use(anthropicHandler({ apiKey: 'sk-ant-the-real-key', reply: 'never' }));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' });
    expect(refunded).toBe(true);
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { geminiHandler } from '../fakes/gemini';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const GEMINI = 24;
const MODEL = 'gemini-1.5-flash';
const KEY = 'AIzaSyFakeGeminiKey';
const SAFETY_OFF = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
].map((category) => ({ category, threshold: 'BLOCK_NONE' }));

describe('Google Gemini channels (generateContent, SSE streams, batchEmbedContents)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(geminiHandler({ apiKey: KEY, reply: 'hi' })).start(),
    channels: [
      {
        type: GEMINI,
        key: KEY,
        models: `${MODEL},gemini-pro,text-embedding-004`,
      },
      {
        type: GEMINI,
        key: KEY,
        models: 'gemini-2.0-flash',
        other: 'v1alpha',
      },
    ],
    customer: 'gemini-user',
  });

  it('converts roles, lifts the system instruction, turns safety off and bills usageMetadata', async () => {
    rig.fake.use(
      geminiHandler({
        apiKey: KEY,
        reply: 'Hallo',
        usage: { promptTokenCount: 25, candidatesTokenCount: 3 },
      }),
    );
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Answer in German.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: 'Again' },
          { role: 'user', content: [{ type: 'text', text: 'please' }] },
        ],
        temperature: 0.4,
        top_p: 0.95,
        max_tokens: 64,
        stop: 'END',
      });
    });
    expect(answer).toMatchObject({
      id: 'chatcmpl-fake-response-1',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ message: { role: 'assistant', content: 'Hallo' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 25, completion_tokens: 3, total_tokens: 28 },
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(upstream.headers['x-goog-api-key']).toBe(KEY);
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.json).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }] },
        { role: 'model', parts: [{ text: 'Hi!' }] },
        { role: 'user', parts: [{ text: 'Again' }, { text: 'please' }] },
      ],
      systemInstruction: { parts: [{ text: 'Answer in German.' }] },
      safetySettings: SAFETY_OFF,
      generationConfig: { temperature: 0.4, topP: 0.95, maxOutputTokens: 64, stopSequences: ['END'] },
    });
    expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 25, completion: 3 }));
    expect(log).toMatchObject({ prompt_tokens: 25, completion_tokens: 3, channel_id: rig.channelId });
  });

  it('uses v1 and a user turn for the system prompt on gemini-pro, and bills thinking as output', async () => {
    rig.fake.use(
      geminiHandler({
        apiKey: KEY,
        reply: 'ok',
        usage: { promptTokenCount: 9, candidatesTokenCount: 2, thoughtsTokenCount: 40 },
      }),
    );
    const { quota } = await spentBy(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'gemini-pro',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    );
    const upstream = rig.fake.last();
    expect(upstream.url).toBe('/v1/models/gemini-pro:generateContent');
    expect(upstream.json?.systemInstruction).toBeUndefined();
    expect(upstream.json?.contents).toEqual([
      { role: 'user', parts: [{ text: 'Be brief.' }] },
      { role: 'model', parts: [{ text: 'Okay' }] },
      { role: 'user', parts: [{ text: 'Hi' }] },
    ]);
    expect(quota).toBe(expectedQuota('gemini-pro', GEMINI, { prompt: 9, completion: 42 }));
  });

  it("takes the API version from the channel's other field", async () => {
    rig.fake.use(geminiHandler({ apiKey: KEY, reply: 'alpha' }));
    await rig.customer.openai.chat.completions.create({
      model: 'gemini-2.0-flash',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(rig.fake.last().url).toBe('/v1alpha/models/gemini-2.0-flash:generateContent');
  });

  it('streams over SSE in order and bills from the last running total, not the sum', async () => {
    rig.fake.use(
      geminiHandler({
        apiKey: KEY,
        reply: 'one two three four',
        usage: { promptTokenCount: 14, candidatesTokenCount: 8 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(rig.fake.last().url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(pieces.filter(Boolean)).toEqual(['one', ' two', ' three', ' four']);
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 14, completion_tokens: 8 });
    expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 14, completion: 8 }));
  });

  it('converts tools and function calls both ways, streaming or not', async () => {
    const functionCall = { name: 'get_time', args: { zone: 'Europe/Paris' } };
    rig.fake.use(geminiHandler({ apiKey: KEY, functionCall }));
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_time',
          description: 'Time in a zone',
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { zone: { type: 'string', additionalProperties: false } },
            additionalProperties: false,
          },
        },
      },
      {
        type: 'function' as const,
        function: { name: 'no_args', parameters: { type: 'object', properties: {} } },
      },
    ];
    const first = await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Time in Paris?' }],
      tools,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    expect(rig.fake.last().json).toMatchObject({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_time',
              description: 'Time in a zone',
              parameters: { type: 'object', properties: { zone: { type: 'string' } } },
            },
            { name: 'no_args' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
    });
    const message = first.choices[0]!.message;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message.tool_calls).toMatchObject([
      { type: 'function', function: { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' } },
    ]);
    const callId = message.tool_calls![0]!.id;
    expect(callId).toMatch(/^call_/);

    rig.fake.use(geminiHandler({ apiKey: KEY, reply: 'It is noon.' }));
    await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Time in Paris?' },
        message,
        { role: 'tool', tool_call_id: callId, content: '{"time":"12:00"}' },
      ],
      tools,
    });
    expect(rig.fake.last().json?.contents).toEqual([
      { role: 'user', parts: [{ text: 'Time in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_time', args: { zone: 'Europe/Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { time: '12:00' } } }] },
    ]);

    rig.fake.use(geminiHandler({ apiKey: KEY, reply: 'Checking.', functionCall }));
    const final = await rig.customer.openai.chat.completions
      .stream({ model: MODEL, messages: [{ role: 'user', content: 'Time?' }], tools })
      .finalChatCompletion();
    expect(final.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'Checking.',
        tool_calls: [{ function: { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' } }],
      },
    });
  });

  it('sends data: URLs inline and other image URLs as file references, fetching nothing', async () => {
    rig.fake.use(geminiHandler({ apiKey: KEY, reply: 'a cat' }));
    const before = rig.fake.requests.length;
    await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is it?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png?size=large' } },
          ],
        },
      ],
    });
    expect(rig.fake.requests.length).toBe(before + 1);
    expect(rig.fake.last().json?.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is it?' },
          { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
          { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.png?size=large' } },
        ],
      },
    ]);
  });

  it('relays embeddings through batchEmbedContents and bills the counted input', async () => {
    rig.fake.use(geminiHandler({ apiKey: KEY }));
    let vectors: number[][] = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'text-embedding-004',
        input: ['first text', 'second text'],
        dimensions: 3,
      });
      vectors = answer.data.map((item) => Array.from(item.embedding));
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe('/v1/models/text-embedding-004:batchEmbedContents');
    expect(upstream.json).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'first text' }] },
          outputDimensionality: 3,
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'second text' }] },
          outputDimensionality: 3,
        },
      ],
    });
    expect(vectors).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    expect(log?.prompt_tokens).toBeGreaterThan(0);
    expect(quota).toBe(
      expectedQuota('text-embedding-004', GEMINI, { prompt: Number(log?.prompt_tokens), completion: 0 }),
    );
  });

  it('maps Google error statuses and refunds, streaming or not', async () => {
    const cases: Array<[code: number, status: string]> = [
      [429, 'RESOURCE_EXHAUSTED'],
      [400, 'INVALID_ARGUMENT'],
      [503, 'UNAVAILABLE'],
    ];
    for (const [code, status] of cases) {
      rig.fake.use(geminiHandler({ apiKey: KEY, error: { code, status } }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error).toMatchObject({ status: code });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('an invalid key (Google answers 400 API_KEY_INVALID) is a 401: refunded, channel disabled', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    rig.fake.use(geminiHandler({ apiKey: 'AIzaSyTheRealKey', reply: 'never' }));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401, type: 'authentication_error', code: 'API_KEY_INVALID' });
    expect(String((error as Error).message)).toContain('API key not valid');
    expect(refunded).toBe(true);
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(3);
  });
});

import { type FunctionCall, GoogleGenAI, Type } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type ScriptedAnswer, scriptedChatHandler } from './fakes/openai-scripted';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

const scripted = (answer: ScriptedAnswer) => scriptedChatHandler(() => answer);

const OPENAI = 1;
const MODEL = 'gpt-4o-mini';

/** `@google/genai`, unmodified, on /v1beta/models/*: Gemini → OpenAI chat → an OpenAI channel, and back. */
describe('Gemini-native API over an OpenAI channel', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let genai: GoogleGenAI;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, {
      type: OPENAI,
      base_url: fake.url,
      key: 'sk-upstream',
      models: `${MODEL},gpt-4o`,
    });
    customer = await createCustomer(t, 'geminative', { quota: 100_000_000 });
    // @google/genai 3 calls /v1 by default, where GET /v1/models is OpenAI's list; Gemini's is under /v1beta.
    genai = new GoogleGenAI({
      apiKey: `sk-${customer.token.key}`,
      httpOptions: { baseUrl: t.baseUrl, apiVersion: 'v1beta' },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('generateContent: system instruction and sampling go upstream as chat, billed from its usage', async () => {
    fake.use(
      openAiHandler({ reply: 'Bonjour le monde', usage: { prompt_tokens: 40, completion_tokens: 6 } }),
    );
    let answer: Awaited<ReturnType<typeof genai.models.generateContent>> | undefined;
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      answer = await genai.models.generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'Hello world' }] },
          { role: 'model', parts: [{ text: 'Sure:' }] },
          {
            role: 'user',
            parts: [{ text: 'In French' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0' } }],
          },
        ],
        config: {
          systemInstruction: 'Answer in French.',
          temperature: 0.3,
          topP: 0.9,
          maxOutputTokens: 100,
          stopSequences: ['END'],
          safetySettings: [
            { category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never },
          ],
        },
      });
    });
    expect(fake.last().url).toBe('/v1/chat/completions');
    expect(fake.last().headers.authorization).toBe('Bearer sk-upstream');
    expect(fake.last().json).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello world' },
        { role: 'assistant', content: 'Sure:' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'In French' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0' } },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
    });
    expect(answer?.text).toBe('Bonjour le monde');
    expect(answer?.candidates?.[0]).toMatchObject({ finishReason: 'STOP', content: { role: 'model' } });
    expect(answer?.usageMetadata).toEqual({
      promptTokenCount: 40,
      candidatesTokenCount: 6,
      totalTokenCount: 46,
    });
    expect(answer?.modelVersion).toBe(MODEL);
    expect(answer?.responseId).toBe('fake');
    const expected = expectedQuota(MODEL, OPENAI, { prompt: 40, completion: 6 });
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({
      model_name: MODEL,
      prompt_tokens: 40,
      completion_tokens: 6,
      quota: expected,
    });
  });

  const weather = {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
  };

  it('function calling: declarations and ANY go upstream, the functionCall comes back, the response follows', async () => {
    fake.use(
      scripted({
        toolCalls: [{ id: 'call_7', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        usage: { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 },
      }),
    );
    const contents = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
    const config = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['get_weather'] } },
    };
    const first = await genai.models.generateContent({ model: MODEL, contents, config });
    expect(fake.last().json).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    const call = first.functionCalls?.[0] as FunctionCall;
    expect(call).toEqual({ id: 'call_7', name: 'get_weather', args: { city: 'Paris' } });
    expect(first.candidates?.[0]?.finishReason).toBe('STOP');

    fake.use(openAiHandler({ reply: 'Sunny, 21°C', usage: { prompt_tokens: 70, completion_tokens: 5 } }));
    const second = await genai.models.generateContent({
      model: MODEL,
      contents: [
        ...contents,
        { role: 'model', parts: [{ functionCall: call }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { sky: 'sunny' } } }],
        },
      ],
      config: { tools: config.tools },
    });
    expect(second.text).toBe('Sunny, 21°C');
    expect(fake.last().json?.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_7',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_7', content: '{"sky":"sunny"}' },
    ]);
  });

  it('JSON output: responseMimeType and responseSchema become a json_schema response_format', async () => {
    fake.use(openAiHandler({ reply: '{"name":"Ada"}' }));
    const answer = await genai.models.generateContent({
      model: MODEL,
      contents: 'Who wrote the first program?',
      config: {
        responseMimeType: 'application/json',
        responseSchema: { type: Type.OBJECT, properties: { name: { type: Type.STRING, nullable: true } } },
      },
    });
    expect(fake.last().json?.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: { type: 'object', properties: { name: { type: ['string', 'null'] } } },
      },
    });
    expect(JSON.parse(answer.text ?? '')).toEqual({ name: 'Ada' });
  });

  it('generateContentStream: text chunks, then finishReason and usageMetadata; usage asked for and billed', async () => {
    fake.use(
      openAiHandler({ reply: 'alpha beta gamma', usage: { prompt_tokens: 12, completion_tokens: 9 } }),
    );
    const chunks: Array<Awaited<ReturnType<typeof genai.models.generateContent>>> = [];
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = await genai.models.generateContentStream({ model: MODEL, contents: 'Stream please' });
      for await (const chunk of stream) chunks.push(chunk);
    });
    expect(fake.last().json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('alpha beta gamma');
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata).toEqual({
      promptTokenCount: 12,
      candidatesTokenCount: 9,
      totalTokenCount: 21,
    });
    const expected = expectedQuota(MODEL, OPENAI, { prompt: 12, completion: 9 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 9, quota: expected });
  });

  const reasoningUsage = {
    prompt_tokens: 100,
    completion_tokens: 30,
    total_tokens: 130,
    prompt_tokens_details: { cached_tokens: 64 },
    completion_tokens_details: { reasoning_tokens: 20 },
  };
  const expectedMetadata = {
    promptTokenCount: 100,
    candidatesTokenCount: 10,
    totalTokenCount: 130,
    cachedContentTokenCount: 64,
    thoughtsTokenCount: 20,
  };

  it('reasoning_content comes back as a thought part; cached and reasoning tokens in usageMetadata', async () => {
    fake.use(scripted({ reasoning: 'Let me think.', content: 'Forty-two', usage: reasoningUsage }));
    const answer = await genai.models.generateContent({
      model: MODEL,
      contents: 'Meaning of life?',
      config: { thinkingConfig: { thinkingBudget: 4096, includeThoughts: true } },
    });
    expect(fake.last().json?.reasoning_effort).toBe('medium');
    expect(answer.candidates?.[0]?.content?.parts).toEqual([
      { text: 'Let me think.', thought: true },
      { text: 'Forty-two' },
    ]);
    expect(answer.text).toBe('Forty-two');
    expect(answer.usageMetadata).toEqual(expectedMetadata);
    // Gemini answers thoughts only to a client that asks for them.
    const plain = await genai.models.generateContent({ model: MODEL, contents: 'Meaning of life?' });
    expect(plain.candidates?.[0]?.content?.parts).toEqual([{ text: 'Forty-two' }]);
  });

  it('streams reasoning and a function call assembled whole, with the final usage', async () => {
    fake.use(
      scripted({
        reasoning: 'Need weather.',
        toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        usage: reasoningUsage,
      }),
    );
    const chunks: Array<Awaited<ReturnType<typeof genai.models.generateContent>>> = [];
    const stream = await genai.models.generateContentStream({
      model: MODEL,
      contents: 'Weather in Oslo?',
      config: { tools: [{ functionDeclarations: [weather] }], thinkingConfig: { includeThoughts: true } },
    });
    for await (const chunk of stream) chunks.push(chunk);
    const thoughts = chunks.flatMap((chunk) =>
      (chunk.candidates?.[0]?.content?.parts ?? []).filter((part) => part.thought),
    );
    expect(thoughts.every((part) => Object.keys(part).sort().join() === 'text,thought')).toBe(true);
    expect(thoughts.map((part) => part.text).join('')).toBe('Need weather.');
    const last = chunks.at(-1);
    expect(last?.functionCalls).toEqual([{ id: 'call_9', name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata).toEqual(expectedMetadata);
  });

  it('countTokens: counted by the gateway, nothing sent upstream, billed or logged', async () => {
    const before = fake.requests.length;
    const logsBefore = (await consumeLogs(t, customer.userId)).length;
    const { quota } = await spentBy(t, customer, async () => {
      const counted = await genai.models.countTokens({ model: MODEL, contents: 'Hello there, how are you?' });
      const counter = createTokenCounter(() => false);
      expect(counted.totalTokens).toBe(
        counter.messages([{ role: 'user', content: 'Hello there, how are you?' }], MODEL),
      );
    });
    expect(quota).toBe(0);
    expect(fake.requests.length).toBe(before);
    expect((await consumeLogs(t, customer.userId)).length).toBe(logsBefore);
  });

  it('models.list and models.get answer the models the key may call, in Gemini shape', async () => {
    const names: string[] = [];
    for await (const model of await genai.models.list()) names.push(model.name ?? '');
    expect(names.sort()).toEqual(['models/gpt-4o', `models/${MODEL}`]);
    const model = await genai.models.get({ model: MODEL });
    expect(model).toMatchObject({ name: `models/${MODEL}`, displayName: MODEL });
    expect(
      model.supportedActions ??
        (model as { supportedGenerationMethods?: string[] }).supportedGenerationMethods,
    ).toContain('generateContent');
  });
});

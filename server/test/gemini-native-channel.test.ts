import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const GEMINI = 24;
const MODEL = 'gemini-2.0-flash';
const KEY = 'AIzaSyFakeGeminiKey';

/**
 * `@google/genai` through the gateway to a Gemini channel: passed through (the exact bytes are checked
 * in gemini-native-passthrough.test.ts), billed from the channel's usageMetadata.
 */
describe('Gemini-native API over a Gemini channel', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let genai: GoogleGenAI;

  beforeAll(async () => {
    fake = await new HttpFake(geminiHandler({ apiKey: KEY, reply: 'hi' })).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, { type: GEMINI, base_url: fake.url, key: KEY, models: MODEL });
    customer = await createCustomer(t, 'geminichan', { quota: 100_000_000 });
    genai = new GoogleGenAI({ apiKey: `sk-${customer.token.key}`, httpOptions: { baseUrl: t.baseUrl } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('generateContent: the channel gets a Gemini request with its own key, the usage is billed', async () => {
    fake.use(
      geminiHandler({
        apiKey: KEY,
        reply: 'Hallo Welt',
        usage: { promptTokenCount: 20, candidatesTokenCount: 5, thoughtsTokenCount: 7 },
      }),
    );
    let answer: Awaited<ReturnType<typeof genai.models.generateContent>> | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      answer = await genai.models.generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'Hello' }] },
          { role: 'model', parts: [{ text: 'Hi!' }] },
          { role: 'user', parts: [{ text: 'In German' }] },
        ],
        config: { systemInstruction: 'Answer in German.', temperature: 0.2, maxOutputTokens: 50 },
      });
    });
    const upstream = fake.last();
    expect(upstream.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(upstream.headers['x-goog-api-key']).toBe(KEY);
    expect(upstream.json).toMatchObject({
      systemInstruction: { parts: [{ text: 'Answer in German.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }] },
        { role: 'model', parts: [{ text: 'Hi!' }] },
        { role: 'user', parts: [{ text: 'In German' }] },
      ],
      generationConfig: { temperature: 0.2, maxOutputTokens: 50 },
    });
    expect(answer?.text).toBe('Hallo Welt');
    const usage = answer?.usageMetadata;
    expect(usage).toMatchObject({ promptTokenCount: 20, totalTokenCount: 32 });
    // Thoughts are output tokens: with or without their split, candidates and thoughts add up to 12.
    expect((usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0)).toBe(12);
    const expected = expectedQuota(MODEL, GEMINI, { prompt: 20, completion: 12 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({
      model_name: MODEL,
      prompt_tokens: 20,
      completion_tokens: 12,
      quota: expected,
    });
  });

  it('a functionCall of the channel comes back as a functionCall', async () => {
    const cityParameters = { type: 'object', properties: { city: { type: 'string' } } };
    fake.use(geminiHandler({ apiKey: KEY, functionCall: { name: 'get_weather', args: { city: 'Rome' } } }));
    const answer = await genai.models.generateContent({
      model: MODEL,
      contents: 'Weather in Rome?',
      config: {
        tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: cityParameters }] }],
      },
    });
    // As the client sent them: a Gemini channel reads parametersJsonSchema itself.
    expect(fake.last().json?.tools).toEqual([
      { functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: cityParameters }] },
    ]);
    expect(answer.functionCalls?.map(({ name, args }) => ({ name, args }))).toEqual([
      { name: 'get_weather', args: { city: 'Rome' } },
    ]);
  });

  it('generateContentStream: the channel streams with alt=sse, the SDK gets text, the last usage is billed', async () => {
    fake.use(
      geminiHandler({
        apiKey: KEY,
        reply: 'uno dos tres',
        usage: { promptTokenCount: 8, candidatesTokenCount: 6 },
      }),
    );
    const texts: string[] = [];
    let last: Awaited<ReturnType<typeof genai.models.generateContent>> | undefined;
    const { quota } = await spentBy(t, customer, async () => {
      const stream = await genai.models.generateContentStream({ model: MODEL, contents: 'Count' });
      for await (const chunk of stream) {
        texts.push(chunk.text ?? '');
        last = chunk;
      }
    });
    expect(fake.last().url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(texts.join('')).toBe('uno dos tres');
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata).toMatchObject({
      promptTokenCount: 8,
      candidatesTokenCount: 6,
      totalTokenCount: 14,
    });
    expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 8, completion: 6 }));
  });

  it("the channel's own refusal reaches the SDK with its status, nothing billed", async () => {
    fake.use(
      geminiHandler({ apiKey: KEY, error: { code: 400, status: 'INVALID_ARGUMENT', message: 'bad turn' } }),
    );
    const { error, refunded } = await expectRefunded(t, customer, () =>
      genai.models.generateContent({ model: MODEL, contents: 'hi' }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('bad turn');
    expect(refunded).toBe(true);
  });
});

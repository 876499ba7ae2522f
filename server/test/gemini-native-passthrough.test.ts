import { ApiError, GoogleGenAI, HarmBlockThreshold, HarmCategory } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGeminiOptions, geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

const GEMINI = 24;
const MODEL = 'gemini-2.0-flash';
const KEY = 'AIzaSyPassThroughChannelKey';

/** `@google/genai` unmodified, with a fetch that keeps the exact bytes it sent and received. */
function recordingGenai(apiKey: string, baseUrl: string) {
  const exchanges: Array<{ url: string; body: string; answer: Promise<string> }> = [];
  const client = new GoogleGenAI({
    apiKey,
    httpOptions: {
      baseUrl,
      retryOptions: { attempts: 1 },
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        exchanges.push({ url: String(input), body: String(init?.body), answer: response.clone().text() });
        return response;
      },
    },
  });
  return { client, exchanges, last: () => exchanges.at(-1)! };
}

/** The SDK's error for a call that must fail. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => undefined,
    (failure: unknown) => failure,
  );
}

describe('Gemini-native API passed through to Gemini channels', () => {
  let t: TestApp;
  let fake: HttpFake;
  let openAi: HttpFake;
  let customer: Customer;
  let genai: ReturnType<typeof recordingGenai>;
  let sent: string[];

  const answer = (options: Omit<FakeGeminiOptions, 'apiKey' | 'sent'>) => {
    sent = [];
    fake.use(geminiHandler({ apiKey: KEY, sent, ...options }));
  };

  beforeAll(async () => {
    fake = await new HttpFake(geminiHandler({ apiKey: KEY })).start();
    openAi = await new HttpFake(openAiHandler({ reply: 'translated' })).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, {
      type: GEMINI,
      base_url: fake.url,
      key: KEY,
      models: `${MODEL},gemini-latest`,
      model_mapping: JSON.stringify({ 'gemini-latest': MODEL }),
    });
    await createChannel(root, { type: 1, base_url: openAi.url, key: 'sk-upstream', models: 'gpt-4o-mini' });
    customer = await createCustomer(t, 'geminipass', { quota: 100_000_000 });
    genai = recordingGenai(`sk-${customer.token.key}`, t.baseUrl);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([fake.close(), openAi.close()]);
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  /** The channel got the client's bytes with its own key, and nothing of the client's key. */
  function expectUntouchedRequest(path: string) {
    const upstream = fake.last();
    expect(upstream.url).toBe(path);
    expect(upstream.body).toBe(genai.last().body);
    expect(upstream.headers['x-goog-api-key']).toBe(KEY);
    expect(JSON.stringify(upstream.headers) + upstream.url).not.toContain(customer.token.key);
    return upstream;
  }

  it('sends the body byte for byte (thinking, signatures, safety, Google tools) and answers the bytes, billed by hand', async () => {
    answer({
      reply: 'Grounded answer',
      thought: { text: 'Searching first', signature: 'CiQB0e2Kb7SIGNATURE' },
      usage: {
        promptTokenCount: 4000,
        cachedContentTokenCount: 2000,
        candidatesTokenCount: 100,
        thoughtsTokenCount: 300,
      },
    });
    let text: string | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const response = await genai.client.models.generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'Who won?' }] },
          { role: 'model', parts: [{ text: 'Let me look.', thoughtSignature: 'EkQKQgExSIG' }] },
          { role: 'user', parts: [{ text: 'And today? "model": "gemini-latest"' }] },
        ],
        config: {
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
          safetySettings: [
            { category: HarmCategory.HARM_CATEGORY_HARASSMENT, threshold: HarmBlockThreshold.BLOCK_NONE },
          ],
          tools: [{ googleSearch: {} }],
          cachedContent: 'cachedContents/abc123',
          maxOutputTokens: 500,
        },
      });
      text = response.text;
    });
    const upstream = expectUntouchedRequest(`/v1beta/models/${MODEL}:generateContent`);
    expect(upstream.json).toMatchObject({
      contents: [{}, { parts: [{ thoughtSignature: 'EkQKQgExSIG' }] }, {}],
      generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      tools: [{ googleSearch: {} }],
      cachedContent: 'cachedContents/abc123',
    });
    expect(await genai.last().answer).toBe(sent[0]);
    expect(text).toBe('Grounded answer');
    // (2000 + 2000 × cache read + (100 + 300) × completion) × model ratio
    const price = expectedQuota(MODEL, GEMINI, { prompt: 4000, completion: 400, cached: 2000 });
    expect(quota).toBe(price);
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 4000, completion_tokens: 400 });
    expect(Number(log?.quota)).toBe(price);
  });

  it('streams every event as the channel sent it (alt=sse), billed from the last running total', async () => {
    answer({
      reply: 'uno dos tres',
      thought: { text: 'counting', signature: 'SIG-stream' },
      usage: { promptTokenCount: 8, candidatesTokenCount: 6, thoughtsTokenCount: 2 },
    });
    const parts: unknown[] = [];
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = await genai.client.models.generateContentStream({
        model: MODEL,
        contents: 'Count',
        config: { thinkingConfig: { includeThoughts: true } },
      });
      for await (const chunk of stream) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    });
    expectUntouchedRequest(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(await genai.last().answer).toBe(sent[0]);
    expect(parts[0]).toEqual({ text: 'counting', thought: true, thoughtSignature: 'SIG-stream' });
    expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 8, completion: 8 }));
    expect(log).toMatchObject({ prompt_tokens: 8, completion_tokens: 8 });
  });

  it('answers the JSON array a client without alt=sse asks for, each element as the channel sent it', async () => {
    answer({ reply: 'a b', usage: { promptTokenCount: 3, candidatesTokenCount: 2 } });
    // The model of the path is mapped; the body has none.
    const response = await fetch(`${t.baseUrl}/v1beta/models/gemini-latest:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${customer.token.key}` },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.text();
    expect(fake.last().url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    const events = (sent[0] ?? '').split('\r\n\r\n').filter(Boolean);
    expect(body).toBe(`[${events.map((event) => event.replace(/^data: /, '')).join(',\r\n')}]`);
    expect(JSON.parse(body)).toHaveLength(2);
  });

  it.each([
    { code: 400, status: 'INVALID_ARGUMENT' },
    { code: 429, status: 'RESOURCE_EXHAUSTED' },
  ])('an upstream $code reaches the SDK as an ApiError with its status, refunded, unlogged', async (spec) => {
    answer({ error: { ...spec, message: 'upstream says no' } });
    for (const stream of [false, true]) {
      const { error, refunded, logged } = await expectRefunded(t, customer, async () => {
        if (!stream) return genai.client.models.generateContent({ model: MODEL, contents: 'x' });
        for await (const _ of await genai.client.models.generateContentStream({
          model: MODEL,
          contents: 'x',
        }));
      });
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(spec.code);
      expect(JSON.parse(await genai.last().answer)).toMatchObject({
        error: { code: spec.code, status: spec.status },
      });
      if (spec.code === 400) expect(await genai.last().answer).toBe(sent.at(-1));
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it('ends a stream cut half-way with a Google error event after the bytes that arrived, billed for them', async () => {
    const head = `data: ${JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text: 'half an answer' }] }, index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
      responseId: 'cut-1',
    })}\r\n\r\n`;
    fake.use((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(head, () => setTimeout(() => res.destroy(), 50));
    });
    const texts: string[] = [];
    let error: unknown;
    const { quota, log } = await spentBy(t, customer, async () => {
      error = await failureOf(async () => {
        const stream = await genai.client.models.generateContentStream({ model: MODEL, contents: 'x' });
        for await (const chunk of stream) texts.push(chunk.text ?? '');
      });
    });
    expect(texts).toEqual(['half an answer']);
    expect(error).toBeInstanceOf(ApiError);
    const received = await genai.last().answer;
    expect(received.startsWith(head)).toBe(true);
    expect(received.slice(head.length)).toMatch(
      /^data: \{"error":\{"code":502,"message":"The upstream answer broke off/,
    );
    expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 9, completion: 3 }));
    expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 3 });
  });

  it("passes the channel's own error event on as it sent it, and words an HTML error itself", async () => {
    const events = [
      { candidates: [{ content: { role: 'model', parts: [{ text: 'so far' }] }, index: 0 }] },
      { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } },
    ];
    const stream = events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join('');
    fake.use((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream);
    });
    const error = await failureOf(async () => {
      for await (const _ of await genai.client.models.generateContentStream({ model: MODEL, contents: 'x' }));
    });
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(await genai.last().answer).toBe(stream);

    fake.use((_request, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const worded = await failureOf(() =>
      genai.client.models.generateContent({ model: MODEL, contents: 'x' }),
    );
    expect(worded).toBeInstanceOf(ApiError);
    const body = await genai.last().answer;
    expect(body).not.toContain('<html>');
    expect(JSON.parse(body)).toMatchObject({
      error: { code: expect.any(Number), status: expect.any(String) },
    });
  });

  it('lowers generationConfig.maxOutputTokens, and only it, for an account that cannot pay the worst case', async () => {
    answer({ reply: 'short' });
    const poor = await createCustomer(t, 'poorgemini', {
      quota: 5_000,
      token: { remain_quota: 100_000_000 },
    });
    const { client, last } = recordingGenai(`sk-${poor.token.key}`, t.baseUrl);
    await client.models.generateContent({
      model: MODEL,
      contents: 'x',
      config: { temperature: 0.5, maxOutputTokens: 60_000 },
    });
    const lowered = Number(
      (fake.last().json?.generationConfig as { maxOutputTokens?: number } | undefined)?.maxOutputTokens,
    );
    expect(lowered).toBeGreaterThan(0);
    expect(lowered).toBeLessThan(60_000);
    expect(fake.last().body).toBe(
      last().body.replace('"maxOutputTokens":60000', `"maxOutputTokens":${lowered}`),
    );
  });

  it('counts tokens on the Gemini channel, unbilled and unlogged', async () => {
    answer({ countTokens: 1234 });
    const { quota, log } = await spentBy(t, customer, async () => {
      const counted = await genai.client.models.countTokens({
        model: 'gemini-latest',
        contents: 'How many?',
      });
      expect(counted.totalTokens).toBe(1234);
    });
    expectUntouchedRequest(`/v1beta/models/${MODEL}:countTokens`);
    expect(quota).toBe(0);
    expect(log?.prompt_tokens).not.toBe(1234);
  });

  it("maps a whole generateContentRequest's model for countTokens, and passes the channel's refusal on", async () => {
    answer({ countTokens: 55 });
    const body = JSON.stringify({
      generateContentRequest: { model: 'models/gemini-latest', contents: [{ parts: [{ text: 'x' }] }] },
    });
    const post = () =>
      fetch(`${t.baseUrl}/v1beta/models/gemini-latest:countTokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${customer.token.key}` },
        body,
      });
    const counted = await post();
    expect(await counted.json()).toEqual({ totalTokens: 55 });
    expect(fake.last().body).toBe(body.replace('models/gemini-latest', `models/${MODEL}`));
    answer({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'bad count' } });
    const refused = await post();
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe(sent[0]);
  });

  it('still translates for an OpenAI channel, where Google tools stay refused', async () => {
    const response = await genai.client.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hi' });
    expect(response.text).toBe('translated');
    expect(openAi.last().url).toBe('/v1/chat/completions');
    const counted = await genai.client.models.countTokens({ model: 'gpt-4o-mini', contents: 'Hello there' });
    expect(counted.totalTokens).toBeGreaterThan(0);
    const { error, refunded } = await expectRefunded(t, customer, () =>
      genai.client.models.generateContent({
        model: 'gpt-4o-mini',
        contents: 'Hi',
        config: { tools: [{ googleSearch: {} }] },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('googleSearch is not supported');
    expect(refunded).toBe(true);
  });
});

describe('Gemini pass-through retries', () => {
  let t: TestApp;
  let root: Client;
  let failing: HttpFake;
  let healthy: HttpFake;
  let customer: Customer;
  let genai: GoogleGenAI;

  beforeAll(async () => {
    failing = await new HttpFake(
      geminiHandler({ apiKey: KEY, error: { code: 503, status: 'UNAVAILABLE' } }),
    ).start();
    healthy = await new HttpFake(
      geminiHandler({ apiKey: KEY, reply: 'from the second', countTokens: 77 }),
    ).start();
    t = await startTestApp();
    root = await t.root();
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    await createChannel(root, { type: GEMINI, base_url: failing.url, key: KEY, models: MODEL, priority: 10 });
    await createChannel(root, { type: GEMINI, base_url: healthy.url, key: KEY, models: MODEL, priority: 5 });
    customer = await createCustomer(t, 'geminiretry', { quota: 100_000_000 });
    genai = new GoogleGenAI({
      apiKey: `sk-${customer.token.key}`,
      httpOptions: { baseUrl: t.baseUrl, retryOptions: { attempts: 1 } },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([failing.close(), healthy.close()]);
  });

  it('tries the next channel when the first fails before answering, and bills once', async () => {
    for (const stream of [false, true]) {
      const { quota, log } = await spentBy(t, customer, async () => {
        let text = '';
        if (!stream) text = (await genai.models.generateContent({ model: MODEL, contents: 'x' })).text ?? '';
        else {
          const chunks = await genai.models.generateContentStream({ model: MODEL, contents: 'x' });
          for await (const chunk of chunks) text += chunk.text ?? '';
        }
        expect(text).toBe('from the second');
      });
      expect(failing.requests.length).toBeGreaterThan(0);
      expect(healthy.last().body).toBe(failing.last().body);
      expect(quota).toBe(expectedQuota(MODEL, GEMINI, { prompt: 10, completion: 4 }));
      const channels = await root.get<EnvelopeBody<Array<{ base_url: string; id: number }>>>('/api/channel/');
      const second = channels.body.data!.find((channel) => channel.base_url === healthy.url)!;
      expect(log?.channel_id).toBe(second.id);
    }
  });

  it('counts tokens on the next channel when the first fails, unbilled and unlogged', async () => {
    const failedBefore = failing.requests.length;
    const logsBefore = (await consumeLogs(t, customer.userId)).length;
    const { quota } = await spentBy(t, customer, async () => {
      const counted = await genai.models.countTokens({ model: MODEL, contents: 'How many?' });
      expect(counted.totalTokens).toBe(77);
    });
    expect(failing.requests.slice(failedBefore).map((request) => request.url)).toEqual([
      `/v1beta/models/${MODEL}:countTokens`,
    ]);
    expect(healthy.last().url).toBe(`/v1beta/models/${MODEL}:countTokens`);
    expect(healthy.last().body).toBe(failing.last().body);
    expect(quota).toBe(0);
    expect(await consumeLogs(t, customer.userId)).toHaveLength(logsBefore);
  });

  it("tells channel health of a count the channel refused, and passes the refusal on in Google's shape", async () => {
    const model = 'gemini-2.0-dead-key';
    const dead = await createChannel(root, {
      type: GEMINI,
      base_url: healthy.url,
      key: 'AIzaRevoked',
      models: model,
    });
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    try {
      const response = await fetch(`${t.baseUrl}/v1beta/models/${model}:countTokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${customer.token.key}` },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
      });
      // Google answers a refused key 400; like a generation's, it is 401 here (adaptors/gemini/errors.ts), the body as sent.
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'API key not valid. Please pass a valid API key.',
        },
      });
    } finally {
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    }
    const channel = await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${dead}`);
    expect(channel.body.data?.status).toBe(3);
  });
});

import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { expectRefunded } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const MODEL = 'gpt-4o-mini';

/** Refusals and upstream failures reach Gemini clients in Google's error shape, with the right status. */
describe('Gemini-native API: keys, paths and errors', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let key: string;
  let genai: GoogleGenAI;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const hello = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

  /** The SDK's error for a failed call: an ApiError with the HTTP status and Google's body in its message. */
  async function sdkError(work: () => Promise<unknown>): Promise<ApiError> {
    const error = await work().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp({ env: { RELAY_BODY_LIMIT: '1' } });
    const root = await t.root();
    await createChannel(root, {
      type: 1,
      base_url: fake.url,
      key: 'sk-upstream',
      models: `${MODEL},vendor/model:7b`,
    });
    customer = await createCustomer(t, 'geminierrors', { quota: 100_000_000 });
    key = `sk-${customer.token.key}`;
    // @google/genai 3 calls /v1 by default, where GET /v1/models is OpenAI's list; Gemini's is under /v1beta.
    genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.baseUrl, apiVersion: 'v1beta' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('takes the key from x-goog-api-key, ?key= or a Bearer header, under /v1beta and /v1', async () => {
    fake.use(openAiHandler({ reply: 'hi' }));
    for (const [path, headers] of [
      [`/v1beta/models/${MODEL}:generateContent?key=${key}`, {}],
      [`/v1beta/models/${MODEL}:generateContent`, { authorization: `Bearer ${key}` }],
      [`/v1/models/${MODEL}:generateContent`, { 'x-goog-api-key': key }],
    ] as const) {
      const response = await post(path, hello, headers);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { candidates: Array<{ content: { parts: unknown[] } }> };
      expect(body.candidates[0]?.content.parts).toEqual([{ text: 'hi' }]);
    }
    // The key in the query never reaches the upstream.
    expect(fake.last().url).toBe('/v1/chat/completions');
  });

  it('routes a model whose name holds slashes and colons', async () => {
    const response = await post('/v1beta/models/vendor/model:7b:generateContent', hello, {
      'x-goog-api-key': key,
    });
    expect(response.status).toBe(200);
    expect(fake.last().json?.model).toBe('vendor/model:7b');
  });

  it('streams a JSON array without alt=sse', async () => {
    fake.use(openAiHandler({ reply: 'one two', usage: { prompt_tokens: 3, completion_tokens: 2 } }));
    const response = await post(`/v1beta/models/${MODEL}:streamGenerateContent`, hello, {
      'x-goog-api-key': key,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const chunks = (await response.json()) as Array<Record<string, unknown>>;
    expect(chunks.map((chunk) => JSON.stringify(chunk)).join('')).toContain('"text":"one"');
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
    });
  });

  it('a bad key is UNAUTHENTICATED (401), before the body is read', async () => {
    const stranger = new GoogleGenAI({ apiKey: 'sk-nope', httpOptions: { baseUrl: t.baseUrl } });
    const error = await sdkError(() => stranger.models.generateContent({ model: MODEL, contents: 'hi' }));
    expect(error.status).toBe(401);
    expect(JSON.parse(error.message)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const listing = await sdkError(() => stranger.models.list());
    expect(listing.status).toBe(401);
  });

  it('an unknown model is NOT_FOUND (404) for generate, stream, countTokens and get', async () => {
    const calls = [
      () => genai.models.generateContent({ model: 'no-such-model', contents: 'hi' }),
      () => genai.models.generateContentStream({ model: 'no-such-model', contents: 'hi' }),
      () => genai.models.countTokens({ model: 'no-such-model', contents: 'hi' }),
      () => genai.models.get({ model: 'no-such-model' }),
    ];
    for (const call of calls) {
      const error = await sdkError(call);
      expect(error.status).toBe(404);
      expect(JSON.parse(error.message)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    }
  });

  it("a model outside the key's list is PERMISSION_DENIED (403); a body over the limit is 413", async () => {
    const limited = await createCustomer(t, 'geminilimit', { token: { models: 'vendor/model:7b' } });
    const client = new GoogleGenAI({
      apiKey: `sk-${limited.token.key}`,
      httpOptions: { baseUrl: t.baseUrl, apiVersion: 'v1beta' },
    });
    const error = await sdkError(() => client.models.generateContent({ model: MODEL, contents: 'hi' }));
    expect(error.status).toBe(403);
    expect(JSON.parse(error.message)).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    const counted = await sdkError(() => client.models.countTokens({ model: MODEL, contents: 'hi' }));
    expect(counted.status).toBe(403);
    const names: string[] = [];
    for await (const model of await client.models.list()) names.push(model.name ?? '');
    expect(names).toEqual(['models/vendor/model:7b']);

    const big = { contents: [{ role: 'user', parts: [{ text: 'x'.repeat(1_200_000) }] }] };
    const response = await post(`/v1beta/models/${MODEL}:generateContent`, big, { 'x-goog-api-key': key });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
  });

  it('upstream 429 and 400 reach the SDK as its ApiError with that status, nothing billed', async () => {
    for (const [status, type] of [
      [429, 'rate_limit_error'],
      [400, 'invalid_request_error'],
    ] as const) {
      fake.use(openAiError(status, `upstream says ${status}`, type));
      const { error, refunded, logged } = await expectRefunded(t, customer, () =>
        genai.models.generateContent({ model: MODEL, contents: 'hi' }),
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      const body = JSON.parse((error as ApiError).message) as { error: { status: string } };
      expect(body.error.status).toBe(status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT');
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it('a stream that breaks off half-way ends with a Google error chunk the SDK raises', async () => {
    fake.use((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        id: 'chatcmpl-x',
        choices: [{ index: 0, delta: { content: 'half' }, finish_reason: null }],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      setTimeout(() => res.destroy(), 50);
    });
    const texts: string[] = [];
    const error = await sdkError(async () => {
      const stream = await genai.models.generateContentStream({ model: MODEL, contents: 'hi' });
      for await (const chunk of stream) texts.push(chunk.text ?? '');
    });
    expect(texts).toEqual(['half']);
    expect(error.status).toBe(502);
  });

  it('bad input is INVALID_ARGUMENT (400) in Google shape, never a 500', async () => {
    const headers = { 'x-goog-api-key': key };
    const cases: Array<[string, unknown, number]> = [
      [`/v1beta/models/${MODEL}:generateContent`, '{not json', 400],
      [`/v1beta/models/${MODEL}:generateContent`, { contents: [] }, 400],
      [`/v1beta/models/${MODEL}:generateContent`, { contents: 'text' }, 400],
      [`/v1beta/models/${MODEL}:generateContent`, { ...hello, tools: [{ googleSearch: {} }] }, 400],
      [`/v1beta/models/${MODEL}:generateContent`, { ...hello, generationConfig: { candidateCount: 2 } }, 400],
      [`/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: 'user' }] }, 400],
      [`/v1beta/models/${MODEL}:embedContent`, hello, 404],
      [`/v1beta/models/${MODEL}`, hello, 404],
    ];
    for (const [path, body, status] of cases) {
      const response = await post(path, body, headers);
      expect(response.status, path).toBe(status);
      const error = (await response.json()) as { error: { code: number; status: string; message: string } };
      expect(error.error.code).toBe(status);
      expect(error.error.status).toBe(status === 400 ? 'INVALID_ARGUMENT' : 'NOT_FOUND');
    }
    const refused = await (
      await post(
        `/v1beta/models/${MODEL}:generateContent`,
        { ...hello, tools: [{ googleSearch: {} }] },
        headers,
      )
    ).json();
    expect(JSON.stringify(refused)).toContain('googleSearch is not supported');
  });
});

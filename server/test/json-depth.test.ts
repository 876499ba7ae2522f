import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { logCapture, startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

/** `{"a":{"a":…}}` nested `depth` levels, as text (JSON.stringify itself would run out of stack). */
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
/** The deepest nesting a body may have. */
const MAX_JSON_DEPTH = 128;
const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON nested beyond 128 levels is refused before it is walked', () => {
  const logs = logCapture();
  let t: TestApp;
  let upstream: HttpFake;
  let customer: Customer;

  beforeAll(async () => {
    t = await startTestApp({ logger: logs.logger });
    upstream = await new HttpFake(openAiHandler()).start();
    const root = await t.root();
    await createChannel(root, {
      base_url: upstream.url,
      models: 'gpt-4o',
    });
    await createChannel(root, { type: 24, key: 'gemini-key', base_url: upstream.url, models: 'gemini-pro' });
    customer = await createCustomer(t, 'deepjson', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('anonymous sign-in with a body 10,000 levels deep: refused, no stack overflow, nothing logged as a bug', async () => {
    for (const body of [
      `{"username":"root","password":${nestedObject(10_000)}}`,
      `{"username":${nestedArray(10_000)}}`,
    ]) {
      const response = await post('/api/user/login', body);
      expect(response.status).toBeLessThan(500);
      expect(await response.json()).toMatchObject({ success: false, code: 'json_too_deep' });
    }
    expect(logs.text()).not.toContain('Maximum call stack');
    expect(logs.text()).not.toContain('unhandled error');
    // The server still serves.
    const login = await post('/api/user/login', JSON.stringify({ username: 'root', password: '123456' }));
    expect(await login.json()).toMatchObject({ success: true });
  });

  it('a body just within the limit is read as usual', async () => {
    const response = await post(
      '/api/user/login',
      `{"username":"root","password":"123456","extra":${nestedObject(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(await response.json()).not.toMatchObject({ code: 'json_too_deep' });
  });

  it.each([
    ['/v1/chat/completions', 'authorization', 'Bearer'],
    ['/v1/messages', 'x-api-key', ''],
    ['/v1/responses', 'authorization', 'Bearer'],
    ['/v1beta/models/gemini-pro:generateContent', 'x-goog-api-key', ''],
  ])('%s answers 400 for a deep body, and the upstream is not called', async (path, header, scheme) => {
    const calls = upstream.requests.length;
    const key = `${scheme ? `${scheme} ` : ''}sk-${customer.token.key}`;
    const model = path.startsWith('/v1beta') ? 'gemini-pro' : 'gpt-4o';
    const response = await post(
      path,
      `{"model":"${model}","max_tokens":5,"messages":[{"role":"user","content":${nestedArray(10_000)}}],"input":"hi","contents":${nestedArray(10_000)}}`,
      { [header]: key },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('nested too deeply');
    expect(upstream.requests.length).toBe(calls);
    expect(logs.text()).not.toContain('Maximum call stack');
  });

  it('a string full of brackets is no nesting', async () => {
    const response = await post(
      '/v1/chat/completions',
      JSON.stringify({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: `${'[{'.repeat(5_000)} \\" ${'"['.repeat(500)}` }],
      }),
      { authorization: `Bearer sk-${customer.token.key}` },
    );
    expect(response.status).toBe(200);
  });
});

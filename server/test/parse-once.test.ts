import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ASKED = 'words-only-the-request-holds';
const SAID = 'words-only-the-answer-holds';
/** An OpenAI upstream that never parses what it is sent, so every parse counted is the gateway's. */
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: SAID }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
});

describe('each body is parsed once and written at most once per call', () => {
  let t: TestApp;
  let upstream: http.Server;
  let customer: Customer;

  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(COMPLETION);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    t = await startTestApp();
    await createChannel(await t.root(), {
      type: 1,
      base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      key: 'sk-upstream',
      models: 'gpt-4o-mini,claude-3-haiku-20240307,gemini-2.0-flash',
    });
    customer = await createCustomer(t, 'parsed-once', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  /** Counts the parses and writes of the request's and the answer's JSON during one call. */
  async function count(path: string, body: object, headers: Record<string, string>) {
    const text = JSON.stringify(body);
    await t.app.services.relay.settled();
    const parse = vi.spyOn(JSON, 'parse');
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const answer = await fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: text,
      });
      const said = await answer.text();
      expect(answer.status, said).toBe(200);
      expect(said).toContain(SAID);
      await t.app.services.relay.settled();
      const parsed = parse.mock.calls.map(([value]) => String(value));
      const written = stringify.mock.results.map(({ value }) => String(value));
      const holding = (texts: string[], words: string) =>
        texts.filter((value) => value.includes(words)).length;
      return {
        requestParses: holding(parsed, ASKED),
        answerParses: holding(parsed, SAID),
        requestWrites: holding(written, ASKED),
        answerWrites: holding(written, SAID),
      };
    } finally {
      parse.mockRestore();
      stringify.mockRestore();
    }
  }

  it('OpenAI chat on an OpenAI channel: the request parsed once and sent as it came; the answer parsed once', async () => {
    const counts = await count(
      '/v1/chat/completions',
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: ASKED }] },
      { authorization: `Bearer sk-${customer.token.key}` },
    );
    expect(counts).toEqual({ requestParses: 1, answerParses: 1, requestWrites: 0, answerWrites: 0 });
  });

  it('Anthropic messages translated for an OpenAI channel: each body parsed once, each translation written once', async () => {
    const counts = await count(
      '/v1/messages',
      { model: 'claude-3-haiku-20240307', max_tokens: 50, messages: [{ role: 'user', content: ASKED }] },
      { 'x-api-key': `sk-${customer.token.key}`, 'anthropic-version': '2023-06-01' },
    );
    expect(counts).toEqual({ requestParses: 1, answerParses: 1, requestWrites: 1, answerWrites: 1 });
  });

  it('Gemini generateContent translated for an OpenAI channel: the same', async () => {
    const counts = await count(
      '/v1beta/models/gemini-2.0-flash:generateContent',
      { contents: [{ role: 'user', parts: [{ text: ASKED }] }] },
      { 'x-goog-api-key': `sk-${customer.token.key}` },
    );
    expect(counts).toEqual({ requestParses: 1, answerParses: 1, requestWrites: 1, answerWrites: 1 });
  });
});

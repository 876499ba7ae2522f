import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHandler, HttpFake } from './fakes/http-fake';
import { type Client, logCapture, startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

/**
 * A hostile or careless provider may put the channel's key in any field of its error: the key holder
 * must never get it back, whatever the field, the route or the format. The key has no credential
 * shape, so only the channel's own key tells it apart.
 */
const KEY = 'quokka-channel-secret-5150';
/** The key with its first letter as a JSON escape: a text search misses it, a JSON reader decodes it. */
const ESCAPED = `\\u0071${KEY.slice(1)}`;

interface Provider {
  name: string;
  type: number;
  model: string;
  /** Error bodies in the provider's shape, each with the key in one field. */
  forms: Array<[field: string, body: string]>;
}

const json = (value: unknown) => JSON.stringify(value);

const PROVIDERS: Provider[] = [
  {
    name: 'OpenAI',
    type: 1,
    model: 'gpt-4o',
    forms: [
      ['error.type', json({ error: { message: 'refused', type: KEY, param: null, code: null } })],
      ['error.param', json({ error: { message: 'refused', type: 'invalid_request_error', param: KEY } })],
      ['error.code', json({ error: { message: 'refused', type: 'invalid_request_error', code: KEY } })],
      ['an object key', json({ error: { message: 'refused', type: 'x', details: { [KEY]: 'unknown' } } })],
      ['a nested field', json({ error: { message: 'refused', type: 'x', details: [{ hint: [KEY] }] } })],
      ['an escaped message', `{"error":{"message":"bad key ${ESCAPED}","type":"x","code":"${ESCAPED}"}}`],
    ],
  },
  {
    name: 'Anthropic',
    type: 14,
    model: 'claude-3-haiku-20240307',
    forms: [
      ['error.type', json({ type: 'error', error: { type: KEY, message: 'refused' } })],
      [
        'a field of its own',
        json({ type: 'error', error: { type: 'invalid_request_error', message: 'x', key: KEY } }),
      ],
      [
        'an escaped message',
        `{"type":"error","error":{"type":"invalid_request_error","message":"${ESCAPED}"}}`,
      ],
    ],
  },
  {
    name: 'Gemini',
    type: 24,
    model: 'gemini-1.5-flash',
    forms: [
      ['error.status', json({ error: { code: 400, message: 'refused', status: KEY } })],
      [
        'error.details',
        json({
          error: { code: 400, message: 'refused', status: 'INVALID_ARGUMENT', details: [{ reason: KEY }] },
        }),
      ],
      ['an escaped message', `{"error":{"code":400,"message":"${ESCAPED}","status":"INVALID_ARGUMENT"}}`],
    ],
  },
];

/** The relay routes a key holder calls, each in its own format. */
const ROUTES: Array<[name: string, call: (model: string) => [string, RequestInit]]> = [
  ['chat', (model) => ['/v1/chat/completions', post({ model, messages: [{ role: 'user', content: 'hi' }] })]],
  [
    'chat stream',
    (model) => [
      '/v1/chat/completions',
      post({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    ],
  ],
  ['responses', (model) => ['/v1/responses', post({ model, input: 'hi' })]],
  ['responses stream', (model) => ['/v1/responses', post({ model, input: 'hi', stream: true })]],
  [
    'messages',
    (model) => ['/v1/messages', post({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })],
  ],
  [
    'messages stream',
    (model) => [
      '/v1/messages',
      post({ model, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    ],
  ],
  [
    'messages count_tokens',
    (model) => ['/v1/messages/count_tokens', post({ model, messages: [{ role: 'user', content: 'hi' }] })],
  ],
  [
    'gemini countTokens',
    (model) => [`/v1beta/models/${model}:countTokens`, post({ contents: [{ parts: [{ text: 'hi' }] }] })],
  ],
  [
    'gemini generateContent',
    (model) => [`/v1beta/models/${model}:generateContent`, post({ contents: [{ parts: [{ text: 'hi' }] }] })],
  ],
  [
    'gemini streamGenerateContent',
    (model) => [
      `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      post({ contents: [{ parts: [{ text: 'hi' }] }] }),
    ],
  ],
];

function post(body: unknown): RequestInit {
  return { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** What a client reading the answer could see: the text with JSON's `\uXXXX` escapes decoded. */
const decoded = (text: string) =>
  text.replace(/\\u([0-9a-fA-F]{4})/g, (_match, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );

describe('provider errors reach key holders without the channel key', () => {
  const logs = logCapture();
  let t: TestApp;
  let root: Client;
  let customer: Customer;
  const fakes: HttpFake[] = [];

  beforeAll(async () => {
    t = await startTestApp({ logger: logs.logger });
    root = await t.root();
    customer = await createCustomer(t, 'redactee');
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of fakes) await fake.close();
    // Nor does the server log keep it.
    expect(leaks(logs.text())).toBe(false);
  });

  async function withUpstream(
    type: number,
    model: string,
    handler: FakeHandler,
    run: (id: number) => Promise<void>,
  ) {
    const fake = await new HttpFake(handler).start();
    fakes.push(fake);
    const id = await createChannel(root, {
      name: 'hostile',
      type,
      key: KEY,
      base_url: fake.url,
      models: model,
    });
    try {
      await run(id);
    } finally {
      await root.delete(`/api/channel/${id}`);
    }
  }

  async function relay([path, init]: [string, RequestInit]): Promise<{ status: number; text: string }> {
    const key = `sk-${customer.token.key}`;
    const response = await fetch(`${t.baseUrl}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${key}`,
        'x-api-key': key,
      },
    });
    return { status: response.status, text: await response.text() };
  }

  const leaks = (text: string) => decoded(text).includes(KEY) || decoded(text).includes(KEY.slice(1));

  for (const provider of PROVIDERS) {
    it(`${provider.name}: the key in any field of an error answer, on every route and in the channel test`, async () => {
      const seen: string[] = [];
      for (const [field, body] of provider.forms) {
        const handler: FakeHandler = (_request, res) => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(body);
        };
        await withUpstream(provider.type, provider.model, handler, async (id) => {
          for (const [route, call] of ROUTES) {
            const answer = await relay(call(provider.model));
            // Routes that do not reach this provider's channel answer without calling it; none may leak.
            seen.push(`${field} on ${route}: ${answer.status}`);
            expect(leaks(answer.text), `${field} on ${route}: ${answer.text}`).toBe(false);
          }
          const tested = await root.get<{ success: boolean; message: string }>(`/api/channel/test/${id}`);
          expect(tested.body.success).toBe(false);
          expect(leaks(tested.body.message), `${field} in the channel test: ${tested.body.message}`).toBe(
            false,
          );
        });
      }
      // Every route reached the provider at least once with an error (not all refused before it).
      expect(seen.filter((line) => /: 4\d\d$/.test(line)).length).toBeGreaterThan(provider.forms.length * 3);
    });
  }

  it('an error event inside a stream, its key in any field or split between chunks', async () => {
    const openAiEvent = `data: {"error":{"message":"refused","type":"${KEY}","param":"${ESCAPED}","code":"${KEY}"}}\n\n`;
    await withUpstream(
      1,
      'gpt-4o',
      (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"a"}}]}\n\n',
        );
        res.end(openAiEvent);
      },
      async () => {
        for (const [route, call] of ROUTES.filter(
          ([name]) => name === 'chat stream' || name === 'messages stream',
        )) {
          const answer = await relay(call('gpt-4o'));
          expect(answer.text, route).toContain('refused');
          expect(leaks(answer.text), `${route}: ${answer.text}`).toBe(false);
        }
      },
    );
    // OpenAI's Responses stream, passed through: its `error` event, the key split between chunks.
    const created = json({
      type: 'response.created',
      sequence_number: 0,
      response: { id: 'resp_1', object: 'response', status: 'in_progress', model: 'gpt-4o', output: [] },
    });
    const failed = `event: error\ndata: {"type":"error","sequence_number":1,"code":"${KEY}","message":"refused","param":"${ESCAPED}"}\n\n`;
    await withUpstream(
      1,
      'gpt-4o',
      async (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: response.created\ndata: ${created}\n\n`);
        const cut = failed.indexOf(KEY) + 6;
        res.write(failed.slice(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 50));
        res.end(failed.slice(cut));
      },
      async () => {
        const [, call] = ROUTES.find(([name]) => name === 'responses stream')!;
        const answer = await relay(call('gpt-4o'));
        expect(answer.text).toContain('refused');
        expect(leaks(answer.text), answer.text).toBe(false);
      },
    );
    const start = json({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-haiku-20240307',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    });
    const error = `event: error\ndata: {"type":"error","error":{"type":"${KEY}","message":"refused ${ESCAPED}"}}\n\n`;
    const cut = error.indexOf(KEY) + 6;
    await withUpstream(
      14,
      'claude-3-haiku-20240307',
      async (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message_start\ndata: ${start}\n\n`);
        // The key's first letters in one chunk, the rest in the next.
        res.write(error.slice(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 50));
        res.end(error.slice(cut));
      },
      async () => {
        for (const [route, call] of ROUTES.filter(
          ([name]) => name.endsWith('stream') && !name.startsWith('gemini'),
        )) {
          const answer = await relay(call('claude-3-haiku-20240307'));
          expect(answer.text, route).toContain('refused');
          expect(leaks(answer.text), `${route}: ${answer.text}`).toBe(false);
        }
      },
    );
  });
});

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { booksOnce } from './ledger-books';
import { type Customer, createChannel, createCustomer } from './relay-setup';
import { Upload, type UploadAnswer, upload } from './uploads';
import { waitUntil } from './wait';

// The relay's JSON calls are served ahead of Fastify when their body came with their headers
// (relay/front/direct.ts), and by Fastify otherwise: chunked, or still arriving once the key is
// checked. Whichever serves a call, the client must see the same answer and the books the same charge.

const REPLY = 'served either way';
const CHAT = { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] };

/** The headers both paths must agree on (the request id differs from call to call, its form does not). */
const sameHeaders = (answer: UploadAnswer) => ({
  status: answer.status,
  type: answer.headers['content-type'],
  cors: answer.headers['access-control-allow-origin'],
  requestId: /^\d{25}$/.test(String(answer.headers['x-oneapi-request-id'])),
  retryAfter: answer.headers['retry-after'],
});

/** The body with request ids taken out of its messages. */
const withoutRequestIds = (answer: UploadAnswer) => answer.body.replace(/\d{25}/g, '<request id>');

describe('the direct path and Fastify answer a relay call the same', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let headers: Record<string, string>;
  const chatUrl = () => `${t.baseUrl}/v1/chat/completions`;

  /** The call three ways: body with its headers, chunked, and declared but sent once the head was answered… not. */
  async function threeWays(url: string, callHeaders: Record<string, string>, body: Buffer) {
    const direct = await upload(url, callHeaders, body);
    const chunked = await upload(url, callHeaders, body, { chunked: true });
    // Its head first, its body once the server has had time to check the key: read by Fastify.
    const late = new Upload(url, callHeaders, body.length);
    late.sendHead();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await late.write(body);
    late.end();
    return [direct, chunked, await late.answer];
  }

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: REPLY })).start();
    t = await startTestApp({ env: { RELAY_BODY_LIMIT: '12', REQUEST_BODY_BUDGET: '16' } });
    await createChannel(await t.root(), { base_url: fake.url, models: 'gpt-3.5-turbo' });
    customer = await createCustomer(t, 'direct', { quota: 10_000_000 });
    headers = { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('a chat call: the same answer, and each call billed and logged once', async () => {
    // The key read into memory first, as a busy key is: then the key is checked at once.
    const warm = await upload(chatUrl(), headers, Buffer.from(JSON.stringify(CHAT)));
    expect(warm.status).toBe(200);
    await booksOnce(t, customer.userId, customer.token.id, (b) => b.logs === 1, 'the first log');
    const calls = fake.requests.length;
    const servedDirectly = t.app.direct.served;
    const answers = await threeWays(chatUrl(), headers, Buffer.from(JSON.stringify(CHAT)));
    // The call whose body came with its headers took the direct path; the other two Fastify's.
    expect(t.app.direct.served - servedDirectly).toBe(1);
    for (const answer of answers) {
      expect(sameHeaders(answer)).toEqual(sameHeaders(answers[0]!));
      expect(answer.json).toEqual(answers[0]!.json);
    }
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.json).toMatchObject({ choices: [{ message: { content: REPLY } }] });
    expect(fake.requests.length - calls).toBe(3);
    const now = await booksOnce(t, customer.userId, customer.token.id, (b) => b.logs === 4, 'four logs');
    expect(now.logged).toBe(now.usedQuota);
    expect(now.usedQuota % 4).toBe(0);
  });

  it('refusals: a wrong key, a body nested too deep, a body whose parsed form overflows the budget', async () => {
    const calls = fake.requests.length;
    const deep = Buffer.from(`{"model":"gpt-3.5-turbo","x":${'['.repeat(200)}${']'.repeat(200)}}`);
    // 600,000 values: counted at 32 bytes each once parsed, 19 MB against a budget of 16.
    const wide = Buffer.from(`{"model":"gpt-3.5-turbo","x":[${'0,'.repeat(599_999)}0]}`);
    const cases: Array<[Record<string, string>, Buffer, number, string]> = [
      [
        { ...headers, authorization: 'Bearer sk-wrong' },
        Buffer.from(JSON.stringify(CHAT)),
        401,
        'invalid_api_key',
      ],
      [headers, deep, 400, 'json_too_deep'],
      [headers, wide, 503, 'body_budget_full'],
    ];
    for (const [callHeaders, body, status, code] of cases) {
      const answers = await threeWays(chatUrl(), callHeaders, body);
      for (const answer of answers) {
        expect(sameHeaders(answer)).toEqual(sameHeaders(answers[0]!));
        expect(withoutRequestIds(answer)).toBe(withoutRequestIds(answers[0]!));
      }
      expect([answers[0]!.status, (answers[0]!.json?.error as { code?: string })?.code]).toEqual([
        status,
        code,
      ]);
    }
    expect(fake.requests.length).toBe(calls);
  });

  it("Anthropic's route refuses in Anthropic's shape either way", async () => {
    const body = Buffer.from(JSON.stringify({ model: 'claude-3-haiku', max_tokens: 5, messages: [] }));
    const answers = await threeWays(
      `${t.baseUrl}/v1/messages`,
      { 'x-api-key': 'sk-wrong', 'content-type': 'application/json' },
      body,
    );
    for (const answer of answers) expect(withoutRequestIds(answer)).toBe(withoutRequestIds(answers[0]!));
    expect(answers[0]!.json).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    // A body refused once read (by Fastify's parser when chunked): in Anthropic's shape too.
    const deep = Buffer.from(`{"model":"claude-3-haiku","x":${'['.repeat(200)}${']'.repeat(200)}}`);
    const refused = await threeWays(
      `${t.baseUrl}/v1/messages`,
      { ...headers, 'x-api-key': customer.token.key },
      deep,
    );
    for (const answer of refused) expect(withoutRequestIds(answer)).toBe(withoutRequestIds(refused[0]!));
    expect([refused[0]!.status, refused[0]!.json]).toMatchObject([400, { type: 'error' }]);
  });
});

describe('the direct path while the server closes', () => {
  let t: TestApp;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: REPLY })).start();
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('a call arriving on an open connection once closing began is answered 503 without an upstream call', async () => {
    await createChannel(await t.root(), { base_url: fake.url, models: 'gpt-3.5-turbo' });
    const customer = await createCustomer(t, 'closing');
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = openAiHandler({ reply: REPLY });
    fake.use(async (request, res) => {
      await released;
      await answer(request, res);
    });
    const body = JSON.stringify(CHAT);
    const request = (connection: string) =>
      `POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer sk-${customer.token.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: ${connection}\r\n\r\n${body}`;
    const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(request('keep-alive'));
    await waitUntil(() => fake.requests.length === 1, { what: 'the first call upstream' });

    const closed = t.app.server.close();
    await waitUntil(() => !t.app.server.server.listening, { what: 'the server to stop listening' });
    // The second call comes on the first's connection, which closing does not cut while it is busy.
    socket.write(request('close'));
    release();
    await ended;
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([200, 503]);
    expect(fake.requests.length).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkJsonShape } from '../src/http/json-shape';
import { TEST_DIALECT } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { sleep } from './ledger-books';
import { createChannel, createCustomer } from './relay-setup';
import { Upload, upload } from './uploads';

const MB = 1024 * 1024;
const METRICS_TOKEN = 'hostile-bodies-metrics';
const json = { 'content-type': 'application/json' };
const chat = (extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }], ...extra }),
  );

/** Polls `check` until it holds, failing with its last value after `ms`. */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (holds(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}

/** Runs `count` calls of `call`, at most `width` at a time. */
async function inWaves(count: number, width: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await call(next++);
    }),
  );
}

describe(`hostile request bodies (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let fake: HttpFake;
  let attackerKey: string;
  let userKey: string;

  /** Bytes of request bodies the server counts against its budget (its /metrics gauge). */
  const bodyBytesHeld = async () => {
    const text = await (
      await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const value = /^switchyard_request_body_bytes (\d+)$/m.exec(text)?.[1];
    if (value === undefined) throw new Error(`no body gauge in /metrics:\n${text.slice(0, 500)}`);
    return Number(value);
  };
  const budgetEmptied = async () => expect(await eventually(bodyBytesHeld, (held) => held === 0)).toBe(0);

  /** A key holder's chat call, answered within `ms`. */
  const served = async (key: string, ms = 5_000) => {
    const started = Date.now();
    const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key}` },
      body: chat(),
      signal: AbortSignal.timeout(ms),
    });
    return { status: response.status, body: await response.text(), ms: Date.now() - started };
  };
  const signIn = async (address?: string) => {
    const response = await fetch(`${t.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { ...json, ...(address ? { 'x-forwarded-for': address } : {}) },
      body: JSON.stringify({ username: 'root', password: '123456' }),
      signal: AbortSignal.timeout(5_000),
    });
    return (await response.json()) as { success: boolean };
  };

  /** Connections that declare `length` bytes, send `sent` of them and hang on. */
  const holders: Upload[] = [];
  const hang = async (path: string, headers: Record<string, string>, length: number, sent: number) => {
    const call = new Upload(`${t.baseUrl}${path}`, headers, length);
    holders.push(call);
    await call.write(Buffer.alloc(sent, 0x20));
    return call;
  };
  const letGo = () => {
    for (const call of holders.splice(0)) call.abort();
  };

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'fine' })).start();
    // The smallest budget: 16 MB, a user's share and the anonymous callers' a quarter of it (4 MB).
    t = await startTestApp({
      env: {
        RELAY_BODY_LIMIT: '4',
        REQUEST_BODY_BUDGET: '16',
        METRICS_TOKEN,
      },
    });
    await createChannel(await t.root(), { base_url: fake.url });
    attackerKey = `sk-${(await createCustomer(t, 'attacker', { quota: 100_000_000 })).token.key}`;
    userKey = `sk-${(await createCustomer(t, 'bystander', { quota: 100_000_000 })).token.key}`;
  });
  afterAll(async () => {
    letGo();
    await t?.close();
    await fake?.close();
  });

  it('chunked bodies over the limit, to unknown and known paths: the process stays up and the budget returns to zero', async () => {
    const body = Buffer.alloc(5 * MB, 0x78);
    const targets = ['/nope', '/api/user/login', '/v1/chat/completions'];
    await inWaves(96, 16, async (i) => {
      const path = targets[i % targets.length]!;
      const headers = path.startsWith('/v1') ? { ...json, authorization: `Bearer ${attackerKey}` } : json;
      const answer = await upload(`${t.baseUrl}${path}`, headers, body, { chunked: true }).catch(
        (error: Error) => ({ status: 0, body: String(error) }),
      );
      expect([0, 200, 404, 413, 503], `${path}: ${answer.body.slice(0, 200)}`).toContain(answer.status);
    });
    await budgetEmptied();
    expect((await served(userKey)).status).toBe(200);
    expect(await signIn()).toMatchObject({ success: true });
  });

  it('256 anonymous connections declaring 1 MiB: unknown paths answered at once, sign-in bodies held by bytes received', async () => {
    const unknown = await Promise.all(Array.from({ length: 256 }, () => hang('/nope', json, MB, 1)));
    for (const call of unknown) expect((await call.answer).status).toBe(404);
    await Promise.all(Array.from({ length: 256 }, () => hang('/api/user/login', json, MB, 1)));
    // One byte each has arrived, and that is all they hold.
    expect(await eventually(bodyBytesHeld, (held) => held === 256)).toBe(256);
    const call = await served(userKey);
    expect(call.status, call.body).toBe(200);
    expect(await signIn('192.0.2.1')).toMatchObject({ success: true });
    letGo();
    await budgetEmptied();
  });

  it('anonymous bodies from many addresses fill at most their quarter: key holders are served', async () => {
    // 64 addresses (through the trusted loopback proxy) each sending 900 KB of a sign-in body.
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        hang('/api/user/login', { ...json, 'x-forwarded-for': `198.51.100.${i}` }, MB, 900_000),
      ),
    );
    const held = await eventually(bodyBytesHeld, (bytes) => bytes > 3 * MB);
    expect(held).toBeGreaterThan(3 * MB);
    expect(held).toBeLessThanOrEqual(4 * MB);
    const call = await served(userKey);
    expect(call.status, call.body).toBe(200);
    expect(await bodyBytesHeld()).toBeLessThanOrEqual(4 * MB);
    letGo();
    await budgetEmptied();
  });

  it('one key holder with 8 bodies declared or sent up to the limit holds only its share: others are served', async () => {
    const key = { ...json, authorization: `Bearer ${attackerKey}` };
    await Promise.all(Array.from({ length: 4 }, () => hang('/v1/chat/completions', key, 4 * MB, 1)));
    await Promise.all(Array.from({ length: 4 }, () => hang('/v1/chat/completions', key, 3 * MB, 3 * MB - 1)));
    const held = await eventually(bodyBytesHeld, (bytes) => bytes >= 3 * MB - 1);
    expect(held).toBeGreaterThanOrEqual(3 * MB - 1);
    expect(held).toBeLessThanOrEqual(4 * MB);
    const call = await served(userKey);
    expect(call.status, call.body).toBe(200);
    expect(await signIn()).toMatchObject({ success: true });
    letGo();
    await budgetEmptied();
  });

  it('a small body that arrived whole is held in the budget until its answer ends', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answerFine = openAiHandler({ reply: 'fine' });
    const gated = await new HttpFake(async (request, response) => {
      await gate;
      await answerFine(request, response);
    }).start();
    try {
      await createChannel(await t.root(), { name: 'gated', base_url: gated.url, models: 'gpt-4o-mini' });
      const body = chat({ model: 'gpt-4o-mini' });
      const call = fetch(`${t.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${userKey}` },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      expect(
        await eventually(
          () => Promise.resolve(gated.requests.length),
          (count) => count === 1,
        ),
      ).toBe(1);
      // Its bytes, and what parsing it adds to the heap.
      expect(await bodyBytesHeld()).toBe(body.length + checkJsonShape(body));
      release();
      expect((await call).status).toBe(200);
      await budgetEmptied();
    } finally {
      release();
      await gated.close();
    }
  });

  it('a body that stops arriving is refused (body_timeout) after REQUEST_BODY_IDLE_TIMEOUT and its connection closed', async () => {
    const impatient = await startTestApp({ env: { REQUEST_BODY_IDLE_TIMEOUT: '1', METRICS_TOKEN } });
    try {
      const stalled = new Upload(`${impatient.baseUrl}/api/user/login`, json, 1000);
      await stalled.write(Buffer.from('{"username":"root",'));
      const answer = await Promise.race([stalled.answer, sleep(5_000).then(() => undefined)]);
      // In the envelope on /api (HTTP 200, as one-api answers refusals there), then the connection closes.
      expect(answer?.status).toBe(200);
      expect(answer?.headers.connection).toBe('close');
      expect(answer?.json).toMatchObject({
        success: false,
        code: 'body_timeout',
        message: 'The request body stopped arriving: nothing came for 1 seconds',
      });
      stalled.abort();
    } finally {
      await impatient.close();
    }
  });

  describe('JSON bodies are admitted by their shape before they are parsed', () => {
    const post = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
      upload(`${t.baseUrl}${path}`, { ...json, ...headers }, body);

    it('a body of millions of empty objects within RELAY_BODY_LIMIT: 413 before it is parsed', async () => {
      const empties = `[${Array(1_200_000).fill('{}').join(',')}]`;
      const body = Buffer.from(
        `{"model":"gpt-3.5-turbo","messages":[{"role":"user","content":"hi"}],"x":${empties}}`,
      );
      expect(body.length).toBeLessThan(4 * MB);
      const answer = await post('/v1/chat/completions', body, { authorization: `Bearer ${attackerKey}` });
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({
        error: {
          code: 'json_too_many_values',
          message: expect.stringMatching(/^The JSON body holds too many values: at most 100000 objects/),
        },
      });
      await budgetEmptied();
    });

    it('too many object members or values: 413; nested beyond 128 levels: 400, on /api too', async () => {
      const key = { authorization: `Bearer ${attackerKey}` };
      const members = `{${Array.from({ length: 100_001 }, (_, i) => `"k${i}":0`).join(',')}}`;
      const manyMembers = await post(
        '/v1/embeddings',
        Buffer.from(`{"model":"m","input":"x","o":${members}}`),
        key,
      );
      expect(manyMembers.status).toBe(413);
      const numbers = `[${Array(1_000_001).fill('1').join(',')}]`;
      const manyNumbers = await post('/v1/embeddings', Buffer.from(`{"model":"m","input":${numbers}}`), key);
      expect(manyNumbers.status).toBe(413);

      const deep = `{"model":"gpt-3.5-turbo","messages":${'['.repeat(129)}${']'.repeat(129)}}`;
      const tooDeep = await post('/v1/chat/completions', Buffer.from(deep), key);
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.json).toMatchObject({ error: { code: 'json_too_deep' } });

      const deepLogin = `{"username":${'['.repeat(10_000)}${']'.repeat(10_000)},"password":"x"}`;
      const login = await post('/api/user/login', Buffer.from(deepLogin));
      expect(login.status).toBe(200);
      expect(login.json).toMatchObject({ success: false, code: 'json_too_deep' });
    });

    it('what real calls send still passes: a 3 MB image, 128 levels, strings full of brackets', async () => {
      const image = `data:image/png;base64,${'A'.repeat(3 * MB)}`;
      const big = await post(
        '/v1/chat/completions',
        chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: image } }] }] }),
        { authorization: `Bearer ${userKey}` },
      );
      expect(big.status, big.body.slice(0, 300)).toBe(200);
      const nested = `${'['.repeat(126)}1${']'.repeat(126)}`;
      const brackets = '{[,:"\\"'.repeat(200_000);
      const odd = await post(
        '/v1/chat/completions',
        chat({ metadata: JSON.parse(`{"a":${nested}}`), x: brackets }),
        {
          authorization: `Bearer ${userKey}`,
        },
      );
      expect(odd.status, odd.body.slice(0, 300)).toBe(200);
      await budgetEmptied();
    });
  });
});

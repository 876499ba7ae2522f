import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, PAGE_LOAD, startTestApp, type TestApp } from './harness';

const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITED = { CRITICAL_RATE_LIMIT: '20', CRITICAL_RATE_LIMIT_WINDOW: '1200' };

/** A client IP of its own for this run (the app trusts X-Forwarded-For from loopback), so runs never share a count. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A browser at this address (its page loads ask for HTML). */
const from = (ip: string) => ({ 'x-forwarded-for': ip, ...PAGE_LOAD });

async function statesFrom(client: Client, ip: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let call = 0; call < count; call++)
    statuses.push((await client.get('/api/oauth/state', from(ip))).status);
  return statuses;
}

describe('critical rate limit in one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMITED });
  });
  afterAll(() => t.close());

  it('answers the 21st critical call in the window with 429 and the envelope', async () => {
    const ip = freshIp();
    const client = t.client();
    expect(await statesFrom(client, ip, 20)).toEqual(Array(20).fill(200));
    const refused = await client.get('/api/oauth/state', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many requests, please try again later',
      code: 'too_many_requests',
    });
    // Every critical route shares the count; other routes and other clients are not affected.
    const login = await client.request(
      'POST',
      '/api/user/login',
      { username: 'root', password: '123456' },
      from(ip),
    );
    expect(login.status).toBe(429);
    expect((await client.get('/api/verification?email=a@example.com', from(ip))).status).toBe(429);
    expect((await client.get('/api/status', from(ip))).status).toBe(200);
    expect((await client.get('/api/oauth/state', from(freshIp()))).status).toBe(200);
  });

  it('covers login, register, verification, reset and every OAuth route', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/user/login', { username: 'root', password: 'wrong-password' }],
      ['POST', '/api/user/register', { username: 'x', password: 'password123' }],
      ['GET', '/api/verification?email=a@example.com'],
      ['GET', '/api/reset_password?email=a@example.com'],
      ['POST', '/api/user/reset', { email: 'a@example.com', token: 'x' }],
      ['GET', '/api/oauth/github?code=x&state=y'],
      ['GET', '/api/oauth/lark?code=x&state=y'],
      ['GET', '/api/oauth/wechat?code=x'],
      ['GET', '/api/oauth/wechat/bind?code=x'],
      ['GET', '/api/oauth/email/bind?email=a@example.com&code=x'],
    ];
    for (const [method, path, body] of calls) {
      const ip = freshIp();
      const client = t.client();
      await statesFrom(client, ip, 20);
      const answer = await client.request(method, path, body, from(ip));
      expect(answer.status, `${method} ${path}`).toBe(429);
    }
  });
});

describe('critical rate limit shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ env: { ...LIMITED, REDIS_CONN_STRING: REDIS } });
    b = await startTestApp({ database: a.database, env: { ...LIMITED, REDIS_CONN_STRING: REDIS } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts calls to both processes together and refuses the 21st', async () => {
    const ip = freshIp();
    expect(await statesFrom(a.client(), ip, 12)).toEqual(Array(12).fill(200));
    expect(await statesFrom(b.client(), ip, 8)).toEqual(Array(8).fill(200));
    const refusedByA = await a.client().get('/api/oauth/state', from(ip));
    const refusedByB = await b.client().get('/api/oauth/state', from(ip));
    expect([refusedByA.status, refusedByB.status]).toEqual([429, 429]);
    expect(refusedByB.body).toEqual({
      success: false,
      message: 'Too many requests, please try again later',
      code: 'too_many_requests',
    });
    expect((await b.client().get('/api/oauth/state', from(freshIp()))).status).toBe(200);
  });
});

describe('critical rate limit switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CRITICAL_RATE_LIMIT: '0' } });
  });
  afterAll(() => t.close());

  it('never refuses at a limit of 0', async () => {
    const statuses = await statesFrom(t.client(), freshIp(), 30);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});

/** A built console of our own: an index.html, a hashed asset and an image. */
function consoleDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-console-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'logo.png'), 'png');
  return dir;
}

const GLOBAL = { GLOBAL_API_RATE_LIMIT: '3', GLOBAL_WEB_RATE_LIMIT: '3' };
const OPENAI_REFUSAL = {
  error: {
    message: 'Too many requests, please try again later',
    type: 'one_api_error',
    param: '',
    code: 'rate_limit_exceeded',
  },
};

async function statuses(client: Client, ip: string, paths: string[]): Promise<number[]> {
  const answers: number[] = [];
  for (const path of paths) answers.push((await client.get(path, from(ip))).status);
  return answers;
}

describe('global API and web rate limits in one process', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = consoleDir();
    t = await startTestApp({ env: { ...GLOBAL, WEB_DIST: dir } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the 4th /api call of a client in the window with 429 and the envelope, whatever the route', async () => {
    const ip = freshIp();
    const client = t.client();
    // Any /api route counts, answered or refused by the route itself (401 without a session).
    expect(await statuses(client, ip, ['/api/status', '/api/user/self', '/api/notice'])).toEqual([
      200, 401, 200,
    ]);
    const refused = await client.get('/api/status', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many requests, please try again later',
      code: 'too_many_requests',
    });
    const login = await client.request(
      'POST',
      '/api/user/login',
      { username: 'root', password: '123456' },
      from(ip),
    );
    expect(login.status).toBe(429);
    // The billing dashboard shares the count, and refuses in OpenAI's shape.
    const billing = await client.get('/v1/dashboard/billing/subscription', from(ip));
    expect(billing.status).toBe(429);
    expect(billing.body).toEqual(OPENAI_REFUSAL);
    // Another client, the console's files and the /v1 relay are not affected.
    expect((await client.get('/api/status', from(freshIp()))).status).toBe(200);
    expect((await client.get('/assets/app-1a2b.js', from(ip))).status).toBe(200);
    expect((await client.get('/v1/models', from(ip))).status).toBe(401);
  });

  it('counts /dashboard/billing/* and /v1/dashboard/billing/* like /api', async () => {
    const ip = freshIp();
    const client = t.client();
    expect(
      await statuses(client, ip, [
        '/dashboard/billing/subscription',
        '/v1/dashboard/billing/usage',
        '/dashboard/billing/usage',
      ]),
    ).toEqual([401, 401, 401]);
    const refused = await client.get('/dashboard/billing/subscription', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(OPENAI_REFUSAL);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect((await client.get('/api/status', from(ip))).status).toBe(429);
  });

  it('never limits the /v1 relay', async () => {
    const ip = freshIp();
    const client = t.client();
    const relay = [];
    for (let call = 0; call < 10; call++) {
      relay.push((await client.request('POST', '/v1/chat/completions', { model: 'gpt-4' }, from(ip))).status);
      relay.push((await client.get('/v1/models', from(ip))).status);
      relay.push((await client.get('/v1/no-such-route', from(ip))).status);
    }
    expect(new Set(relay)).toEqual(new Set([401, 404]));
    // …nor does the relay use up the client's /api calls.
    expect(await statuses(client, ip, ['/api/status', '/api/status', '/api/status'])).toEqual([
      200, 200, 200,
    ]);
  });

  it("answers a client's 4th page load in the window with 429, never its scripts and images", async () => {
    const ip = freshIp();
    const client = t.client();
    // A first visit fetches many files: only index.html counts, so a few fresh browsers fit in the limit.
    const assets = Array.from({ length: 12 }, () => '/assets/app-1a2b.js');
    expect(await statuses(client, ip, ['/index.html', ...assets, '/logo.png', '/'])).toEqual(
      Array(15).fill(200),
    );
    expect((await client.get('/token/edit/3', from(ip))).status).toBe(200);
    const refused = await client.get('/', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Too many requests, please try again later');
    // The page's files still load; /api and other clients are not affected.
    expect((await client.get('/assets/app-1a2b.js', from(ip))).status).toBe(200);
    expect((await client.get('/index.html', from(ip))).status).toBe(429);
    expect((await client.get('/api/status', from(ip))).status).toBe(200);
    expect((await client.get('/', from(freshIp()))).status).toBe(200);
  });

  it("answers a client's 4th index.html fallback (a deep link) in the window with 429", async () => {
    const ip = freshIp();
    const client = t.client();
    const served = [];
    for (const link of ['/token', '/channel/edit/5', '/log']) served.push(await client.get(link, from(ip)));
    expect(served.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(served[0]?.text).toContain('<title>console</title>');
    const refused = await client.get('/topup', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Too many requests, please try again later');
    expect((await client.get('/', from(ip))).status).toBe(429);
    expect((await client.get('/assets/app-1a2b.js', from(ip))).status).toBe(200);
    // A missing file is no console page: a plain 404, not limited. Other clients are not affected.
    expect((await client.get('/missing.js', from(ip))).status).toBe(404);
    expect((await client.get('/topup', from(freshIp()))).status).toBe(200);
  });
});

describe('global rate limits shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = consoleDir();
    const env = { ...GLOBAL, WEB_DIST: dir, REDIS_CONN_STRING: REDIS };
    a = await startTestApp({ env });
    b = await startTestApp({ database: a.database, env });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts /api calls to both processes together and refuses the 4th', async () => {
    const ip = freshIp();
    expect(await statuses(a.client(), ip, ['/api/status', '/api/status'])).toEqual([200, 200]);
    expect(await statuses(b.client(), ip, ['/dashboard/billing/usage'])).toEqual([401]);
    const refused = await b.client().get('/api/status', from(ip));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many requests, please try again later',
      code: 'too_many_requests',
    });
    expect((await a.client().get('/api/status', from(ip))).status).toBe(429);
    expect((await b.client().get('/api/status', from(freshIp()))).status).toBe(200);
  });

  it('counts page loads and the index.html fallback in both processes together', async () => {
    const ip = freshIp();
    expect(await statuses(a.client(), ip, ['/assets/app-1a2b.js', '/index.html', '/token'])).toEqual([
      200, 200, 200,
    ]);
    expect(await statuses(b.client(), ip, ['/'])).toEqual([200]);
    expect((await b.client().get('/channel', from(ip))).status).toBe(429);
    expect((await a.client().get('/index.html', from(ip))).status).toBe(429);
    expect((await a.client().get('/assets/app-1a2b.js', from(ip))).status).toBe(200);
  });
});

describe('global rate limits switched off', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = consoleDir();
    t = await startTestApp({
      env: { GLOBAL_API_RATE_LIMIT: '0', GLOBAL_WEB_RATE_LIMIT: '0', WEB_DIST: dir },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never refuses at a limit of 0', async () => {
    const ip = freshIp();
    const paths = Array.from(
      { length: 12 },
      (_, i) => ['/api/status', '/assets/app-1a2b.js', '/token'][i % 3] as string,
    );
    expect(await statuses(t.client(), ip, paths)).toEqual(Array(12).fill(200));
  });
});

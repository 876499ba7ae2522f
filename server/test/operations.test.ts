import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECT } from './databases';
import { geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { PAGE_LOAD, startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const METRICS_TOKEN = 'metrics-test-token-0123456789';
const GEMINI_KEY = 'AIzaSyFakeGeminiKey';

const get = (t: TestApp, path: string, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}${path}`, { headers, redirect: 'manual' });

/** The value of one series in a Prometheus text exposition (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe(`health, readiness and metrics (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let fake: HttpFake;
  let gemini: HttpFake;
  let customer: Customer;
  let openAiChannel: number;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'one two three' })).start();
    gemini = await new HttpFake(geminiHandler({ apiKey: GEMINI_KEY, reply: 'hi' })).start();
    t = await startTestApp({
      env: {
        METRICS_TOKEN,
        REDIS_CONN_STRING: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        GEMINI_VERSION: 'v1',
        GEMINI_SAFETY_SETTING: 'BLOCK_ONLY_HIGH',
        FRONTEND_BASE_URL: 'https://console.example.com/',
        DEBUG: 'true',
        // DEBUG wins: the limits are off whatever these say.
        GLOBAL_API_RATE_LIMIT: '2',
        CRITICAL_RATE_LIMIT: '2',
      },
    });
    const root = await t.root();
    openAiChannel = await createChannel(root, { base_url: fake.url });
    await createChannel(root, {
      type: 24,
      key: GEMINI_KEY,
      base_url: gemini.url,
      models: 'gemini-1.5-flash',
    });
    customer = await createCustomer(t, 'opsuser', { quota: 10_000_000 });
  });

  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await gemini?.close();
  });

  it('/healthz answers ok; /readyz checks the database, its migrations and Redis', async () => {
    const health = await get(t, '/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  });

  it('/metrics refuses a missing or wrong bearer token with 401', async () => {
    expect((await get(t, '/metrics')).status).toBe(401);
    expect((await get(t, '/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await get(t, '/metrics', { authorization: METRICS_TOKEN })).status).toBe(401);
  });

  it('counts relay calls, tokens, quota, latencies and the gauges', async () => {
    for (let i = 0; i < 3; i++) {
      await customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
      });
    }
    await expect(
      customer.openai.chat.completions.create({
        model: 'no-such-model',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toThrow();
    await t.app.services.billing.settled();
    const answer = await get(t, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    const text = await answer.text();
    if (process.env.SHOW_METRICS) console.log(text);
    const ok = `switchyard_relay_requests_total{endpoint="chat",model="gpt-3.5-turbo",channel="${openAiChannel}",outcome="success"}`;
    expect(sample(text, ok)).toBe(3);
    // A model nobody serves is not a label of its own.
    expect(text).not.toContain('no-such-model');
    expect(
      sample(text, 'switchyard_relay_requests_total{endpoint="chat",model="",channel="0",outcome="refused"}'),
    ).toBe(1);
    expect(sample(text, 'switchyard_tokens_total{model="gpt-3.5-turbo",kind="completion"}')).toBeGreaterThan(
      0,
    );
    expect(sample(text, 'switchyard_tokens_total{model="gpt-3.5-turbo",kind="prompt"}')).toBeGreaterThan(0);
    expect(sample(text, 'switchyard_quota_consumed_total{model="gpt-3.5-turbo"}')).toBeGreaterThan(0);
    expect(sample(text, `switchyard_upstream_latency_seconds_count{channel="${openAiChannel}"}`)).toBe(3);
    expect(sample(text, 'switchyard_gateway_added_latency_seconds_count{endpoint="chat"}')).toBe(3);
    expect(sample(text, 'switchyard_relay_in_flight')).toBe(0);
    expect(sample(text, 'switchyard_group_commit_queue_depth{queue="settlements"}')).toBe(0);
    expect(sample(text, 'switchyard_reserved_credit_quota')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(text).toContain('process_cpu_seconds_total');
    if (TEST_DIALECT !== 'sqlite')
      expect(sample(text, 'switchyard_db_pool_connections{state="open"}')).toBeGreaterThan(0);
    else expect(text).not.toContain('switchyard_db_pool_connections{');
  });

  it('counts retries and channel auto-disables', async () => {
    const root = await t.root();
    const dead = await new HttpFake(
      openAiError(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
    ).start();
    try {
      await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      const deadChannel = await createChannel(root, { base_url: dead.url, models: 'gpt-4', priority: 10 });
      await createChannel(root, { base_url: fake.url, models: 'gpt-4', priority: 0 });
      await customer.openai.chat.completions.create({
        model: 'gpt-4',
        messages: [{ role: 'user', content: 'hi' }],
      });
      const text = await (await get(t, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).text();
      expect(sample(text, `switchyard_relay_retries_total{channel="${deadChannel}"}`)).toBe(1);
      expect(sample(text, `switchyard_channel_auto_disables_total{channel="${deadChannel}"}`)).toBe(1);
    } finally {
      await dead.close();
    }
  });

  it('the Grafana dashboard asks only for metrics the server exposes', async () => {
    const dashboard = fs.readFileSync(
      new URL('../../deploy/grafana-dashboard.json', import.meta.url),
      'utf8',
    );
    const used = new Set(dashboard.match(/\b(?:switchyard|nodejs|process)_[a-z0-9_]+/g));
    expect(used.size).toBeGreaterThan(10);
    const text = await (await get(t, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).text();
    const exposed = new Set(text.split('\n').flatMap((line) => /^(\w+)[{ ]/.exec(line)?.[1] ?? []));
    const missing = [...used].filter(
      (name) =>
        !exposed.has(name) && !(name === 'switchyard_db_pool_connections' && TEST_DIALECT === 'sqlite'),
    );
    expect(missing).toEqual([]);
  });

  it('GEMINI_VERSION and GEMINI_SAFETY_SETTING reach translated Gemini calls', async () => {
    await customer.openai.chat.completions.create({
      model: 'gemini-1.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1/models/gemini-1.5-flash:generateContent');
    const settings = (sent.json as { safetySettings: Array<{ threshold: string }> }).safetySettings;
    expect(settings.length).toBe(4);
    for (const setting of settings) expect(setting.threshold).toBe('BLOCK_ONLY_HIGH');
  });

  it('FRONTEND_BASE_URL: console pages are redirected there; /api, /v1 and the other APIs stay', async () => {
    const page = await get(t, '/token?p=1', PAGE_LOAD);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('https://console.example.com/token?p=1');
    const home = await get(t, '/', PAGE_LOAD);
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('https://console.example.com/');
    expect((await get(t, '/api/status')).status).toBe(200);
    expect((await get(t, '/v1/models')).status).toBe(401);
    expect((await get(t, '/healthz')).status).toBe(200);
    // An API's unknown path is its 404, not a trip to the console (whose host would answer 200 HTML).
    for (const path of ['/v1beta/files', '/dashboard/billing/nothing', '/livez']) {
      const unknown = await get(t, path, PAGE_LOAD);
      expect(unknown.status, path).toBe(404);
      expect(unknown.headers.get('location'), path).toBeNull();
    }
  });

  it('DEBUG turns the rate limits off', async () => {
    const client = t.client();
    for (let i = 0; i < 5; i++) expect((await client.get('/api/status')).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      const login = await client.post('/api/user/login', { username: 'root', password: 'wrong-password' });
      expect(login.status).not.toBe(429);
    }
  });
});

describe(`without METRICS_TOKEN (${TEST_DIALECT})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('serves no /metrics, and /readyz says 503 while a migration has not run', async () => {
    expect((await get(t, '/metrics', { authorization: 'Bearer x' })).status).toBe(404);
    await t.db.kysely
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '0007_log_facts' as never)
      .execute();
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'unavailable',
      failed: ['1 database migration(s) not run yet'],
    });
  });
});

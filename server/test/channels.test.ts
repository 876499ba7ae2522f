import type { Channel } from '@switchyard/contract/channels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floods, type Sending } from './fakes/hostile-upstream';
import { type FakeHandler, HttpFake, sendJson } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type One = EnvelopeBody<Channel>;
type Many = EnvelopeBody<Channel[]>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A comma list as the contract defines it, split here on its own: trimmed, non-empty, each name once. */
const names = (list: string | null | undefined): string[] => [
  ...new Set(
    (list ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  ),
];

/**
 * The abilities table must hold exactly one row per group × model of every channel, enabled when the
 * channel is, with its priority — rebuilt here from the channels table without the production code.
 */
async function expectAbilitiesMatchChannels(t: TestApp) {
  const channels = await t.db.kysely
    .selectFrom('channels')
    .select(['id', 'group', 'models', 'status', 'priority'])
    .execute();
  const expected: string[] = [];
  for (const channel of channels) {
    for (const group of names(channel.group)) {
      for (const model of names(channel.models)) {
        expected.push(
          `${group}|${model}|${channel.id}|${channel.status === 1}|${Number(channel.priority ?? 0)}`,
        );
      }
    }
  }
  const actual = (await t.db.kysely.selectFrom('abilities').selectAll().execute()).map(
    (row) =>
      `${row.group}|${row.model}|${Number(row.channel_id)}|${Boolean(row.enabled)}|${Number(row.priority)}`,
  );
  expect(actual.sort()).toEqual(expected.sort());
}

async function waitForTestRun(t: TestApp) {
  while (t.app.services.channelTester.running) await sleep(25);
}

describe('channels', () => {
  let t: TestApp;
  let root: Client;
  let admin: Client;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp({ env: { POLLING_INTERVAL: '0' } });
    root = await t.root();
    admin = await t.user('chadmin', { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const form = (overrides: Record<string, unknown> = {}) => ({
    type: 1,
    name: 'primary',
    key: 'sk-one',
    base_url: fake.url,
    models: 'gpt-3.5-turbo,gpt-4',
    group: 'default',
    ...overrides,
  });

  const create = async (overrides: Record<string, unknown> = {}) => {
    const response = await root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', form(overrides));
    expect(response.body.success, response.body.message).toBe(true);
    return response.body.data!.ids;
  };

  const expectAbilitiesConsistent = () => expectAbilitiesMatchChannels(t);

  it('creates one channel per key line, each with its abilities', async () => {
    const ids = await create({
      key: 'sk-a\nsk-b\n\n sk-c ',
      name: 'batch',
      group: 'default,vip',
      priority: 3,
    });
    expect(ids).toHaveLength(3);
    const rows = await t.db.kysely
      .selectFrom('channels')
      .selectAll()
      .where('name', '=', 'batch')
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.key)).toEqual(['sk-a', 'sk-b', 'sk-c']);
    const abilities = await t.db.kysely
      .selectFrom('abilities')
      .selectAll()
      .where('channel_id', '=', ids[0]!)
      .execute();
    expect(abilities).toHaveLength(4);
    await expectAbilitiesConsistent();
  });

  it.each([
    [{ name: '' }, 'Please fill in the channel name and channel key'],
    [{ key: '  \n ' }, 'Please fill in the channel name and channel key'],
    [{ models: '' }, 'Please select at least one model'],
    [{ model_mapping: '{not json' }, 'Model mapping must be valid JSON'],
    [{ model_mapping: '{"a": 1}' }, /valid JSON/],
    [{ group: 'nosuchgroup' }, /Group "nosuchgroup" does not exist/],
    [{ group: '' }, 'Please select at least one group'],
    [{ type: 999 }, 'Unknown channel type'],
    [{ base_url: 'ftp://x' }, /must start with http/],
    [{ base_url: 'https:///v1' }, /followed by a host name/],
    [{ base_url: `https://example.com/${'a'.repeat(172)}` }, 'The base URL must be at most 191 characters'],
    [{ group: 'default,vip,svip,default2,default3' }, 'The group list must be at most 32 characters'],
    [{ priority: 'high' }, /priority must be a whole number/],
  ])('refuses %j without writing anything', async (overrides, message) => {
    const before = await t.db.kysely.selectFrom('channels').select('id').execute();
    const response = await root.post('/api/channel/', form(overrides));
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('channels').select('id').execute()).toEqual(before);
  });

  it('applies the form rules: trailing slash, default other, weight clamp, empty priority', async () => {
    const [azure] = await create({
      type: 3,
      name: 'azure',
      base_url: 'https://x.openai.azure.com/',
      weight: -5,
      priority: '',
    });
    const row = (await root.get<One>(`/api/channel/${azure}`)).body.data!;
    expect(row).toMatchObject({
      base_url: 'https://x.openai.azure.com',
      other: '2024-03-01-preview',
      weight: 0,
      priority: 0,
    });
    const [spark] = await create({ type: 18, name: 'spark' });
    expect((await root.get<One>(`/api/channel/${spark}`)).body.data?.other).toBe('v2.1');
  });

  it('refuses a config that is not a JSON object of text settings, on create and update', async () => {
    const [id] = await create({ name: 'configured', config: '{"region":"ap-guangzhou"}' });
    const count = async () => (await t.db.kysely.selectFrom('channels').select('id').execute()).length;
    const before = await count();
    for (const config of ['region=ap-guangzhou', '[1]', '{"region": 5}']) {
      const created = await root.post('/api/channel/', form({ name: 'bad', config }));
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ success: false, code: 'field_json', params: { field: 'config' } });
      expect(created.body.message).toMatch(/channel config must be/);
      const updated = await root.put('/api/channel/', { id, config });
      expect(updated.body).toMatchObject({ success: false, code: 'field_json' });
    }
    expect(await count()).toBe(before);
    expect((await root.get<One>(`/api/channel/${id}`)).body.data?.config).toBe('{"region":"ap-guangzhou"}');
  });

  it('fills the default other on update too, when the type is Azure or Spark and other is empty', async () => {
    const [id] = await create({ name: 'retyped' });
    const other = async () => (await root.get<One>(`/api/channel/${id}`)).body.data?.other;
    // Switching an OpenAI channel to Azure in the edit form, other left empty.
    const toAzure = await root.put<One>('/api/channel/', { ...form(), id, type: 3, other: '' });
    expect(toAzure.body.data?.other).toBe('2024-03-01-preview');
    // Clearing other on an Azure channel puts the default back.
    expect((await root.put<One>('/api/channel/', { id, other: '  ' })).body.data?.other).toBe(
      '2024-03-01-preview',
    );
    // A version the operator typed is kept.
    expect((await root.put<One>('/api/channel/', { id, other: '2024-06-01' })).body.data?.other).toBe(
      '2024-06-01',
    );
    await t.db.kysely.updateTable('channels').set({ other: '' }).where('id', '=', id!).execute();
    // Spark: the type alone (other absent, empty in the row) is enough.
    expect((await root.put<One>('/api/channel/', { id, type: 18 })).body.data?.other).toBe('v2.1');
    expect(await other()).toBe('v2.1');
    // Types without a default keep an empty other; status-only updates write nothing else.
    const [plain] = await create({ name: 'plain-other' });
    expect((await root.put<One>('/api/channel/', { id: plain, type: 1, other: '' })).body.data?.other).toBe(
      '',
    );
    await t.db.kysely.updateTable('channels').set({ other: '' }).where('id', '=', id!).execute();
    expect((await root.put<One>('/api/channel/', { id, status: 2 })).body.data?.other).toBe('');
  });

  it('returns keys to root only', async () => {
    const [id] = await create({ key: 'sk-very-secret' });
    expect((await root.get<One>(`/api/channel/${id}`)).body.data?.key).toBe('sk-very-secret');
    const asAdmin = await admin.get(`/api/channel/${id}`);
    expect(asAdmin.text).not.toContain('sk-very-secret');
    expect((await admin.get('/api/channel/')).text).not.toContain('sk-very-secret');
    expect((await admin.get('/api/channel/search?keyword=primary')).text).not.toContain('sk-very-secret');
    expect((await admin.put('/api/channel/', { id, weight: 2 })).text).not.toContain('sk-very-secret');
    const user = await t.user('chuser');
    expect((await user.get('/api/channel/')).body.message).toMatch(/role is too low/);
  });

  it('updates the whole form or only status, priority or weight, rewriting abilities', async () => {
    const [id] = await create({ name: 'editable' });
    expect((await root.put<One>('/api/channel/', { id, priority: 7 })).body.data).toMatchObject({
      priority: 7,
      name: 'editable',
    });
    expect((await root.put<One>('/api/channel/', { id, weight: 4.7 })).body.data?.weight).toBe(4);
    expect((await root.put<One>('/api/channel/', { id, status: 2 })).body.data?.status).toBe(2);
    await expectAbilitiesConsistent();
    const full = await root.put<One>('/api/channel/', {
      ...form(),
      id,
      name: 'renamed',
      key: '',
      models: 'gpt-4',
      status: 1,
    });
    expect(full.body.data).toMatchObject({ name: 'renamed', models: 'gpt-4', key: 'sk-one', status: 1 });
    await expectAbilitiesConsistent();
    expect((await root.put('/api/channel/', { id, status: 3 })).body.message).toMatch(/status must be 1/);
    expect((await root.put('/api/channel/', { id: 99999, weight: 1 })).body.message).toBe(
      'Channel does not exist',
    );
  });

  it('pages, searches and deletes', async () => {
    for (let i = 0; i < 11; i++) await create({ name: `bulk${i}` });
    const first = (await root.get<Many>('/api/channel/?p=0')).body.data!;
    expect(first).toHaveLength(10);
    expect(first[0]!.id).toBeGreaterThan(first[9]!.id);
    expect(
      (await root.get<Many>('/api/channel/search?keyword=bulk1')).body.data!.map((c) => c.name).sort(),
    ).toEqual(['bulk1', 'bulk10']);
    const target = first[0]!;
    expect((await root.delete(`/api/channel/${target.id}`)).body.success).toBe(true);
    expect((await root.get(`/api/channel/${target.id}`)).body.message).toBe('Channel does not exist');
    await expectAbilitiesConsistent();
  });

  it('sorts by priority, balance or response time, largest first, ties newest first, across pages', async () => {
    const ids = await create({ key: 'o1\no2\no3\no4\no5', name: 'ordered' });
    const values = [
      { priority: 7, balance: 2.5, response_time: 900 },
      { priority: null as number | null, balance: 40, response_time: 0 },
      { priority: -3, balance: 2.5, response_time: 120 },
      { priority: 7, balance: 0, response_time: 900 },
      { priority: 0, balance: 11.25, response_time: 4000 },
    ];
    for (const [index, id] of ids.entries()) {
      const { priority, ...measured } = values[index]!;
      if (priority !== null)
        expect((await root.put('/api/channel/', { id, priority })).body.success).toBe(true);
      // A null priority (a row one-api wrote) goes in straight; its abilities keep 0.
      const row = priority === null ? { ...measured, priority } : measured;
      await t.db.kysely.updateTable('channels').set(row).where('id', '=', id).execute();
    }
    const rows = await t.db.kysely
      .selectFrom('channels')
      .select(['id', 'priority', 'balance', 'response_time'])
      .execute();
    const listed = async (order: string) => {
      const seen: number[] = [];
      for (let page = 0; ; page++) {
        const data = (await root.get<Many>(`/api/channel/?p=${page}&order=${encodeURIComponent(order)}`)).body
          .data!;
        seen.push(...data.map((channel) => channel.id));
        if (data.length < 10) return seen;
      }
    };
    const expected = (value: (row: (typeof rows)[number]) => number) =>
      [...rows].sort((a, b) => value(b) - value(a) || b.id - a.id).map((row) => row.id);
    expect(await listed('priority')).toEqual(expected((row) => Number(row.priority ?? 0)));
    expect(await listed('balance')).toEqual(expected((row) => Number(row.balance)));
    expect(await listed('response_time')).toEqual(expected((row) => Number(row.response_time)));
    const newestFirst = expected((row) => row.id);
    for (const other of [
      '',
      'id',
      'weight',
      'key',
      'priority desc',
      'priority;drop table channels',
      '-priority',
    ])
      expect(await listed(other)).toEqual(newestFirst);
    const admins = (await admin.get<Many>('/api/channel/?order=balance')).body.data!;
    expect(admins.map((channel) => channel.id)).toEqual(expected((row) => Number(row.balance)).slice(0, 10));
    expect(admins.every((channel) => channel.key === '')).toBe(true);
  });

  it('deletes all disabled channels and answers how many', async () => {
    const ids = await create({ key: 'k1\nk2\nk3', name: 'todisable' });
    await root.put('/api/channel/', { id: ids[0], status: 2 });
    await t.app.services.channels.setStatus(ids[1]!, 3);
    const before = (await t.db.kysely.selectFrom('channels').select('id').where('status', '!=', 1).execute())
      .length;
    const response = await root.delete<EnvelopeBody<number>>('/api/channel/disabled');
    expect(response.body).toMatchObject({ success: true, data: before });
    expect(await t.db.kysely.selectFrom('channels').select('id').where('status', '!=', 1).execute()).toEqual(
      [],
    );
    await expectAbilitiesConsistent();
  });

  it('lists models by type and all models', async () => {
    const byType = (await admin.get<EnvelopeBody<Record<string, string[]>>>('/api/models')).body.data!;
    expect(byType['1']).toContain('gpt-3.5-turbo');
    expect(byType['14']?.some((model) => model.startsWith('claude'))).toBe(true);
    const all = await admin.get<EnvelopeBody<Array<{ id: string }>>>('/api/channel/models');
    expect(all.body.success).toBe(true);
    expect(all.body.data!.map((model) => model.id)).toContain('gpt-4');
  });

  describe('tests and balance against fake upstreams', () => {
    it('tests a channel with gpt-3.5-turbo when it has it, recording time and a test log', async () => {
      fake.use(openAiHandler({ reply: 'pong', delayMs: 30 }));
      const [id] = await create({ name: 'testme', models: 'gpt-4,gpt-3.5-turbo' });
      const response = await root.get<{ success: boolean; time: number; modelName: string; message: string }>(
        `/api/channel/test/${id}/`,
      );
      expect(response.body).toMatchObject({ success: true, modelName: 'gpt-3.5-turbo', message: 'pong' });
      expect(response.body.time).toBeGreaterThanOrEqual(0.03);
      expect(fake.last().json).toMatchObject({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
      });
      const row = (await root.get<One>(`/api/channel/${id}`)).body.data!;
      expect(row.response_time).toBeGreaterThanOrEqual(30);
      expect(row.test_time).toBeGreaterThan(0);
      const log = await t.db.kysely
        .selectFrom('logs')
        .selectAll()
        .where('type', '=', 5)
        .where('channel_id', '=', id!)
        .executeTakeFirst();
      expect(log?.content).toMatch(/test succeeded/);
    });

    it('tests with the first model when the channel lacks gpt-3.5-turbo, and reports an invalid key', async () => {
      fake.use(
        openAiError(401, 'Incorrect API key provided: sk-bad', 'invalid_request_error', 'invalid_api_key'),
      );
      const [id] = await create({ name: 'badkey', models: 'gpt-4o,gpt-4' });
      const response = await root.get<{ success: boolean; message: string; modelName: string }>(
        `/api/channel/test/${id}`,
      );
      expect(response.body).toMatchObject({ success: false, modelName: 'gpt-4o' });
      expect(response.body.message).toMatch(/Incorrect API key/);
      const failed = (await root.get<One>(`/api/channel/${id}`)).body.data;
      expect(failed?.status).toBe(1);
      // The list says the last test failed, and why; a passing test clears it.
      expect(failed?.test_error).toMatch(/Incorrect API key/);
      // With its code, for the console to say it in the reader's language.
      expect(failed?.test_failure).toMatchObject({
        code: 'channel_test_upstream_error',
        params: { detail: expect.stringMatching(/Incorrect API key/) },
      });
      fake.use(openAiHandler({ reply: 'pong' }));
      expect((await root.get<{ success: boolean }>(`/api/channel/test/${id}`)).body.success).toBe(true);
      expect((await root.get<One>(`/api/channel/${id}`)).body.data?.test_error).toBe('');
    });

    it('tests the first chat model, skipping embedding, speech and image models', async () => {
      fake.use(openAiHandler({ reply: 'pong' }));
      const [id] = await create({ name: 'embed-first', models: 'text-embedding-3-small,tts-1,gpt-4o,gpt-4' });
      const response = await root.get<{ success: boolean; modelName: string; data: { modelName: string } }>(
        `/api/channel/test/${id}/`,
      );
      expect(response.body).toMatchObject({
        success: true,
        modelName: 'gpt-4o',
        data: { modelName: 'gpt-4o' },
      });
      expect(fake.last().url).toMatch(/\/chat\/completions$/);
      expect(fake.last().json).toMatchObject({ model: 'gpt-4o' });
      // A requested model that is not a chat model is not used either.
      const requested = await root.get<{ modelName: string }>(
        `/api/channel/test/${id}/?model=text-embedding-3-small`,
      );
      expect(requested.body.modelName).toBe('gpt-4o');
      const chosen = await root.get<{ modelName: string }>(`/api/channel/test/${id}/?model=gpt-4`);
      expect(chosen.body.modelName).toBe('gpt-4');
    });

    it('answers a clear message instead of testing a channel without a chat model', async () => {
      const [id] = await create({ name: 'embed-only', models: 'text-embedding-3-small,dall-e-3,whisper-1' });
      const received = fake.requests.length;
      const response = await root.get<{ success: boolean; message: string; modelName: string }>(
        `/api/channel/test/${id}/`,
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: false, modelName: '' });
      expect(response.body.message).toMatch(/no chat model to test with/);
      expect(response.body).toMatchObject({ code: 'channel_test_no_chat_model' });
      const zh = await root.get<{ message: string; code: string }>(`/api/channel/test/${id}/`, {
        'accept-language': 'zh-CN',
      });
      expect(zh.body).toMatchObject({ code: 'channel_test_no_chat_model' });
      expect(zh.body.message).toMatch(/^该渠道没有可用于测试的对话模型/);
      expect(fake.requests.length).toBe(received);
      const row = (await root.get<One>(`/api/channel/${id}`)).body.data!;
      expect(row).toMatchObject({ status: 1, test_time: 0, response_time: 0 });
    });

    it('reads the balance of an OpenAI channel and of a CloseAI channel', async () => {
      const billing = await new HttpFake((request, res) => {
        if (request.url.startsWith('/v1/dashboard/billing/subscription'))
          return sendJson(res, 200, { hard_limit_usd: 120, has_payment_method: true });
        if (request.url.startsWith('/v1/dashboard/billing/usage'))
          return sendJson(res, 200, { total_usage: 2550 });
        if (request.url.startsWith('/dashboard/billing/credit_grants'))
          return sendJson(res, 200, { total_available: 42.5 });
        return sendJson(res, 404, {});
      }).start();
      try {
        const [openai] = await create({ name: 'bal', base_url: billing.url, key: 'sk-bal' });
        const answer = await root.get<{ success: boolean; balance: number; data: { balance: number } }>(
          `/api/channel/update_balance/${openai}/`,
        );
        expect(answer.body).toMatchObject({ success: true, balance: 94.5, data: { balance: 94.5 } });
        expect(billing.requests[0]?.headers.authorization).toBe('Bearer sk-bal');
        expect((await root.get<One>(`/api/channel/${openai}`)).body.data).toMatchObject({ balance: 94.5 });
        const [closeAi] = await create({ type: 4, name: 'closeai', base_url: billing.url });
        expect(
          (await root.get<{ balance: number }>(`/api/channel/update_balance/${closeAi}`)).body.balance,
        ).toBe(42.5);
        const [azure] = await create({ type: 3, name: 'azure-bal', base_url: billing.url });
        const refused = await root.get(`/api/channel/update_balance/${azure}`);
        expect(refused.body).toMatchObject({ success: false });
        expect(refused.body.message).toMatch(/not supported for Azure/);
      } finally {
        await billing.close();
      }
    });

    it('reads no more than OUTBOUND_ANSWER_LIMIT_BYTES of a balance answer', async () => {
      const sending: Sending = { sent: 0, finished: false };
      const billing = await new HttpFake(
        floods(sending, 200 * 1024 * 1024, 200, 'application/json', '{"hard_limit_usd": 1, "x": "'),
      ).start();
      try {
        const [id] = await create({ name: 'bal-huge', base_url: billing.url, key: 'sk-bal' });
        const refused = await root.get(`/api/channel/update_balance/${id}`);
        expect(refused.body).toMatchObject({ success: false, code: 'balance_not_json' });
        expect(sending.finished).toBe(false);
        expect(sending.sent).toBeLessThan(50 * 1024 * 1024);
      } finally {
        await billing.close();
      }
    });
  });
});

describe('testing all channels switches health by the contract rule', () => {
  let t: TestApp;
  let root: Client;
  const fakes: HttpFake[] = [];
  const upstream = async (handler: FakeHandler) => {
    const fake = await new HttpFake(handler).start();
    fakes.push(fake);
    return fake;
  };

  beforeAll(async () => {
    // RELAY_TIMEOUT=2: an upstream that has not answered after 2 s is a timeout.
    t = await startTestApp({ env: { POLLING_INTERVAL: '0', RELAY_TIMEOUT: '2' } });
    root = await t.root();
  });
  afterAll(async () => {
    await t.close();
    for (const fake of fakes) await fake.close();
  });

  it('disables dead keys and answers over the time limit, never transient failures', async () => {
    const good = await upstream(openAiHandler());
    const slow = await upstream(openAiHandler({ delayMs: 1000 }));
    const hanging = await upstream(openAiHandler({ delayMs: 3000 }));
    const invalidKey = await upstream(
      openAiError(401, 'Incorrect API key provided: sk-dead', 'invalid_request_error', 'invalid_api_key'),
    );
    const serverError = await upstream(openAiError(500, 'The server had an error', 'server_error'));
    const overloaded = await upstream(openAiError(503, 'The engine is currently overloaded', 'server_error'));
    const notFound = await upstream(
      openAiError(404, 'The model does not exist', 'invalid_request_error', 'model_not_found'),
    );
    const rateLimited = await upstream(
      openAiError(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded'),
    );
    const embeddingsOnly = await upstream(openAiHandler());
    const closed = await upstream(openAiHandler());
    const unreachableUrl = closed.url;
    await closed.close();
    fakes.splice(fakes.indexOf(closed), 1);

    await root.put('/api/option/', { key: 'ChannelDisableThreshold', value: '0.6' });
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' });
    const create = async (name: string, baseUrl: string, models = 'gpt-3.5-turbo') => {
      const response = await root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', {
        type: 1,
        name,
        key: `sk-${name}`,
        base_url: baseUrl,
        models,
        group: 'default',
      });
      expect(response.body.success, response.body.message).toBe(true);
      return response.body.data!.ids[0]!;
    };
    const ids = {
      good: await create('good', good.url, 'text-embedding-3-small,gpt-4o'),
      slow: await create('slow', slow.url),
      timeout: await create('timeout', hanging.url),
      invalidKey: await create('invalid-key', invalidKey.url),
      serverError: await create('server-error', serverError.url),
      overloaded: await create('overloaded', overloaded.url),
      notFound: await create('not-found', notFound.url),
      rateLimited: await create('rate-limited', rateLimited.url),
      unreachable: await create('unreachable', unreachableUrl),
      embeddingsOnly: await create('embeddings-only', embeddingsOnly.url, 'text-embedding-3-small,tts-1'),
      manual: await create('manual', good.url),
    };
    await root.put('/api/channel/', { id: ids.manual, status: 2 });
    const statuses = async () => {
      const rows = await t.db.kysely.selectFrom('channels').select(['id', 'status']).execute();
      const byId = new Map(rows.map((row) => [row.id, row.status]));
      return Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, byId.get(id)]));
    };

    expect((await root.get('/api/channel/test?scope=all')).body.success).toBe(true);
    expect((await root.get('/api/channel/test?scope=all')).body.message).toMatch(/already running/);
    await waitForTestRun(t);
    expect(await statuses()).toEqual({
      good: 1,
      slow: 3,
      timeout: 1,
      invalidKey: 3,
      serverError: 1,
      overloaded: 1,
      notFound: 1,
      rateLimited: 1,
      unreachable: 1,
      embeddingsOnly: 1,
      manual: 2,
    });
    // Every channel with a chat model was really asked, with a chat model; the other was left alone.
    expect(good.last().json).toMatchObject({ model: 'gpt-4o' });
    expect(serverError.requests).toHaveLength(1);
    expect(embeddingsOnly.requests).toHaveLength(0);
    const tests = await t.db.kysely.selectFrom('logs').select('channel_id').where('type', '=', 5).execute();
    expect(tests.map((row) => Number(row.channel_id))).not.toContain(ids.embeddingsOnly);

    // Testing the disabled ones: a channel still too slow stays off; the fixed dead key comes back;
    // the manually disabled channel is never switched on by the system.
    invalidKey.use(openAiHandler());
    await root.get('/api/channel/test?scope=disabled');
    await waitForTestRun(t);
    expect(await statuses()).toMatchObject({ slow: 3, invalidKey: 1, manual: 2 });
    slow.use(openAiHandler());
    await root.get('/api/channel/test?scope=disabled');
    await waitForTestRun(t);
    expect(await statuses()).toMatchObject({ slow: 1, invalidKey: 1, manual: 2 });
    await expectAbilitiesMatchChannels(t);
  });

  it('switches nothing off while automatic disabling is turned off', async () => {
    await t.db.kysely.deleteFrom('channels').execute();
    await t.db.kysely.deleteFrom('abilities').execute();
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    const dead = await upstream(
      openAiError(401, 'invalid api key', 'invalid_request_error', 'invalid_api_key'),
    );
    const created = await root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', {
      type: 1,
      name: 'dead-but-kept',
      key: 'sk-x',
      base_url: dead.url,
      models: 'gpt-3.5-turbo',
      group: 'default',
    });
    await root.get('/api/channel/test?scope=all');
    await waitForTestRun(t);
    expect(dead.requests).toHaveLength(1);
    const row = await root.get<One>(`/api/channel/${created.body.data!.ids[0]}`);
    expect(row.body.data?.status).toBe(1);
  });
});

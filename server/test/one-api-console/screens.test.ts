import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { openAiHandler } from '../fakes/openai';
import { startTestApp, type TestApp } from '../harness';
import { accepted, logWindow, OneApiConsole } from './browser';

type Row = Record<string, unknown> & { id: number };

/** EditChannel's empty config object, sent as JSON text with every channel it saves. */
const CHANNEL_CONFIG = JSON.stringify({
  region: '',
  sk: '',
  ak: '',
  user_id: '',
  vertex_ai_project_id: '',
  vertex_ai_adc: '',
});

/**
 * one-api v0.6.5's default console, screen by screen, for channels, tokens, redemption codes, top-up
 * and logs: its request shapes (trailing slashes, `status_only=true`, `p=0`, whole rows sent back),
 * answered 200 and stored as meant.
 */
describe("one-api v0.6.5's console: channels, tokens, redemptions, top-up, logs", () => {
  let t: TestApp;
  let fake: HttpFake;
  let root: OneApiConsole;
  let user: OneApiConsole;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: 'pong' })).start();
    t = await startTestApp({ env: { POLLING_INTERVAL: '0' } });
    root = new OneApiConsole(t.baseUrl);
    await root.login('root', '123456');
    accepted(
      await root.post('/api/user/', { username: 'console1', display_name: '', password: 'password123' }),
    );
    user = new OneApiConsole(t.baseUrl);
    await user.login('console1', 'password123');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const channelRow = (id: number) =>
    t.db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('channels: adds, edits the loaded row, sets priority, disables, tests, deletes', async () => {
    // EditChannel: models and groups joined, the config object as text, base_url without its last slash.
    accepted(
      await root.post('/api/channel/', {
        name: 'oneapi-ch',
        type: 8,
        key: 'sk-console',
        base_url: fake.url,
        other: '',
        model_mapping: '',
        models: 'gpt-3.5-turbo,gpt-4',
        groups: ['default'],
        group: 'default',
        config: CHANNEL_CONFIG,
      }),
    );
    const list = accepted<Row[]>(await root.get('/api/channel/?p=0'));
    const id = list.find((channel) => channel.name === 'oneapi-ch')!.id;
    const loaded = accepted<Row & { models: string; group: string }>(await root.get(`/api/channel/${id}`));
    accepted(
      await root.put('/api/channel/', {
        ...loaded,
        models: 'gpt-3.5-turbo',
        groups: loaded.group.split(','),
        group: loaded.group,
        model_mapping: JSON.stringify({ 'gpt-4': 'gpt-3.5-turbo' }, null, 2),
        config: CHANNEL_CONFIG,
        id,
      }),
    );
    expect(await channelRow(id)).toMatchObject({ models: 'gpt-3.5-turbo', base_url: fake.url });
    accepted(await root.put('/api/channel/', { id, priority: Number.parseInt('5', 10) }));
    expect(Number((await channelRow(id)).priority)).toBe(5);
    // A priority typed as text the console cannot parse: parseInt gives NaN, which JSON sends as null.
    accepted(await root.put('/api/channel/', { id, priority: Number.parseInt('high', 10) }));
    expect(Number((await channelRow(id)).priority)).toBe(5);
    accepted(await root.put('/api/channel/', { id, status: 2 }));
    expect((await channelRow(id)).status).toBe(2);
    accepted(await root.put('/api/channel/', { id, status: 1 }));

    const tested = await root.get<{ success: boolean; time: number; message: string }>(
      `/api/channel/test/${id}/`,
    );
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, message: 'pong' });
    expect(typeof tested.body.time).toBe('number');
    const testLog = await t.db.kysely
      .selectFrom('logs')
      .selectAll()
      .where('channel_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(testLog.type).toBe(5);

    // LogsTable as root, type "all": the test's line is listed with type 5 (v0.6.5 labels it "unknown").
    const logs = accepted<Array<{ type: number; channel: number }>>(
      await root.get(`/api/log/?p=0&type=0&username=&token_name=&model_name=&${logWindow()}&channel=`),
    );
    expect(logs.find((log) => log.channel === id)?.type).toBe(5);
    accepted(
      await root.get(`/api/log/stat?type=0&username=&token_name=&model_name=&${logWindow()}&channel=${id}`),
    );

    accepted(await root.delete(`/api/channel/${id}/`));
    expect(
      await t.db.kysely.selectFrom('channels').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('tokens: adds, edits the loaded row, toggles with status_only=true, deletes', async () => {
    accepted(
      await user.post('/api/token/', {
        name: 'console-token',
        remain_quota: Number.parseInt('500000', 10),
        expired_time: -1,
        unlimited_quota: false,
        models: '',
        subnet: '',
      }),
    );
    const list = accepted<Row[]>(await user.get('/api/token/?p=0'));
    const id = list.find((token) => token.name === 'console-token')!.id;
    const loaded = accepted<Row>(await user.get(`/api/token/${id}`));
    const inADay = Math.ceil(Date.parse('2099-01-02T03:04:00Z') / 1000);
    accepted(
      await user.put('/api/token/', {
        ...loaded,
        remain_quota: Number.parseInt('1000', 10),
        expired_time: inADay,
        models: ['gpt-4', 'gpt-3.5-turbo'].join(','),
        id,
      }),
    );
    const tokenRow = () =>
      t.db.kysely.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await tokenRow()).toMatchObject({ models: 'gpt-4,gpt-3.5-turbo' });
    expect(Number((await tokenRow()).remain_quota)).toBe(1000);
    expect(Number((await tokenRow()).expired_time)).toBe(inADay);
    accepted(await user.put('/api/token/?status_only=true', { id, status: 2 }));
    expect((await tokenRow()).status).toBe(2);
    accepted(await user.get('/api/token/search?keyword=console'));
    accepted(await user.delete(`/api/token/${id}/`));
    expect(await t.db.kysely.selectFrom('tokens').select('id').where('id', '=', id).execute()).toEqual([]);
  });

  it('redemption codes and top-up: creates, edits, toggles, redeems, deletes', async () => {
    const keys = accepted<string[]>(
      await root.post('/api/redemption/', {
        name: 'gift',
        quota: Number.parseInt('100000', 10),
        count: Number.parseInt('2', 10),
      }),
    );
    expect(keys).toHaveLength(2);
    const list = accepted<Row[]>(await root.get('/api/redemption/?p=0'));
    const [first, second] = list.filter((code) => code.name === 'gift').map((code) => code.id);
    const loaded = accepted<Row>(await root.get(`/api/redemption/${first}`));
    accepted(
      await root.put('/api/redemption/', { ...loaded, quota: Number.parseInt('2500', 10), id: first }),
    );
    accepted(await root.put('/api/redemption/?status_only=true', { id: second, status: 2 }));
    const codeRow = (id: number | undefined) =>
      t.db.kysely.selectFrom('redemptions').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
    expect((await codeRow(second)).status).toBe(2);

    const quotaOf = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('users')
            .select('quota')
            .where('username', '=', 'console1')
            .executeTakeFirstOrThrow()
        ).quota,
      );
    const before = await quotaOf();
    const firstKey = (await codeRow(first)).key;
    expect(accepted<number>(await user.post('/api/user/topup', { key: firstKey }))).toBe(2500);
    expect(await quotaOf()).toBe(before + 2500);

    accepted(await root.delete(`/api/redemption/${second}/`));
    expect(
      await t.db.kysely.selectFrom('redemptions').where('id', '=', second!).select('id').execute(),
    ).toEqual([]);
  });

  it("a user's log screen: own logs, stat and search with the console's empty filters", async () => {
    const own = accepted<Array<{ type: number }>>(
      await user.get(`/api/log/self/?p=0&type=0&token_name=&model_name=&${logWindow()}`),
    );
    expect(own.some((log) => log.type === 1)).toBe(true);
    accepted(await user.get(`/api/log/self/stat?type=0&token_name=&model_name=&${logWindow()}`));
    accepted(await user.get('/api/log/self/search?keyword='));
    accepted(await user.get(`/api/log/self/?p=0&type=1&token_name=&model_name=&${logWindow()}`));
  });
});

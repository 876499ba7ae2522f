import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

/** Every row a refused request could have written. */
async function snapshot(t: TestApp) {
  const kysely = t.db.kysely;
  return {
    users: await kysely.selectFrom('users').selectAll().orderBy('id').execute(),
    tokens: await kysely.selectFrom('tokens').selectAll().orderBy('id').execute(),
    redemptions: await kysely.selectFrom('redemptions').selectAll().orderBy('id').execute(),
    channels: await kysely.selectFrom('channels').selectAll().orderBy('id').execute(),
    options: await kysely.selectFrom('options').selectAll().orderBy('key').execute(),
  };
}

type Who = 'anonymous' | 'user' | 'root';
const BAD_TEXTS: Array<[string, string]> = [
  ['NUL', 'a\u0000b'],
  ['a lone surrogate', 'a\ud800b'],
];
/** In a URL: %00 and another control character. (Undecodable bytes such as %ED%A0%80 reach no route decoded.) */
const BAD_QUERIES: Array<[string, string]> = [
  ['NUL', 'a%00b'],
  ['ESC', 'a%1Bb'],
];

describe('control characters and broken Unicode at the API boundary', () => {
  let t: TestApp;
  const clients = {} as Record<Who, Client>;
  const ids = { user: 0, token: 0, redemption: 0, channel: 0 };
  beforeAll(async () => {
    t = await startTestApp();
    clients.anonymous = t.client();
    clients.root = await t.root();
    clients.user = await t.user('plain');
    const row = (table: 'users' | 'tokens' | 'redemptions' | 'channels') =>
      t.db.kysely.selectFrom(table).select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    ids.user = (
      await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'plain')
        .executeTakeFirstOrThrow()
    ).id;
    await clients.user.post('/api/token/', { name: 'mine' });
    ids.token = (await row('tokens')).id;
    await clients.root.post('/api/redemption/', { name: 'gift', count: 1, quota: 10 });
    ids.redemption = (await row('redemptions')).id;
    await clients.root.post('/api/channel/', {
      name: 'c',
      type: 1,
      key: 'sk-x',
      models: 'gpt-4o',
      group: 'default',
    });
    ids.channel = (await row('channels')).id;
  });
  afterAll(() => t.close());

  // Every body field of text a route reads, one per route (the check is the same for all fields).
  const bodies: Array<[Who, 'POST' | 'PUT', string, (bad: string) => Record<string, unknown>]> = [
    ['anonymous', 'POST', '/api/user/register', (bad) => ({ username: bad, password: 'password123' })],
    ['anonymous', 'POST', '/api/user/login', (bad) => ({ username: bad, password: 'password123' })],
    ['anonymous', 'POST', '/api/user/reset', (bad) => ({ email: 'a@example.com', token: bad })],
    ['user', 'PUT', '/api/user/self', (bad) => ({ display_name: bad })],
    ['user', 'POST', '/api/user/topup', (bad) => ({ key: bad })],
    ['user', 'POST', '/api/token/', (bad) => ({ name: bad })],
    ['user', 'PUT', '/api/token/', (bad) => ({ id: ids.token, name: bad })],
    ['root', 'POST', '/api/user/', (bad) => ({ username: bad, password: 'password123' })],
    ['root', 'PUT', '/api/user/', (bad) => ({ id: ids.user, display_name: bad })],
    ['root', 'POST', '/api/user/manage', (bad) => ({ username: bad, action: 'disable' })],
    ['root', 'POST', '/api/topup', (bad) => ({ user_id: ids.user, quota: 5, remark: bad })],
    ['root', 'POST', '/api/redemption/', (bad) => ({ name: bad, count: 1, quota: 10 })],
    ['root', 'PUT', '/api/redemption/', (bad) => ({ id: ids.redemption, name: bad, quota: 10 })],
    ['root', 'PUT', '/api/option/', (bad) => ({ key: 'Notice', value: bad })],
    ['root', 'POST', '/api/channel/', (bad) => ({ name: 'n', type: 1, key: bad, models: 'gpt-4o' })],
    ['root', 'PUT', '/api/channel/', (bad) => ({ id: ids.channel, model_mapping: { [bad]: 'x' } })],
  ];

  // Every query parameter of text a route reads, besides search keywords.
  const queries: Array<[Who, string, string]> = [
    ['anonymous', '/api/verification?email=', 'email'],
    ['anonymous', '/api/reset_password?email=', 'email'],
    ['anonymous', '/api/oauth/wechat?code=', 'code'],
    ['user', '/api/oauth/email/bind?email=a@example.com&code=', 'code'],
    ['user', '/api/oauth/wechat/bind?code=', 'code'],
    ['user', '/api/token/?order=', 'order'],
    ['user', '/api/log/self?model_name=', 'model_name'],
    ['user', '/api/log/self/stat?token_name=', 'token_name'],
    ['user', '/api/user/dashboard?scope=', 'scope'],
    ['root', '/api/user/?order=', 'order'],
    ['root', '/api/log/?username=', 'username'],
    ['root', '/api/log/stat?username=', 'username'],
    ['root', '/api/user/dashboard?username=', 'username'],
    ['root', '/api/channel/test?scope=', 'scope'],
    ['root', '/api/channel/test/{channel}?model=', 'model'],
  ];

  const searches: Array<[Who, string]> = [
    ['user', '/api/token/search'],
    ['user', '/api/log/self/search'],
    ['root', '/api/user/search'],
    ['root', '/api/redemption/search'],
    ['root', '/api/log/search'],
    ['root', '/api/channel/search'],
  ];

  const refused = (body: EnvelopeBody) => {
    expect(body).toMatchObject({ success: false, code: 'text_forbidden_character' });
    expect(body.message).toMatch(/control character or broken Unicode/);
  };

  describe.each(BAD_TEXTS)('%s in a body field', (_name, bad) => {
    it.each(bodies)(
      '%s %s %s is refused (200, envelope) and stores nothing',
      async (who, method, path, body) => {
        const before = await snapshot(t);
        const response = await clients[who].request(method, path, body(bad));
        expect(response.status).toBe(200);
        refused(response.body);
        expect(await snapshot(t)).toEqual(before);
      },
    );
  });

  describe.each(BAD_QUERIES)('%s in a query parameter', (_name, bad) => {
    it.each(queries)('%s %s… is refused (200, envelope) naming %s', async (who, path, field) => {
      const url = path.replace('{channel}', String(ids.channel)) + bad;
      const response = await clients[who].get(url);
      expect(response.status).toBe(200);
      refused(response.body);
      expect(response.body.params).toEqual({ field });
    });

    it.each(searches)('%s %s searches for the keyword without them', async (who, path) => {
      const response = await clients[who].get(`${path}?keyword=${bad}`);
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    });
  });

  it('reads undecodable bytes in a query literally, never as broken text', async () => {
    const response = await clients.root.get('/api/log/?username=a%ED%A0%80b');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
  });

  it('keeps tabs and line breaks where text spans lines', async () => {
    const notice = 'line one\n\tline two\r\n';
    const saved = await clients.root.put('/api/option/', { key: 'Notice', value: notice });
    expect(saved.body.success).toBe(true);
    expect((await clients.anonymous.get('/api/notice')).body.data).toBe(notice);
  });
});

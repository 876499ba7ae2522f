import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHandler, HttpFake, sendJson } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type Level = 'public' | 'user' | 'admin' | 'root';
type Caller = 'anonymous' | 'user' | 'admin' | 'root';
const CALLERS: Caller[] = ['anonymous', 'user', 'admin', 'root'];

interface Route {
  method: string;
  /** May hold placeholders such as {token}: each test makes its own fresh row (see `makers`). */
  path: string;
  /** The least role that may call it (the contract's route table). */
  level: Level;
  body?: unknown;
  /** Callers whose role is high enough but whom the rules still refuse, and the reason given. */
  refuses?: Partial<Record<Caller, RegExp>>;
  /** Signed-in callers act on a fresh account of their role (the call deletes the account). */
  freshCaller?: boolean;
  /** The call ends the caller's sessions: root signs in again after it. */
  signsOut?: boolean;
}

const channelForm = {
  type: 1,
  name: 'perm{n}',
  key: 'sk-perm',
  base_url: '{upstream}',
  models: 'gpt-3.5-turbo',
  group: 'default',
};

/** Every /api route of the contract's route table except sign-in, sign-up, mail and OAuth flows. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/api/status', level: 'public' },
  { method: 'GET', path: '/api/notice', level: 'public' },
  { method: 'GET', path: '/api/about', level: 'public' },
  { method: 'GET', path: '/api/home_page_content', level: 'public' },
  // The user's own account.
  { method: 'GET', path: '/api/user/self', level: 'user' },
  { method: 'PUT', path: '/api/user/self', level: 'user', body: { display_name: 'x' } },
  {
    method: 'DELETE',
    path: '/api/user/self',
    level: 'user',
    freshCaller: true,
    refuses: { root: /super administrator account cannot be deleted/ },
  },
  { method: 'GET', path: '/api/user/token', level: 'user' },
  {
    method: 'POST',
    path: '/api/user/self/sessions/revoke',
    level: 'user',
    freshCaller: true,
    signsOut: true,
  },
  { method: 'GET', path: '/api/user/aff', level: 'user' },
  { method: 'GET', path: '/api/user/available_models', level: 'user' },
  { method: 'GET', path: '/api/user/dashboard', level: 'user' },
  { method: 'POST', path: '/api/user/topup', level: 'user', body: { key: '{codeKey}' } },
  { method: 'GET', path: '/api/models', level: 'user' },
  // Tokens: everyone signed in, each on their own.
  { method: 'GET', path: '/api/token/', level: 'user' },
  { method: 'GET', path: '/api/token/search?keyword=perm', level: 'user' },
  { method: 'GET', path: '/api/token/{token}', level: 'user' },
  { method: 'POST', path: '/api/token/', level: 'user', body: { name: 'perm{n}', remain_quota: 10 } },
  {
    method: 'PUT',
    path: '/api/token/',
    level: 'user',
    body: { id: '{token}', name: 'renamed', remain_quota: 5 },
  },
  { method: 'PUT', path: '/api/token/?status_only=true', level: 'user', body: { id: '{token}', status: 2 } },
  { method: 'DELETE', path: '/api/token/{token}', level: 'user' },
  // Logs: own logs for everyone, all logs for administrators.
  { method: 'GET', path: '/api/log/self', level: 'user' },
  { method: 'GET', path: '/api/log/self/stat', level: 'user' },
  { method: 'GET', path: '/api/log/self/search?keyword=x', level: 'user' },
  { method: 'GET', path: '/api/log/', level: 'admin' },
  { method: 'GET', path: '/api/log/stat', level: 'admin' },
  { method: 'GET', path: '/api/log/search?keyword=x', level: 'admin' },
  { method: 'DELETE', path: '/api/log/?target_timestamp=1', level: 'admin' },
  // Users.
  { method: 'GET', path: '/api/user/', level: 'admin' },
  { method: 'GET', path: '/api/user/search?keyword=a', level: 'admin' },
  { method: 'GET', path: '/api/user/{target}', level: 'admin' },
  {
    method: 'POST',
    path: '/api/user/',
    level: 'admin',
    body: { username: 'made{n}', password: 'password123' },
  },
  { method: 'PUT', path: '/api/user/', level: 'admin', body: { id: '{target}', display_name: 'T' } },
  {
    method: 'POST',
    path: '/api/user/manage',
    level: 'admin',
    body: { username: 'target', action: 'enable' },
  },
  { method: 'DELETE', path: '/api/user/{victim}', level: 'admin' },
  {
    method: 'DELETE',
    path: '/api/user/1',
    level: 'admin',
    refuses: { admin: /equal or higher role/, root: /super administrator cannot be deleted/ },
  },
  { method: 'POST', path: '/api/topup', level: 'admin', body: { user_id: '{target}', quota: 1 } },
  { method: 'GET', path: '/api/group/', level: 'admin' },
  // Redemption codes.
  { method: 'GET', path: '/api/redemption/', level: 'admin' },
  { method: 'GET', path: '/api/redemption/search?keyword=perm', level: 'admin' },
  { method: 'GET', path: '/api/redemption/{code}', level: 'admin' },
  { method: 'POST', path: '/api/redemption/', level: 'admin', body: { name: 'perm{n}', quota: 5, count: 2 } },
  {
    method: 'PUT',
    path: '/api/redemption/',
    level: 'admin',
    body: { id: '{code}', name: 'edited', quota: 9 },
  },
  {
    method: 'PUT',
    path: '/api/redemption/?status_only=true',
    level: 'admin',
    body: { id: '{code}', status: 2 },
  },
  { method: 'DELETE', path: '/api/redemption/{code}', level: 'admin' },
  // Channels.
  { method: 'GET', path: '/api/channel/', level: 'admin' },
  { method: 'GET', path: '/api/channel/search?keyword=perm', level: 'admin' },
  { method: 'GET', path: '/api/channel/models', level: 'admin' },
  { method: 'GET', path: '/api/channel/{channel}', level: 'admin' },
  { method: 'POST', path: '/api/channel/', level: 'admin', body: channelForm },
  { method: 'PUT', path: '/api/channel/', level: 'admin', body: { id: '{channel}', weight: 3 } },
  { method: 'GET', path: '/api/channel/test/{channel}', level: 'admin' },
  { method: 'GET', path: '/api/channel/test?scope=all', level: 'admin' },
  { method: 'GET', path: '/api/channel/update_balance/{channel}', level: 'admin' },
  { method: 'DELETE', path: '/api/channel/disabled', level: 'admin' },
  { method: 'DELETE', path: '/api/channel/{channel}', level: 'admin' },
  // Options.
  { method: 'GET', path: '/api/option/', level: 'root' },
  { method: 'PUT', path: '/api/option/', level: 'root', body: { key: 'Notice', value: 'hello' } },
];

const RANK: Record<Caller, number> = { anonymous: 0, user: 1, admin: 2, root: 3 };
const NEEDED: Record<Level, number> = { public: 0, user: 1, admin: 2, root: 3 };

/** An upstream that answers chat calls and OpenAI's billing endpoints, for the channel routes. */
const upstreamHandler: FakeHandler = (request, res) => {
  if (request.url.startsWith('/v1/dashboard/billing/subscription'))
    return sendJson(res, 200, { hard_limit_usd: 10 });
  if (request.url.startsWith('/v1/dashboard/billing/usage')) return sendJson(res, 200, { total_usage: 100 });
  return openAiHandler()(request, res);
};

describe('permission matrix', () => {
  let t: TestApp;
  let upstream: HttpFake;
  const clients = {} as Record<Caller, Client>;
  let targetId = 0;
  let counter = 0;
  beforeAll(async () => {
    upstream = await new HttpFake(upstreamHandler).start();
    t = await startTestApp({ env: { POLLING_INTERVAL: '0' } });
    clients.anonymous = t.client();
    clients.root = await t.root();
    clients.admin = await t.user('anadmin', { role: 'admin' });
    clients.user = await t.user('auser');
    await clients.root.post('/api/user/', { username: 'target', password: 'password123' });
    const found = await clients.root.get<{ data: Array<{ id: number }> }>('/api/user/search?keyword=target');
    targetId = found.body.data[0]!.id;
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const ok = <T>(response: { body: EnvelopeBody<T> }): T => {
    expect(response.body.success, response.body.message).toBe(true);
    return response.body.data as T;
  };

  /** Each placeholder makes a fresh row for one test; `owner` is the caller, or a user for anonymous. */
  const makers: Record<string, (owner: Client) => Promise<string | number>> = {
    n: async () => ++counter,
    target: async () => targetId,
    upstream: async () => upstream.url,
    victim: async () => {
      const username = `victim${++counter}`;
      ok(await clients.root.post('/api/user/', { username, password: 'password123' }));
      return ok(
        await clients.root.get<EnvelopeBody<Array<{ id: number }>>>(`/api/user/search?keyword=${username}`),
      )[0]!.id;
    },
    token: async (owner) =>
      ok(
        await owner.post<EnvelopeBody<{ id: number }>>('/api/token/', {
          name: `perm${++counter}`,
          remain_quota: 10,
        }),
      ).id,
    codeKey: async () =>
      ok(
        await clients.root.post<EnvelopeBody<string[]>>('/api/redemption/', {
          name: `perm${++counter}`,
          quota: 3,
          count: 1,
        }),
      )[0]!,
    code: async () => {
      const name = `perm${++counter}`;
      ok(await clients.root.post('/api/redemption/', { name, quota: 3, count: 1 }));
      return ok(
        await clients.root.get<EnvelopeBody<Array<{ id: number }>>>(`/api/redemption/search?keyword=${name}`),
      )[0]!.id;
    },
    channel: async () =>
      ok(
        await clients.root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', {
          ...channelForm,
          name: `perm${++counter}`,
          base_url: upstream.url,
        }),
      ).ids[0]!,
  };

  /** Replaces every {placeholder} in the path and body, each made once per test. */
  const fill = async (route: Route, owner: Client): Promise<{ url: string; body: unknown }> => {
    let text = JSON.stringify([route.path, route.body ?? null]);
    for (const [name, make] of Object.entries(makers)) {
      if (!text.includes(`{${name}}`)) continue;
      const value = await make(owner);
      text = text.replaceAll(`"{${name}}"`, JSON.stringify(value)).replaceAll(`{${name}}`, String(value));
    }
    const [url, body] = JSON.parse(text) as [string, unknown];
    return { url, body: route.body === undefined ? undefined : body };
  };

  /** What a refused call must leave untouched. */
  const snapshot = async () => ({
    users: await t.db.kysely.selectFrom('users').selectAll().orderBy('id').execute(),
    tokens: await t.db.kysely.selectFrom('tokens').selectAll().orderBy('id').execute(),
    redemptions: await t.db.kysely.selectFrom('redemptions').selectAll().orderBy('id').execute(),
    channels: await t.db.kysely.selectFrom('channels').selectAll().orderBy('id').execute(),
    options: await t.db.kysely.selectFrom('options').selectAll().orderBy('key').execute(),
  });

  for (const route of ROUTES) {
    for (const caller of CALLERS) {
      const roleSuffices = RANK[caller] >= NEEDED[route.level];
      const refusedByRule = roleSuffices ? route.refuses?.[caller] : undefined;
      const allowed = roleSuffices && !refusedByRule;
      it(`${caller} ${allowed ? 'may' : 'may not'} ${route.method} ${route.path}`, async () => {
        let client = clients[caller];
        if (route.freshCaller && (caller === 'user' || caller === 'admin')) {
          client = await t.user(`fresh${++counter}`, { role: caller === 'admin' ? 'admin' : 'common' });
        }
        const { url, body } = await fill(route, caller === 'anonymous' ? clients.user : client);
        const before = allowed ? undefined : await snapshot();
        const response = await client.request<EnvelopeBody>(route.method, url, body);
        while (t.app.services.channelTester.running) await new Promise((resolve) => setTimeout(resolve, 20));
        if (route.signsOut && caller === 'root') clients.root = await t.root();
        if (allowed) {
          expect(response.status).toBe(200);
          expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: true });
          return;
        }
        if (caller === 'anonymous') {
          expect(response.status).toBe(401);
          expect(response.body).toMatchObject({ success: false });
        } else {
          expect(response.body).toMatchObject({ success: false });
          expect(response.body.message).toMatch(refusedByRule ?? /role is too low/);
        }
        expect(await snapshot()).toEqual(before);
      });
    }
  }

  it('an admin cannot act on root or another admin through any route', async () => {
    const admin = clients.admin;
    const otherAdmin = await t.user('admin2', { role: 'admin' });
    const self = await otherAdmin.get<{ data: { id: number } }>('/api/user/self');
    const own = await admin.get<{ data: { id: number } }>('/api/user/self');
    const quotas = () => t.db.kysely.selectFrom('users').select(['id', 'quota']).orderBy('id').execute();
    const quotasBefore = await quotas();
    for (const id of [1, self.body.data.id, own.body.data.id]) {
      const topUp = await admin.post('/api/topup', { user_id: id, quota: 5 });
      expect(topUp.body).toMatchObject({ success: false, code: 'user_topup_forbidden' });
    }
    expect(await quotas()).toEqual(quotasBefore);
    for (const id of [1, self.body.data.id]) {
      expect((await admin.get(`/api/user/${id}`)).body.success).toBe(false);
      expect((await admin.put('/api/user/', { id, quota: 5 })).body.success).toBe(false);
      expect((await admin.delete(`/api/user/${id}`)).body.success).toBe(false);
    }
    for (const action of ['disable', 'delete', 'demote', 'promote']) {
      expect((await admin.post('/api/user/manage', { username: 'root', action })).body.success).toBe(false);
      expect((await admin.post('/api/user/manage', { username: 'admin2', action })).body.success).toBe(false);
    }
    const rootRow = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(rootRow).toMatchObject({ role: 100, status: 1, username: 'root' });
  });

  it('a user cannot raise its own role or quota', async () => {
    const user = clients.user;
    const before = (await user.get<{ data: { quota: number } }>('/api/user/self')).body.data.quota;
    await user.put('/api/user/self', { role: 100, quota: 10 ** 12, group: 'svip', status: 1 });
    const self = (await user.get<{ data: { quota: number; role: number; group: string } }>('/api/user/self'))
      .body.data;
    expect(self).toMatchObject({ role: 1, quota: before, group: 'default' });
    expect((await user.put('/api/user/', { id: self.quota, quota: 10 ** 12 })).body.success).toBe(false);
    expect((await user.post('/api/user/manage', { username: 'auser', action: 'promote' })).body.success).toBe(
      false,
    );
    expect((await user.post('/api/topup', { user_id: 1, quota: 5 })).body.success).toBe(false);
  });

  it('an admin cannot promote itself or anyone', async () => {
    const response = await clients.admin.post('/api/user/manage', { username: 'auser', action: 'promote' });
    expect(response.body.message).toMatch(/Only the super administrator/);
  });
});

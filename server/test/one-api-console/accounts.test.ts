import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../harness';
import { accepted, OneApiConsole } from './browser';

/**
 * one-api v0.6.5's default console, screen by screen, for accounts: what its forms send (nulls, whole
 * rows read back from the API, numbers it parsed from text), answered 200 and stored as meant.
 */
describe("one-api v0.6.5's console: register, sign in, personal settings, users, options", () => {
  let t: TestApp;
  let root: OneApiConsole;

  beforeAll(async () => {
    t = await startTestApp();
    root = new OneApiConsole(t.baseUrl);
    await root.login('root', '123456');
  });
  afterAll(() => t.close());

  const userRow = (username: string) =>
    t.db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  it('registers from a plain /register page: aff_code null', async () => {
    const visitor = new OneApiConsole(t.baseUrl);
    const answer = await visitor.post('/api/user/register?turnstile=', {
      username: 'x27187',
      password: 'password123',
      password2: 'password123',
      email: '',
      verification_code: '',
      aff_code: null,
    });
    accepted(answer);
    const row = await userRow('x27187');
    expect(Number(row.inviter_id ?? 0)).toBe(0);
    await visitor.login('x27187', 'password123');
  });

  it('registers from an invitation link: aff_code from ?aff=', async () => {
    const inviter = new OneApiConsole(t.baseUrl);
    await inviter.login('x27187', 'password123');
    const affCode = accepted<string>(await inviter.get('/api/user/aff'));
    const visitor = new OneApiConsole(t.baseUrl);
    accepted(
      await visitor.post('/api/user/register?turnstile=', {
        username: 'invited1',
        password: 'password123',
        password2: 'password123',
        email: '',
        verification_code: '',
        aff_code: affCode,
      }),
    );
    expect(Number((await userRow('invited1')).inviter_id)).toBe(Number((await userRow('x27187')).id));
  });

  it('personal settings: saves the whole self row back, and makes an access token', async () => {
    const me = new OneApiConsole(t.baseUrl);
    await me.login('x27187', 'password123');
    const self = accepted<Record<string, unknown>>(await me.get('/api/user/self'));
    accepted(await me.put('/api/user/self', { ...self, password: '', display_name: 'Xu' }));
    expect((await userRow('x27187')).display_name).toBe('Xu');
    const token = accepted<string>(await me.get('/api/user/token'));
    expect((await userRow('x27187')).access_token).toBe(token);
  });

  it('users screen: lists page 0, adds, edits with a typed quota, and manages', async () => {
    const page = accepted<Array<{ username: string }>>(await root.get('/api/user/?p=0'));
    expect(page.map((user) => user.username)).toContain('x27187');
    accepted(
      await root.post('/api/user/', { username: 'added1', display_name: '', password: 'password123' }),
    );
    const { id } = await userRow('added1');
    const loaded = accepted<Record<string, unknown>>(await root.get(`/api/user/${id}`));
    // EditUser: the row as loaded, password emptied, the typed quota parsed, the id from the URL.
    accepted(
      await root.put('/api/user/', {
        ...loaded,
        password: '',
        display_name: 'Added',
        quota: Number.parseInt('12345', 10),
        id: Number(id),
      }),
    );
    const edited = await userRow('added1');
    expect({ name: edited.display_name, quota: Number(edited.quota) }).toEqual({
      name: 'Added',
      quota: 12345,
    });
    accepted(await root.post('/api/user/manage', { username: 'added1', action: 'disable' }));
    expect((await userRow('added1')).status).toBe(2);
    accepted(await root.post('/api/user/manage', { username: 'added1', action: 'enable' }));
    accepted(await root.post('/api/user/manage', { username: 'added1', action: 'promote' }));
    expect((await userRow('added1')).role).toBe(10);
  });

  it('settings tabs: option values sent as strings (numbers and booleans too)', async () => {
    accepted(await root.get('/api/option/'));
    const saved: Array<[string, string]> = [
      ['QuotaForNewUser', '100'],
      ['RegisterEnabled', 'true'],
      ['GroupRatio', '{"default":1,"vip":1,"svip":1}'],
      ['Notice', 'hello'],
    ];
    for (const [key, value] of saved) accepted(await root.put('/api/option/', { key, value }));
    const rows = await t.db.kysely.selectFrom('options').selectAll().execute();
    const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
    for (const [key, value] of saved) expect(stored[key]).toBe(value);
  });

  it('refusals answer HTTP 200 with the envelope, as one-api does', async () => {
    const user = new OneApiConsole(t.baseUrl);
    await user.login('x27187', 'password123');
    const wrongType = await user.post('/api/token/', { name: 123 });
    expect(wrongType.status).toBe(200);
    expect(wrongType.body).toMatchObject({ success: false, message: 'name must be a string' });
    const notJson = await user.send('POST', '/api/token/', undefined);
    expect(notJson.status).toBe(200);
    for (const path of ['/api/token/', '//api/token/']) {
      const garbled = await fetch(t.baseUrl + path, {
        method: 'POST',
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(garbled.status).toBe(200);
      expect(await garbled.json()).toMatchObject({ success: false, code: 'body_not_json' });
    }
    const anonymous = await new OneApiConsole(t.baseUrl).get('/api/user/self');
    expect(anonymous.status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from './harness';

describe('accounts and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates root/123456 with role 100 on first start', async () => {
    const root = t.client();
    const login = await root.post('/api/user/login', { username: 'root', password: '123456' });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true, data: { username: 'root', role: 100, status: 1 } });
    expect(login.body.data).toMatchObject({ password: '', access_token: '' });
    const cookie = login.headers.getSetCookie().join(';');
    expect(cookie).toContain('session=');
    expect(cookie.toLowerCase()).toContain('httponly');
  });

  it('logs in by email as well as by username', async () => {
    const root = await t.root();
    await root.post('/api/user/', { username: 'mailer', password: 'password123' });
    const created = await root.get<{ data: Array<{ id: number }> }>('/api/user/search?keyword=mailer');
    const id = created.body.data[0]?.id;
    expect((await root.put('/api/user/', { id, email: 'mailer@example.com' })).body.success).toBe(true);
    const byEmail = await t
      .client()
      .post('/api/user/login', { username: 'mailer@example.com', password: 'password123' });
    expect(byEmail.body).toMatchObject({ success: true, data: { username: 'mailer' } });
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await t.client().post('/api/user/login', { username: 'root', password: 'nope-nope' });
    const unknown = await t.client().post('/api/user/login', { username: 'ghost', password: 'nope-nope' });
    expect(wrong.body.success).toBe(false);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.message).toMatch(/wrong username or password/i);
  });

  it('answers 401 without a session or access token', async () => {
    const response = await t.client().get('/api/user/self');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false });
    expect(response.body.message).toMatch(/not logged in/i);
  });

  it('keeps the session in a cookie and forgets it on logout', async () => {
    const client = await t.root();
    expect((await client.get('/api/user/self')).body).toMatchObject({
      success: true,
      data: { username: 'root' },
    });
    await client.get('/api/user/logout');
    expect(client.cookie).toBe('');
    expect((await client.get('/api/user/self')).status).toBe(401);
  });

  it('refuses a forged or tampered session cookie', async () => {
    const client = await t.root();
    const value = client.cookie.slice('session='.length);
    const tampered = new Client(t.baseUrl);
    tampered.cookie = `session=${value.slice(0, -4)}AAAA`;
    expect((await tampered.get('/api/user/self')).status).toBe(401);
    const forged = new Client(t.baseUrl);
    forged.cookie = `session=${Buffer.from(JSON.stringify({ id: 1, role: 100 })).toString('base64url')}`;
    expect((await forged.get('/api/user/self')).status).toBe(401);
  });

  it('authenticates with the system access token, with or without Bearer', async () => {
    const root = await t.root();
    const token = (await root.get<{ data: string }>('/api/user/token')).body.data;
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    for (const header of [token, `Bearer ${token}`]) {
      const scripted = t.client();
      scripted.authorization = header;
      const options = await scripted.get('/api/option/');
      expect(options.body.success).toBe(true);
    }
    const invalid = t.client();
    invalid.authorization = 'Bearer not-a-real-token';
    const refused = await invalid.get('/api/user/self');
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.message).toMatch(/access token is invalid/i);
  });

  it('a regenerated access token replaces the old one', async () => {
    const root = await t.root();
    const first = (await root.get<{ data: string }>('/api/user/token')).body.data;
    const second = (await root.get<{ data: string }>('/api/user/token')).body.data;
    expect(second).not.toBe(first);
    const old = t.client();
    old.authorization = first;
    expect((await old.get('/api/user/self')).body.success).toBe(false);
  });

  it('refuses a disabled user at once: open session, access token and new login', async () => {
    const victim = await t.user('victim');
    const token = (await victim.get<{ data: string }>('/api/user/token')).body.data;
    const root = await t.root();
    expect(
      (await root.post('/api/user/manage', { username: 'victim', action: 'disable' })).body.success,
    ).toBe(true);

    const withSession = await victim.get('/api/user/self');
    expect(withSession.body).toMatchObject({ success: false });
    expect(withSession.body.message).toMatch(/banned/i);
    const scripted = t.client();
    scripted.authorization = token;
    expect((await scripted.get('/api/user/self')).body.message).toMatch(/banned/i);
    const login = await t.client().post('/api/user/login', { username: 'victim', password: 'password123' });
    expect(login.body.success).toBe(false);

    await root.post('/api/user/manage', { username: 'victim', action: 'enable' });
    const again = t.client();
    await again.login('victim', 'password123');
    expect((await again.get('/api/user/self')).body.success).toBe(true);
  });

  it('a session made by one process works in another sharing SESSION_SECRET', async () => {
    const other = await startTestApp({ database: t.database });
    try {
      const client = await t.root();
      const elsewhere = new Client(other.baseUrl);
      elsewhere.cookie = client.cookie;
      expect((await elsewhere.get('/api/user/self')).body).toMatchObject({
        success: true,
        data: { username: 'root' },
      });
    } finally {
      await other.close();
    }
  });

  it('a process with another SESSION_SECRET cannot read the session', async () => {
    const other = await startTestApp({ database: t.database, env: { SESSION_SECRET: 'a-different-secret' } });
    try {
      const client = await t.root();
      const elsewhere = new Client(other.baseUrl);
      elsewhere.cookie = client.cookie;
      expect((await elsewhere.get('/api/user/self')).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('stores bcrypt hashes compatible with one-api, of PASSWORD_HASH_COST (the suites: 4)', async () => {
    const row = await t.db.kysely
      .selectFrom('users')
      .select('password')
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$2[aby]\$04\$.{53}$/);
  });
});

describe('first start with INITIAL_ROOT_TOKEN and INITIAL_ROOT_ACCESS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { INITIAL_ROOT_TOKEN: 'sk-InitialRootKey42', INITIAL_ROOT_ACCESS_TOKEN: 'initial_root_access_1' },
    });
  });
  afterAll(() => t.close());

  it('lets root in with the preset access token, and the preset key relays as root', async () => {
    const scripted = new Client(t.baseUrl);
    scripted.authorization = 'initial_root_access_1';
    const self = await scripted.get<{ success: boolean; data: { username: string; role: number } }>(
      '/api/user/self',
    );
    expect(self.body).toMatchObject({ success: true, data: { username: 'root', role: 100 } });

    const tokens = await scripted.get<{ data: Array<Record<string, unknown>> }>('/api/token/?p=0');
    expect(tokens.body.data).toEqual([
      expect.objectContaining({ key: 'InitialRootKey42', name: 'Initial Root Token', unlimited_quota: true }),
    ]);

    const models = await fetch(`${t.baseUrl}/v1/models`, {
      headers: { authorization: 'Bearer sk-InitialRootKey42' },
    });
    expect(models.status).toBe(200);
    expect(await models.json()).toMatchObject({ object: 'list' });
  });
});

describe('sign-in timing', () => {
  // At the suites' cost of 4 a hash takes a millisecond or two, below a busy machine's noise; at
  // one-api's 10 it takes tens, so a path that skipped it would stand out.
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PASSWORD_HASH_COST: '10' } });
  });
  afterAll(() => t.close());

  it('takes as long for an unknown user as for a wrong password: the time tells no account apart', async () => {
    const root = await t.root();
    await root.post('/api/user/', { username: 'timed', password: 'password123' });
    const timed = async (username: string) => {
      const started = performance.now();
      const answer = await t.client().post('/api/user/login', { username, password: 'nope-nope' });
      expect(answer.body).toMatchObject({ success: false });
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so that a burst of load on the machine weighs on both alike.
    for (let round = 0; round < 9; round++) {
      known.push(await timed('timed'));
      unknown.push(await timed(`ghost${round}`));
    }
    // Without the same hashing work the unknown name answers more than ten times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});

import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type Users = EnvelopeBody<User[]>;

async function findUser(root: Client, username: string): Promise<User> {
  const found = await root.get<Users>(`/api/user/search?keyword=${encodeURIComponent(username)}`);
  const user = found.body.data?.find((candidate) => candidate.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user;
}

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('registers a user who can then log in', async () => {
    const response = await t.client().post('/api/user/register', {
      username: 'alice',
      password: 'password123',
      password2: 'password123',
    });
    expect(response.body).toEqual({ success: true, message: '' });
    const alice = t.client();
    const login = await alice.login('alice', 'password123');
    expect(login.data).toMatchObject({
      username: 'alice',
      role: 1,
      status: 1,
      group: 'default',
      display_name: 'alice',
    });
  });

  it.each([
    [{ username: '', password: 'password123' }, /username is required/],
    [{ username: 'abcdefghijklm', password: 'password123' }, /at most 12/],
    [{ username: 'shorty', password: 'short' }, /at least 8/],
    [{ username: 'longpw', password: 'x'.repeat(21) }, /at most 20/],
    [{ password: 'password123' }, /username/],
    [{ username: 'nopw' }, /password/],
    [{ username: 12345, password: 'password123' }, /username must be a string/],
    [
      { username: 'longmail', password: 'password123', email: `${'m'.repeat(46)}@x.io` },
      /email must be at most 50 characters/,
    ],
    [{ username: 'typed', password: 'password123', display_name: 42 }, /display name must be a string/],
  ])('refuses %j without creating a user', async (body, message) => {
    const before = await t.db.kysely.selectFrom('users').select('id').execute();
    const response = await t.client().post('/api/user/register', body);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('users').select('id').execute()).toEqual(before);
  });

  it('refuses password login while PasswordLoginEnabled is false, and allows it again after', async () => {
    const root = await t.root();
    expect(
      (await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'false' })).body.success,
    ).toBe(true);
    try {
      const client = t.client();
      const refused = await client.post('/api/user/login', { username: 'root', password: '123456' });
      expect(refused.status).toBe(200);
      expect(refused.body).toEqual({
        success: false,
        message: 'The administrator has turned off login with a password',
        code: 'password_login_off',
      });
      expect(client.cookie).toBe('');
      expect((await client.get('/api/user/self')).status).toBe(401);
      // A wrong password gets the same answer: the switch is checked before the password.
      const wrong = await t
        .client()
        .post('/api/user/login', { username: 'root', password: 'wrong-password' });
      expect(wrong.body.message).toBe('The administrator has turned off login with a password');
    } finally {
      await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'true' });
    }
    expect(
      (await t.client().post('/api/user/login', { username: 'root', password: '123456' })).body.success,
    ).toBe(true);
  });

  it('refuses a taken username', async () => {
    await t.client().post('/api/user/register', { username: 'bob', password: 'password123' });
    const again = await t.client().post('/api/user/register', { username: 'bob', password: 'password456' });
    expect(again.body).toMatchObject({ success: false, message: 'This username is already taken' });
  });

  it('honours RegisterEnabled and PasswordRegisterEnabled', async () => {
    const root = await t.root();
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'false' });
    const closed = await t
      .client()
      .post('/api/user/register', { username: 'carol', password: 'password123' });
    expect(closed.body).toMatchObject({ success: false });
    expect(closed.body.message).toMatch(/closed new registrations/);
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'true' });
    await root.put('/api/option/', { key: 'PasswordRegisterEnabled', value: 'false' });
    const noPassword = await t
      .client()
      .post('/api/user/register', { username: 'carol', password: 'password123' });
    expect(noPassword.body.message).toMatch(/registration with a password/);
    await root.put('/api/option/', { key: 'PasswordRegisterEnabled', value: 'true' });
    expect(
      (await t.client().post('/api/user/register', { username: 'carol', password: 'password123' })).body
        .success,
    ).toBe(true);
  });

  it('requires an email code when email verification is on', async () => {
    const root = await t.root();
    await root.put('/api/option/', { key: 'EmailVerificationEnabled', value: 'true' });
    const response = await t
      .client()
      .post('/api/user/register', { username: 'dave', password: 'password123' });
    expect(response.body.message).toMatch(/verification code/);
    const wrong = await t.client().post('/api/user/register', {
      username: 'dave',
      password: 'password123',
      email: 'd@x.io',
      verification_code: 'abc',
    });
    expect(wrong.body.message).toMatch(/wrong or has expired/);
    const code = await t.app.services.codes.issue('email-verification', 'd@x.io');
    const right = await t.client().post('/api/user/register', {
      username: 'dave',
      password: 'password123',
      email: 'd@x.io',
      verification_code: code,
    });
    expect(right.body.success).toBe(true);
    expect((await findUser(root, 'dave')).email).toBe('d@x.io');
    await root.put('/api/option/', { key: 'EmailVerificationEnabled', value: 'false' });
  });

  it('credits new-user, invitee and inviter quota with a log entry each', async () => {
    const root = await t.root();
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: '100' });
    await root.put('/api/option/', { key: 'QuotaForInvitee', value: '20' });
    await root.put('/api/option/', { key: 'QuotaForInviter', value: '30' });
    const inviter = await t.user('inviter');
    const affCode = (await inviter.get<EnvelopeBody<string>>('/api/user/aff')).body.data;
    expect(affCode).toMatch(/^[0-9A-Za-z]{4}$/);
    const before = (await findUser(root, 'inviter')).quota;
    await t
      .client()
      .post('/api/user/register', { username: 'invitee', password: 'password123', aff_code: affCode });
    const invitee = await findUser(root, 'invitee');
    expect(invitee.quota).toBe(120);
    expect(invitee.inviter_id).toBe((await findUser(root, 'inviter')).id);
    expect((await findUser(root, 'inviter')).quota).toBe(before + 30);
    const logs = await t.db.kysely
      .selectFrom('logs')
      .select(['user_id', 'type', 'content'])
      .where('user_id', 'in', [invitee.id, invitee.inviter_id])
      .execute();
    expect(logs.filter((log) => log.user_id === invitee.id)).toHaveLength(2);
    expect(
      logs
        .filter((log) => log.user_id === invitee.inviter_id)
        .map((log) => log.content)
        .join(),
    ).toMatch(/inviting/);
    expect(logs.every((log) => log.type === 4)).toBe(true);
    for (const key of ['QuotaForNewUser', 'QuotaForInvitee', 'QuotaForInviter']) {
      await root.put('/api/option/', { key, value: '0' });
    }
  });
});

describe('self service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reads and updates its own profile, but not its role, quota or group', async () => {
    const erin = await t.user('erin');
    const before = (await erin.get<EnvelopeBody<User>>('/api/user/self')).body.data!;
    const update = await erin.put('/api/user/self', {
      display_name: 'Erin E',
      role: 100,
      quota: 999999,
      group: 'vip',
      status: 1,
    });
    expect(update.body.success).toBe(true);
    const after = (await erin.get<EnvelopeBody<User>>('/api/user/self')).body.data!;
    expect(after).toMatchObject({ display_name: 'Erin E', role: 1, quota: before.quota, group: 'default' });
    // Its own access token, as one-api shows it (a user's row in lists keeps it empty).
    expect(after.access_token).toBe(before.access_token);
    expect(after.access_token).not.toBe('');
  });

  it('changes its password and username', async () => {
    const frank = await t.user('frank');
    expect(
      (await frank.put('/api/user/self', { username: 'franky', password: 'newpassword1' })).body.success,
    ).toBe(true);
    await t.client().login('franky', 'newpassword1');
    expect(
      (await t.client().post('/api/user/login', { username: 'frank', password: 'password123' })).body.success,
    ).toBe(false);
  });

  it('refuses a taken username and a short password', async () => {
    const gina = await t.user('gina');
    expect((await gina.put('/api/user/self', { username: 'root' })).body.message).toBe(
      'This username is already taken',
    );
    const short = await gina.put('/api/user/self', { password: 'short' });
    expect(short.status).toBe(200);
    expect(short.body.message).toMatch(/at least 8/);
  });

  it('deletes its own account, which then cannot log in; root cannot delete itself', async () => {
    const hank = await t.user('hank');
    expect((await hank.delete('/api/user/self')).body.success).toBe(true);
    expect((await hank.get('/api/user/self')).status).toBe(401);
    expect(
      (await t.client().post('/api/user/login', { username: 'hank', password: 'password123' })).body.success,
    ).toBe(false);
    const root = await t.root();
    const refused = await root.delete('/api/user/self');
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.message).toMatch(/super administrator/);
    // The username is free again.
    expect((await root.post('/api/user/', { username: 'hank', password: 'password123' })).body.success).toBe(
      true,
    );
  });

  it('lists the models its group can use', async () => {
    const ivy = await t.user('ivy');
    await t.db.kysely
      .insertInto('abilities')
      .values([
        { group: 'default', model: 'gpt-4', channel_id: 1, enabled: true, priority: 0 },
        { group: 'default', model: 'gpt-3.5-turbo', channel_id: 1, enabled: true, priority: 0 },
        { group: 'default', model: 'gpt-3.5-turbo', channel_id: 2, enabled: true, priority: 0 },
        { group: 'default', model: 'claude-2', channel_id: 3, enabled: false, priority: 0 },
        { group: 'vip', model: 'gpt-4-32k', channel_id: 1, enabled: true, priority: 0 },
      ])
      .execute();
    expect((await ivy.get('/api/user/available_models')).body.data).toEqual(['gpt-3.5-turbo', 'gpt-4']);
  });
});

describe('user administration', () => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
  });
  afterAll(() => t.close());

  it('creates users as role 1 and never with a role at or above the creator', async () => {
    expect(
      (await root.post('/api/user/', { username: 'jack', password: 'password123', display_name: 'Jack' }))
        .body.success,
    ).toBe(true);
    expect(await findUser(root, 'jack')).toMatchObject({ role: 1, display_name: 'Jack', status: 1 });
    const admin = await t.user('admin1', { role: 'admin' });
    const refused = await admin.post('/api/user/', { username: 'sneaky', password: 'password123', role: 10 });
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(/role equal to or higher/);
  });

  it('pages users ten at a time and sorts by quota, used quota and request count', async () => {
    for (let i = 0; i < 12; i++) {
      await root.post('/api/user/', { username: `page${i}`, password: 'password123' });
    }
    const quotas = [5, 50, 500];
    for (const [i, quota] of quotas.entries()) {
      const user = await findUser(root, `page${i}`);
      await root.put('/api/user/', { id: user.id, quota });
      await t.db.kysely
        .updateTable('users')
        .set({ used_quota: 1000 - quota, request_count: quota })
        .where('id', '=', user.id)
        .execute();
    }
    const first = (await root.get<Users>('/api/user/?p=0')).body.data!;
    const second = (await root.get<Users>('/api/user/?p=1')).body.data!;
    expect(first).toHaveLength(10);
    expect(first[0]!.id).toBeGreaterThan(first[9]!.id);
    expect(second.every((user) => user.id < first[9]!.id)).toBe(true);
    const byQuota = (await root.get<Users>('/api/user/?order=quota')).body.data!;
    expect(byQuota[0]!.username).toBe('root');
    expect(byQuota[1]!.username).toBe('page2');
    const byUsed = (await root.get<Users>('/api/user/?order=used_quota')).body.data!;
    expect(byUsed[0]!.username).toBe('page0');
    const byCount = (await root.get<Users>('/api/user/?order=request_count')).body.data!;
    expect(byCount[0]!.username).toBe('page2');
    expect((await root.get<Users>('/api/user/?p=-3')).body.data).toEqual(first);
    expect((await root.get<Users>('/api/user/?p=999')).body.data).toEqual([]);
  });

  it('never lists access tokens or password hashes', async () => {
    const list = (await root.get<Users>('/api/user/')).body.data!;
    expect(list.every((user) => user.access_token === '' && user.password === '')).toBe(true);
    const search = (await root.get<Users>('/api/user/search?keyword=root')).body.data!;
    expect(search[0]).toMatchObject({ access_token: '', password: '' });
  });

  it('searches by id, username, email and display name prefix, and treats wildcards literally', async () => {
    const jack = await findUser(root, 'jack');
    expect(
      (await root.get<Users>(`/api/user/search?keyword=${jack.id}`)).body.data!.map((u) => u.username),
    ).toContain('jack');
    expect(
      (await root.get<Users>('/api/user/search?keyword=Jac')).body.data!.map((u) => u.username),
    ).toContain('jack');
    expect((await root.get<Users>('/api/user/search?keyword=%25')).body.data).toEqual([]);
    expect((await root.get<Users>('/api/user/search?keyword=page_')).body.data).toEqual([]);
  });

  it('checks an email an admin sets like a self-service one, and lets it clear the email', async () => {
    const jack = await findUser(root, 'jack');
    for (const email of ['not-an-address', 'a@b', 'two words@x.io', 'a@b.c,d@e.f']) {
      const response = await root.put('/api/user/', { id: jack.id, email });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: false,
        code: 'field_invalid',
        params: { field: 'email' },
      });
      expect(response.body.message).toBe('email is not a valid address');
    }
    expect((await findUser(root, 'jack')).email).toBe('');
    const set = await root.put<EnvelopeBody<User>>('/api/user/', {
      id: jack.id,
      email: ' jack@example.com ',
    });
    expect(set.body.data?.email).toBe('jack@example.com');
    const cleared = await root.put<EnvelopeBody<User>>('/api/user/', { id: jack.id, email: '' });
    expect(cleared.body.data?.email).toBe('');
  });

  it('updates group and quota, writing a manage log for the quota change', async () => {
    const jack = await findUser(root, 'jack');
    const response = await root.put<EnvelopeBody<User>>('/api/user/', {
      id: jack.id,
      group: 'vip',
      quota: 4242,
    });
    expect(response.body).toMatchObject({ success: true, data: { group: 'vip', quota: 4242 } });
    const zero = await root.put<EnvelopeBody<User>>('/api/user/', { id: jack.id, quota: 0 });
    expect(zero.body.data?.quota).toBe(0);
    const logs = await t.db.kysely
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', jack.id)
      .where('type', '=', 3)
      .execute();
    expect(logs).toHaveLength(2);
    const unknownGroup = await root.put('/api/user/', { id: jack.id, group: 'platinum' });
    expect(unknownGroup.body).toMatchObject({ success: false });
    expect(unknownGroup.body.message).toMatch(/does not exist/);
  });

  it.each([
    ['an empty group', { group: '' }, /group cannot be empty/],
    ['a blank group', { group: '   ' }, /group cannot be empty/],
    ['a group over 32 characters', { group: 'g'.repeat(33) }, /group must be at most 32 characters/],
    ['a group of the wrong type', { group: 7 }, /group must be a string/],
    ['a display name of the wrong type', { display_name: { first: 'J' } }, /display name must be a string/],
  ])('refuses an update with %s and leaves the user as they were', async (_label, change, message) => {
    const jack = await findUser(root, 'jack');
    const before = await t.db.kysely.selectFrom('users').selectAll().where('id', '=', jack.id).execute();
    const response = await root.put('/api/user/', { id: jack.id, ...change });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('users').selectAll().where('id', '=', jack.id).execute()).toEqual(
      before,
    );
  });

  it('reads a lower user, but an admin cannot read or change another admin or root', async () => {
    const admin = await t.user('admin2', { role: 'admin' });
    const jack = await findUser(root, 'jack');
    expect((await admin.get(`/api/user/${jack.id}`)).body).toMatchObject({
      success: true,
      data: { username: 'jack' },
    });
    const other = await findUser(root, 'admin1');
    expect((await admin.get(`/api/user/${other.id}`)).body.message).toMatch(/equal or higher/);
    expect((await admin.get('/api/user/1')).body.message).toMatch(/equal or higher/);
    expect((await admin.put('/api/user/', { id: 1, quota: 1 })).body.message).toMatch(/equal or higher/);
    expect((await admin.put('/api/user/', { id: jack.id, role: 100 })).body.message).toMatch(
      /promote, demote/,
    );
    expect((await admin.get('/api/user/99999')).body).toMatchObject({
      success: false,
      message: 'User does not exist',
    });
  });

  it('promotes, demotes, disables, enables and deletes with the answer carrying role and status', async () => {
    await root.post('/api/user/', { username: 'kate', password: 'password123' });
    const steps: Array<[string, { role: number; status: number }]> = [
      ['promote', { role: 10, status: 1 }],
      ['demote', { role: 1, status: 1 }],
      ['disable', { role: 1, status: 2 }],
      ['enable', { role: 1, status: 1 }],
      ['delete', { role: 1, status: 3 }],
    ];
    for (const [action, expected] of steps) {
      const response = await root.post('/api/user/manage', { username: 'kate', action });
      expect(response.body).toMatchObject({ success: true, data: expected });
    }
    expect((await root.get<Users>('/api/user/search?keyword=kate')).body.data).toEqual([]);
    expect((await root.post('/api/user/manage', { username: 'kate', action: 'enable' })).body.message).toBe(
      'User does not exist',
    );
  });

  it('refuses the manage actions the rules forbid', async () => {
    await root.post('/api/user/', { username: 'leo', password: 'password123' });
    const admin = await t.user('admin3', { role: 'admin' });
    const cases: Array<[Client, string, string, RegExp]> = [
      [root, 'root', 'disable', /cannot be disabled/],
      [root, 'root', 'delete', /cannot be deleted/],
      [root, 'root', 'demote', /cannot be demoted/],
      [root, 'leo', 'demote', /already a normal user/],
      [admin, 'leo', 'promote', /Only the super administrator/],
      [admin, 'admin1', 'disable', /equal or higher/],
      [admin, 'root', 'disable', /equal or higher/],
      [root, 'nobody', 'disable', /does not exist/],
    ];
    for (const [client, username, action, message] of cases) {
      const response = await client.post('/api/user/manage', { username, action });
      expect(response.body.success, `${action} ${username}`).toBe(false);
      expect(response.body.message).toMatch(message);
    }
    await root.post('/api/user/manage', { username: 'leo', action: 'promote' });
    expect(
      (await root.post('/api/user/manage', { username: 'leo', action: 'promote' })).body.message,
    ).toMatch(/already an administrator/);
    const bad = await root.post('/api/user/manage', { username: 'leo', action: 'explode' });
    expect(bad.status).toBe(200);
    expect(bad.body.message).toMatch(/action must be one of/);
  });

  it('an admin manages normal users', async () => {
    const admin = await t.user('admin4', { role: 'admin' });
    await root.post('/api/user/', { username: 'mia', password: 'password123' });
    expect((await admin.post('/api/user/manage', { username: 'mia', action: 'disable' })).body.data).toEqual({
      role: 1,
      status: 2,
    });
    const mia = await findUser(root, 'mia');
    expect((await admin.delete(`/api/user/${mia.id}`)).body.success).toBe(true);
    expect((await admin.delete('/api/user/1')).body.message).toMatch(/equal or higher/);
  });

  it('tops up a user with a top-up log, refusing a non-positive amount', async () => {
    await root.post('/api/user/', { username: 'nina', password: 'password123' });
    const nina = await findUser(root, 'nina');
    expect(
      (await root.post('/api/topup', { user_id: nina.id, quota: 500, remark: 'welcome' })).body.success,
    ).toBe(true);
    expect((await findUser(root, 'nina')).quota).toBe(500);
    const log = await t.db.kysely
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', nina.id)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: 1, quota: 500, content: 'welcome' });
    expect((await root.post('/api/topup', { user_id: nina.id, quota: -5 })).body.success).toBe(false);
  });

  it('lists the groups of GroupRatio', async () => {
    expect(((await root.get<EnvelopeBody<string[]>>('/api/group/')).body.data ?? []).sort()).toEqual([
      'default',
      'svip',
      'vip',
    ]);
  });
});

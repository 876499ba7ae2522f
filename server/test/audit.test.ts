import { AUDIT_SECRET_MARKER, type AuditEntry } from '@switchyard/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type Entries = EnvelopeBody<AuditEntry[]>;

describe('audit log', () => {
  let t: TestApp;
  let root: Client;
  let admin: Client;
  /** Every secret the tests send or the server makes: none may be in any raw audit row. */
  const secrets: string[] = ['password123', 'Pass-word-42!'];

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
    admin = await t.user('audit_admin', { role: 'admin' });
  });
  afterAll(() => t.close());

  const rawRows = () => t.db.kysely.selectFrom('audit_logs').selectAll().orderBy('id').execute();
  const entries = async (client: Client, query = '') => {
    const response = await client.get<Entries>(`/api/audit/?${query}`);
    expect(response.body.success, response.body.message).toBe(true);
    return response.body.data!;
  };
  const latest = async (action: string) => (await entries(root, `action=${action}`))[0];

  it('records sign-ins and failed sign-ins, never the password tried', async () => {
    const failed = await t
      .client()
      .post('/api/user/login', { username: 'audit_admin', password: 'Pass-word-42!' });
    expect(failed.body.success).toBe(false);
    const entry = await latest('auth.login_failed');
    expect(entry).toMatchObject({ actor_name: 'audit_admin', action: 'auth.login_failed', ip: '127.0.0.1' });
    expect(entry?.after).toEqual({ method: 'password' });
    const signedIn = await latest('auth.login');
    expect(signedIn).toMatchObject({ action: 'auth.login', target_type: 'user' });
  });

  it('records a user created, changed, promoted, disabled, topped up and deleted, with before and after', async () => {
    expect((await root.post('/api/user/', { username: 'carol', password: 'password123' })).body.success).toBe(
      true,
    );
    const created = await latest('user.create');
    expect(created).toMatchObject({
      actor_name: 'root',
      target_type: 'user',
      target_name: 'carol',
      before: null,
    });
    expect(created?.after).toMatchObject({ username: 'carol', role: 1, password: AUDIT_SECRET_MARKER });
    const id = Number(created?.target_id);

    const update = await root.put('/api/user/', {
      id,
      username: 'carol',
      display_name: 'Carol C',
      password: 'Pass-word-42!',
      group: 'default',
      quota: 0,
    });
    expect(update.body.success, update.body.message).toBe(true);
    const updated = await latest('user.update');
    expect(updated?.before).toEqual({ display_name: 'carol', password: AUDIT_SECRET_MARKER });
    expect(updated?.after).toEqual({ display_name: 'Carol C', password: AUDIT_SECRET_MARKER });

    await root.post('/api/user/manage', { username: 'carol', action: 'promote' });
    expect((await latest('user.manage.promote'))?.after).toEqual({ role: 10 });
    await admin.post('/api/user/manage', { username: 'carol', action: 'disable' });
    // An admin may not disable an admin: nothing changed, nothing recorded.
    expect(await latest('user.manage.disable')).toBeUndefined();
    await root.post('/api/user/manage', { username: 'carol', action: 'disable' });
    expect(await latest('user.manage.disable')).toMatchObject({
      before: { status: 1 },
      after: { status: 2 },
    });

    expect((await root.post('/api/topup', { user_id: id, quota: 500, remark: 'gift' })).body.success).toBe(
      true,
    );
    expect(await latest('user.topup')).toMatchObject({ before: { quota: 0 }, after: { quota: 500 } });

    expect((await root.delete(`/api/user/${id}`)).body.success).toBe(true);
    expect(await latest('user.delete')).toMatchObject({ target_id: String(id), target_name: 'carol' });
  });

  it("records an admin's keys created, changed and deleted, the key itself masked", async () => {
    const created = await admin.post<EnvelopeBody<{ id: number; key: string }>>('/api/token/', {
      name: 'ops',
      remain_quota: 100,
      expired_time: -1,
    });
    expect(created.body.success, created.body.message).toBe(true);
    const id = created.body.data!.id;
    const row = await t.db.kysely
      .selectFrom('tokens')
      .select('key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    secrets.push(row.key);
    expect((await latest('token.create'))?.after).toMatchObject({ name: 'ops', key: AUDIT_SECRET_MARKER });
    await admin.put('/api/token/', { id, name: 'ops2', remain_quota: 100, expired_time: -1 });
    expect(await latest('token.update')).toMatchObject({ before: { name: 'ops' }, after: { name: 'ops2' } });
    await admin.delete(`/api/token/${id}`);
    expect(await latest('token.delete')).toMatchObject({ target_name: 'ops2', after: null });
  });

  it('records root changing its own password and regenerating its system access token, both masked', async () => {
    const own = await t.root();
    const original = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'password'])
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow();
    const changed = await own.put('/api/user/self', { display_name: 'Root R', password: 'Root-pass-77!' });
    expect(changed.body.success, changed.body.message).toBe(true);
    secrets.push('Root-pass-77!');
    // The new password ended root's other sessions; the one that changed it stays signed in.
    root = own;
    const updated = await latest('user.update_self');
    expect(updated).toMatchObject({ actor_name: 'root', target_type: 'user', target_name: 'root' });
    expect(updated?.before).toEqual({ display_name: 'Root User', password: AUDIT_SECRET_MARKER });
    expect(updated?.after).toEqual({ display_name: 'Root R', password: AUDIT_SECRET_MARKER });

    const token = await own.get<EnvelopeBody<string>>('/api/user/token');
    expect(token.body.success, token.body.message).toBe(true);
    secrets.push(token.body.data!);
    const regenerated = await latest('user.access_token');
    expect(regenerated).toMatchObject({ actor_name: 'root', target_name: 'root' });
    expect(regenerated?.after).toEqual({ access_token: AUDIT_SECRET_MARKER });
    // The harness signs root in with its first password.
    await t.db.kysely
      .updateTable('users')
      .set({ password: original.password })
      .where('id', '=', original.id)
      .execute();
  });

  it("does not record a common user's own changes", async () => {
    const user = await t.user('plain_user');
    await user.post('/api/token/', { name: 'mine', remain_quota: 1, expired_time: -1 });
    expect((await entries(root, 'actor=plain_user')).map((entry) => entry.action)).toEqual(['auth.login']);
  });

  it('records channels with their key and config secrets masked', async () => {
    secrets.push('sk-channel-secret-1', 'AKIAAUDITEXAMPLE0001', 'aws-secret-value-xyz');
    const created = await root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', {
      type: 1,
      name: 'audited',
      key: 'sk-channel-secret-1',
      models: 'gpt-4',
      group: 'default',
      config: JSON.stringify({ region: 'us-east-1', ak: 'AKIAAUDITEXAMPLE0001', sk: 'aws-secret-value-xyz' }),
    });
    expect(created.body.success, created.body.message).toBe(true);
    const id = created.body.data!.ids[0]!;
    const entry = await latest('channel.create');
    expect(entry?.after).toMatchObject({
      key: AUDIT_SECRET_MARKER,
      config: { region: 'us-east-1', ak: AUDIT_SECRET_MARKER, sk: AUDIT_SECRET_MARKER },
    });
    secrets.push('sk-channel-secret-2');
    expect(
      (await root.put('/api/channel/', { id, key: 'sk-channel-secret-2', name: 'audited2' })).body.success,
    ).toBe(true);
    expect(await latest('channel.update')).toMatchObject({
      before: { name: 'audited', key: AUDIT_SECRET_MARKER },
      after: { name: 'audited2', key: AUDIT_SECRET_MARKER },
    });
    await root.delete(`/api/channel/${id}`);
    expect(await latest('channel.delete')).toMatchObject({ target_id: String(id), after: null });
  });

  it('records options, secret ones masked', async () => {
    secrets.push('smtp-token-value-777');
    expect(
      (await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-token-value-777' })).body.success,
    ).toBe(true);
    expect(await latest('option.update')).toMatchObject({
      target_name: 'SMTPToken',
      before: { SMTPToken: '' },
      after: { SMTPToken: AUDIT_SECRET_MARKER },
    });
    await root.put('/api/option/', { key: 'SystemName', value: 'Audited' });
    expect((await latest('option.update'))?.after).toEqual({ SystemName: 'Audited' });
  });

  it('records redemption codes without the codes, and log clean-up', async () => {
    const created = await root.post<EnvelopeBody<string[]>>('/api/redemption/', {
      name: 'promo',
      quota: 10,
      count: 2,
    });
    secrets.push(...created.body.data!);
    expect(await latest('redemption.create')).toMatchObject({
      target_name: 'promo',
      after: { name: 'promo', count: 2, quota: 10 },
    });
    const [code] = await t.db.kysely
      .selectFrom('redemptions')
      .select('id')
      .where('name', '=', 'promo')
      .execute();
    await root.put('/api/redemption/', { id: code!.id, name: 'promo2', quota: 10 });
    expect(await latest('redemption.update')).toMatchObject({
      before: { name: 'promo' },
      after: { name: 'promo2' },
    });
    await root.delete(`/api/redemption/${code!.id}`);
    expect((await latest('redemption.delete'))?.before).toMatchObject({ key: AUDIT_SECRET_MARKER });

    expect((await root.delete('/api/log/?target_timestamp=1000')).body.success).toBe(true);
    expect((await latest('log.delete'))?.after).toEqual({ target_timestamp: '1000', deleted: 0 });
  });

  it('records an access token used from a new address once per address', async () => {
    const token = (await admin.get<EnvelopeBody<string>>('/api/user/token')).body.data!;
    secrets.push(token);
    const caller = t.client();
    caller.authorization = token;
    const from = (ip: string) => caller.get('/api/user/self', { 'x-forwarded-for': ip });
    await from('203.0.113.7');
    await from('203.0.113.7');
    await from('198.51.100.9');
    const used = await entries(root, 'action=auth.access_token_new_ip');
    expect(used.map((entry) => entry.ip).sort()).toEqual(['198.51.100.9', '203.0.113.7']);
  });

  it('keeps every secret out of the raw rows', async () => {
    const raw = JSON.stringify(await rawRows());
    for (const secret of secrets) expect(raw, secret).not.toContain(secret);
  });

  it('shows root everything and admins the entries of actors below them and their own', async () => {
    const asRoot = await entries(root, 'actor=root');
    expect(asRoot.length).toBeGreaterThan(0);
    expect(await entries(admin, 'actor=root')).toEqual([]);
    const forAdmin = await entries(admin);
    expect(forAdmin.length).toBeGreaterThan(0);
    expect(forAdmin.every((entry) => entry.actor_role < 100)).toBe(true);
    const refused = await (await t.user('nosy')).get('/api/audit/');
    expect(refused.body).toMatchObject({ success: false, code: 'role_too_low' });
  });

  it('filters by actor, action, target and time, and pages by 10', async () => {
    expect((await entries(root, 'actor=audit_admin&action=token.')).map((entry) => entry.action)).toEqual([
      'token.delete',
      'token.update',
      'token.create',
    ]);
    expect(
      (await entries(root, 'target=SMTPToken')).every((entry) => entry.target_name === 'SMTPToken'),
    ).toBe(true);
    const all = (await rawRows()).length;
    expect(all).toBeGreaterThan(10);
    const first = await entries(root, 'p=0');
    const second = await entries(root, 'p=1');
    expect(first).toHaveLength(10);
    expect(second[0]!.id).toBeLessThan(first[9]!.id);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(await entries(root, `start_timestamp=${future}`)).toEqual([]);
    expect((await entries(root, `end_timestamp=${future}`)).length).toBe(10);
    const refused = await root.get('/api/audit/?start_timestamp=soon');
    expect(refused.body).toMatchObject({ success: false, code: 'query_not_whole_number' });
  });

  it('has no route that changes or removes an entry', async () => {
    const before = await rawRows();
    const id = before[0]!.id;
    for (const [method, path] of [
      ['PUT', '/api/audit/'],
      ['DELETE', '/api/audit/'],
      ['DELETE', `/api/audit/${id}`],
      ['POST', '/api/audit/'],
      ['PUT', `/api/audit/${id}`],
    ] as const) {
      const response = await root.request(method, path, method === 'DELETE' ? undefined : { action: 'x' });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const after = await rawRows();
    expect(after.slice(0, before.length)).toEqual(before);
  });
});

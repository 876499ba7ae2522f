import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestApp, type TestApp } from './harness';

/** A snapshot of every row that a bad request could touch. */
async function snapshot(t: TestApp) {
  const users = await t.db.kysely.selectFrom('users').selectAll().orderBy('id').execute();
  const options = await t.db.kysely.selectFrom('options').selectAll().orderBy('key').execute();
  const logs = await t.db.kysely.selectFrom('logs').selectAll().orderBy('id').execute();
  return { users, options, logs };
}

describe('malformed input', () => {
  let t: TestApp;
  let root: Client;
  let userId = 0;
  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
    await root.post('/api/user/', { username: 'plain', password: 'password123' });
    const found = await root.get<{ data: Array<{ id: number }> }>('/api/user/search?keyword=plain');
    userId = found.body.data[0]!.id;
  });
  afterAll(() => t.close());

  const huge = 'x'.repeat(200_000);
  const cases: Array<[string, string, string, unknown, RegExp, number?]> = [
    ['bad JSON', 'POST', '/api/user/', '{"username": "a",', /not valid JSON/],
    ['JSON array body', 'POST', '/api/user/', '[1,2,3]', /must be a JSON object/],
    ['JSON string body', 'PUT', '/api/user/', '"hello"', /must be a JSON object/],
    ['null body', 'PUT', '/api/option/', 'null', /must be a JSON object/],
    ['empty body', 'POST', '/api/user/manage', '', /not valid JSON|must be a JSON object/],
    [
      'username of wrong type',
      'POST',
      '/api/user/',
      { username: 42, password: 'password123' },
      /username must be a string/,
    ],
    [
      'password of wrong type',
      'POST',
      '/api/user/',
      { username: 'zed', password: ['a'] },
      /password must be a string/,
    ],
    ['huge username', 'POST', '/api/user/', { username: huge, password: 'password123' }, /at most 12/],
    ['huge password', 'PUT', '/api/user/self', { password: huge }, /at most 20/],
    ['huge display name', 'PUT', '/api/user/', { id: '{user}', display_name: huge }, /at most 20/],
    ['negative quota', 'PUT', '/api/user/', { id: '{user}', quota: -100 }, /cannot be negative/],
    ['fractional quota', 'PUT', '/api/user/', { id: '{user}', quota: 1.5 }, /whole number/],
    ['quota as string', 'PUT', '/api/user/', { id: '{user}', quota: '100' }, /quota must be a number/],
    [
      'quota beyond safe range',
      'PUT',
      '/api/user/',
      { id: '{user}', quota: 1e300 },
      /too large|whole number/,
    ],
    [
      'display name of wrong type',
      'PUT',
      '/api/user/',
      { id: '{user}', display_name: 42 },
      /display name must be a string/,
    ],
    [
      'display name of wrong type on create',
      'POST',
      '/api/user/',
      { username: 'dn', password: 'password123', display_name: ['x'] },
      /display name must be a string/,
    ],
    [
      'display name of wrong type on self update',
      'PUT',
      '/api/user/self',
      { display_name: true },
      /display name must be a string/,
    ],
    ['empty group', 'PUT', '/api/user/', { id: '{user}', group: '' }, /group cannot be empty/],
    ['group over 32 characters', 'PUT', '/api/user/', { id: '{user}', group: 'g'.repeat(33) }, /at most 32/],
    ['missing id', 'PUT', '/api/user/', { quota: 5 }, /id is required/],
    ['zero id', 'PUT', '/api/user/', { id: 0, quota: 5 }, /id is required/],
    ['id of wrong type', 'PUT', '/api/user/', { id: 'abc', quota: 5 }, /id is required/],
    ['unknown id', 'PUT', '/api/user/', { id: 987654, quota: 5 }, /User does not exist/, 200],
    ['non-numeric id in path', 'GET', '/api/user/abc', undefined, /Invalid id/],
    ['negative id in path', 'DELETE', '/api/user/-1', undefined, /Invalid id/],
    ['huge id in path', 'GET', '/api/user/99999999999999999999', undefined, /Invalid id/],
    [
      'unknown manage action',
      'POST',
      '/api/user/manage',
      { username: 'plain', action: 'nuke' },
      /action must be one of/,
    ],
    ['missing manage username', 'POST', '/api/user/manage', { action: 'disable' }, /username is required/],
    ['option without key', 'PUT', '/api/option/', { value: 'x' }, /key must be a string/],
    ['option with an empty key', 'PUT', '/api/option/', { key: '', value: 'x' }, /key is required/],
    [
      'option with an unknown key',
      'PUT',
      '/api/option/',
      { key: 'NoSuchOption', value: 'x' },
      /Unknown option/,
    ],
    [
      'option value as boolean',
      'PUT',
      '/api/option/',
      { key: 'RegisterEnabled', value: false },
      /value must be a string/,
    ],
    ['negative top-up', 'POST', '/api/topup', { user_id: '{user}', quota: -1 }, /greater than 0/, 200],
    [
      'top-up of wrong type',
      'POST',
      '/api/topup',
      { user_id: '{user}', quota: 'lots' },
      /quota must be a number/,
    ],
    [
      'top-up key over 64 characters',
      'POST',
      '/api/user/topup',
      { key: 'k'.repeat(65) },
      /This top-up code is not valid/,
    ],
    ['top-up key of wrong type', 'POST', '/api/user/topup', { key: 12345 }, /top-up code/],
    ['login without password', 'POST', '/api/user/login', { username: 'root' }, /password is required/],
    [
      'login with object username',
      'POST',
      '/api/user/login',
      { username: { $ne: 1 }, password: 'x' },
      /username/,
    ],
  ];

  it.each(cases)(
    '%s: answers the envelope and changes nothing',
    async (_name, method, url, body, message, status) => {
      const before = await snapshot(t);
      const payload =
        typeof body === 'string'
          ? body
          : body === undefined
            ? undefined
            : JSON.parse(JSON.stringify(body).replace('"{user}"', String(userId)));
      const response = await root.request(method, url, payload);
      expect(response.status).toBe(status ?? 200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body).toMatchObject({ success: false });
      expect((response.body as { message: string }).message).toMatch(message);
      expect(await snapshot(t)).toEqual(before);
    },
  );

  it('a body with the wrong content type is refused clearly', async () => {
    const response = await root.request('POST', '/api/user/', 'username=a&password=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false });
    expect((response.body as { message: string }).message).toMatch(/Content-Type: application\/json/);
  });

  it('a body over the size limit is refused clearly', async () => {
    const response = await root.request(
      'PUT',
      '/api/option/',
      JSON.stringify({ key: 'Notice', value: 'y'.repeat(17 * 1024 * 1024) }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: false,
      code: 'body_too_large',
      message: 'The request body is too large: at most 4 MB is accepted here',
      params: { limit: 4 },
    });
  });
});

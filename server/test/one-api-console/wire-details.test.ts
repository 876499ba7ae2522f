import { LogType } from '@switchyard/contract/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLog } from '../../src/db/repos/logs';
import { startTestApp, type TestApp } from '../harness';
import { accepted, OneApiConsole } from './browser';

/** What one-api's clients and scripts read and send beyond its console's screens. */
describe('one-api wire details: dashboard field names, empty JSON bodies, the own access token', () => {
  let t: TestApp;
  let root: OneApiConsole;

  beforeAll(async () => {
    t = await startTestApp();
    root = new OneApiConsole(t.baseUrl);
    await root.login('root', '123456');
  });
  afterAll(() => t.close());

  /** A call as a script makes it: the session cookie, `Content-Type: application/json`, `body` as given. */
  async function raw(method: string, path: string, body: string) {
    const response = await fetch(t.baseUrl + path, {
      method,
      headers: { cookie: root.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('answers /api/user/dashboard with one-api’s field names', async () => {
    const now = Math.floor(Date.now() / 1000);
    const day = new Date(now * 1000).toISOString().slice(0, 10);
    for (const quota of [100, 250]) {
      await insertLog(t.db, {
        user_id: 1,
        username: 'root',
        type: LogType.consume,
        created_at: now,
        model_name: 'gpt-4o-mini',
        quota,
        prompt_tokens: 10,
        completion_tokens: 5,
        content: 'seed',
      });
    }
    const rows = accepted<unknown[]>(await root.get(`/api/user/dashboard?start_timestamp=${now - 60}`));
    expect(rows).toEqual([
      {
        Day: day,
        ModelName: 'gpt-4o-mini',
        RequestCount: 2,
        Quota: 350,
        PromptTokens: 20,
        CompletionTokens: 10,
      },
    ]);
  });

  it('takes an empty body sent as JSON as no body; a broken one is still refused', async () => {
    const created = accepted(
      await root.post('/api/token/', { name: 'scripted', remain_quota: 0, unlimited_quota: true }),
    );
    expect(created).toBeDefined();
    const [token] = accepted<Array<{ id: number }>>(await root.get('/api/token/?p=0'));
    expect(await raw('DELETE', `/api/token/${token!.id}`, '')).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true }),
    });
    expect((await raw('DELETE', '/api/channel/disabled', '')).body).toMatchObject({ success: true });
    // A route that needs a body says what is missing, not that the JSON is broken.
    expect((await raw('POST', '/api/token/', '')).body).toMatchObject({
      success: false,
      code: 'body_not_object',
    });
    expect((await raw('POST', '/api/token/', '  \n')).body).toMatchObject({
      success: false,
      code: 'body_not_object',
    });
    expect(await raw('POST', '/api/token/', '{"name": ')).toEqual({
      status: 200,
      body: expect.objectContaining({ success: false, code: 'body_not_json' }),
    });
    expect((await raw('POST', '/api/token/', '{"__proto__": {"x": 1}}')).body).toMatchObject({
      success: false,
    });
  });

  it('gives the caller their own access token on /api/user/self, never in lists', async () => {
    const me = new OneApiConsole(t.baseUrl);
    accepted(await root.post('/api/user/', { username: 'selfie', password: 'password123' }));
    await me.login('selfie', 'password123');
    const row = await t.db.kysely
      .selectFrom('users')
      .select('access_token')
      .where('username', '=', 'selfie')
      .executeTakeFirstOrThrow();
    expect(accepted<{ access_token: string }>(await me.get('/api/user/self')).access_token).toBe(
      row.access_token ?? '',
    );
    const token = accepted<string>(await me.get('/api/user/token'));
    expect(accepted<{ access_token: string }>(await me.get('/api/user/self')).access_token).toBe(token);
    // one-api's personal settings save the whole self row back, the token in it: nothing changes.
    const self = accepted<Record<string, unknown>>(await me.get('/api/user/self'));
    accepted(await me.put('/api/user/self', { ...self, password: '' }));
    expect(accepted<{ access_token: string }>(await me.get('/api/user/self')).access_token).toBe(token);
    // Others see it empty: the user list, search, one user, and the login answer.
    const listed = accepted<Array<{ username: string; access_token: string }>>(
      await root.get('/api/user/?p=0'),
    );
    expect(listed.find((user) => user.username === 'selfie')?.access_token).toBe('');
    const found = accepted<Array<{ id: number; access_token: string }>>(
      await root.get('/api/user/search?keyword=selfie'),
    );
    expect(found[0]?.access_token).toBe('');
    expect(accepted<{ access_token: string }>(await root.get(`/api/user/${found[0]!.id}`)).access_token).toBe(
      '',
    );
    const login = await new OneApiConsole(t.baseUrl).post('/api/user/login', {
      username: 'selfie',
      password: 'password123',
    });
    expect((login.body.data as { access_token: string }).access_token).toBe('');
  });
});

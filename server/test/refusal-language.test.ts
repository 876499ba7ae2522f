import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestApp, type TestApp } from './harness';

const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
const en = { 'accept-language': 'en-US,en;q=0.9' };

describe('refusals carry a code and follow Accept-Language', () => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
  });
  afterAll(() => t.close());

  it('words a business refusal in Chinese for zh, in English for en or no header', async () => {
    const wrong = { username: 'root', password: 'not-the-password' };
    const chinese = await t.client().request('POST', '/api/user/login', wrong, zh);
    expect(chinese.body).toEqual({
      success: false,
      message: '用户名或密码错误，或用户已被封禁',
      code: 'login_failed',
    });
    const english = await t.client().request('POST', '/api/user/login', wrong, en);
    expect(english.body).toEqual({
      success: false,
      message: 'Wrong username or password, or the user has been banned',
      code: 'login_failed',
    });
    const unsaid = await t.client().post('/api/user/login', wrong);
    expect(unsaid.body.message).toBe('Wrong username or password, or the user has been banned');
  });

  it('carries the params a message is filled with', async () => {
    const body = { key: 'NoSuchOption', value: '1' };
    const chinese = await root.request('PUT', '/api/option/', body, zh);
    expect(chinese.status).toBe(200);
    expect(chinese.body).toMatchObject({
      success: false,
      message: '未知的配置项“NoSuchOption”',
      code: 'option_unknown',
      params: { key: 'NoSuchOption' },
    });
    const english = await root.request('PUT', '/api/option/', body, en);
    expect(english.body.message).toBe('Unknown option "NoSuchOption"');
  });

  it('codes a contract field check by its rule, keeping the English wording of the schema', async () => {
    const huge = { username: 'x'.repeat(50), password: 'password123' };
    const chinese = await root.request('POST', '/api/user/', huge, zh);
    expect(chinese.status).toBe(200);
    expect(chinese.body).toMatchObject({
      message: 'username 最多 12 个字符',
      code: 'field_too_long',
      params: { field: 'username', max: 12 },
    });
    const english = await root.request('POST', '/api/user/', huge, en);
    expect(english.body).toMatchObject({
      code: 'field_too_long',
      message: expect.stringMatching(/at most 12/),
    });
  });

  it('codes the framework refusals, the guard and the unknown route', async () => {
    const badJson = await root.request('POST', '/api/user/', '{"username": "a",', zh);
    expect(badJson.body).toMatchObject({ message: '请求体不是合法的 JSON', code: 'body_not_json' });
    const anonymous = await t.client().get('/api/user/self', zh);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ message: '未登录，且未提供访问令牌', code: 'not_logged_in' });
    const missing = await root.get('/api/no-such-route', zh);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      message: '不存在的 API 路由：GET /api/no-such-route',
      code: 'api_route_not_found',
      params: { method: 'GET', path: '/api/no-such-route' },
    });
  });

  it('reads the first of zh and en by q order', async () => {
    const missing = (header: string) => root.get('/api/no-such-route', { 'accept-language': header });
    expect((await missing('fr, en;q=0.5, zh;q=0.8')).body.message).toMatch(/^不存在的 API 路由/);
    expect((await missing('zh;q=0.3, en-GB;q=0.7')).body.message).toMatch(/^No such API route/);
  });
});

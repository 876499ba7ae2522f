import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, sendJson } from './fakes/http-fake';
import { fakeGitHub, fakeLark } from './fakes/oauth-providers';
import { Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

const GITHUB_SECRET = 'gh-client-secret-value';
const LARK_SECRET = 'lark-client-secret-value';
const WECHAT_TOKEN = 'wechat-server-token-value';

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

async function stateOf(client: Client): Promise<string> {
  const answer = await client.get<EnvelopeBody<string>>('/api/oauth/state');
  expect(answer.body.success).toBe(true);
  return answer.body.data ?? '';
}

const self = async (client: Client) => (await client.get<EnvelopeBody<User>>('/api/user/self')).body.data;

describe('sign-in with GitHub, Lark and WeChat', () => {
  let t: TestApp;
  let root: Client;
  const github = fakeGitHub('gh-client-id', GITHUB_SECRET);
  const lark = fakeLark('cli_lark', LARK_SECRET);
  const wechatIds = new Map<string, string>();
  const wechat = new HttpFake((request, res) => {
    const url = new URL(request.url, 'http://fake');
    if (url.pathname !== '/api/wechat/user') return sendJson(res, 404, {});
    if (request.headers.authorization !== WECHAT_TOKEN) {
      return sendJson(res, 200, { success: false, message: 'invalid token' });
    }
    sendJson(res, 200, {
      success: true,
      message: '',
      data: wechatIds.get(url.searchParams.get('code') ?? '') ?? '',
    });
  });

  beforeAll(async () => {
    await Promise.all([github.fake.start(), lark.fake.start(), wechat.start()]);
    t = await startTestApp({
      env: {
        GITHUB_OAUTH_URL: github.fake.url,
        GITHUB_API_URL: github.fake.url,
        LARK_API_URL: lark.fake.url,
        LARK_PASSPORT_URL: lark.fake.url,
      },
    });
    root = await t.root();
    await setOptions(root, {
      ServerAddress: 'https://gateway.example.com',
      GitHubClientId: 'gh-client-id',
      GitHubClientSecret: GITHUB_SECRET,
      GitHubOAuthEnabled: 'true',
      LarkClientId: 'cli_lark',
      LarkClientSecret: LARK_SECRET,
      WeChatServerAddress: `${wechat.url}/`,
      WeChatServerToken: WECHAT_TOKEN,
      WeChatAuthEnabled: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([github.fake.close(), lark.fake.close(), wechat.close()]);
  });

  it('hands out a 12-character state kept in the session', async () => {
    const visitor = t.client();
    const state = await stateOf(visitor);
    expect(state).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(visitor.cookie).toContain('session=');
    expect(await stateOf(visitor)).not.toBe(state);
    // A visitor's session is no login.
    expect((await visitor.get('/api/user/self')).status).toBe(401);
  });

  describe('GitHub', () => {
    it('signs up a new user on the first sign-in and finds the same user on the next', async () => {
      const visitor = t.client();
      const state = await stateOf(visitor);
      const code = github.issueCode({ id: 'octocat', name: 'The Octocat', email: 'octo@example.com' });
      const first = await visitor.get<EnvelopeBody<User>>(`/api/oauth/github?code=${code}&state=${state}`);
      expect(first.body).toMatchObject({
        success: true,
        data: { display_name: 'The Octocat', email: 'octo@example.com', github_id: 'octocat', role: 1 },
      });
      expect(first.body.data?.username).toMatch(/^github_\d+$/);
      expect(await self(visitor)).toMatchObject({ id: first.body.data?.id, github_id: 'octocat' });

      const token = github.fake.requests.find((request) => request.url === '/login/oauth/access_token');
      expect(token?.json).toMatchObject({ client_id: 'gh-client-id', client_secret: GITHUB_SECRET, code });
      expect(first.text).not.toContain(GITHUB_SECRET);

      const again = t.client();
      const second = await again.get<EnvelopeBody<User>>(
        `/api/oauth/github?code=${github.issueCode({ id: 'octocat' })}&state=${await stateOf(again)}`,
      );
      expect(second.body).toMatchObject({ success: true, data: { id: first.body.data?.id } });
    });

    it('falls back to "GitHub User" when the account has no name', async () => {
      const visitor = t.client();
      const state = await stateOf(visitor);
      const answer = await visitor.get<EnvelopeBody<User>>(
        `/api/oauth/github?code=${github.issueCode({ id: 'nameless' })}&state=${state}`,
      );
      expect(answer.body).toMatchObject({ success: true, data: { display_name: 'GitHub User', email: '' } });
    });

    it('binds the account to a signed-in user and answers "bind"', async () => {
      const alice = await t.user('alice');
      const bound = await alice.get(
        `/api/oauth/github?code=${github.issueCode({ id: 'alice-gh' })}&state=${await stateOf(alice)}`,
      );
      expect(bound.body).toEqual({ success: true, message: 'bind' });
      expect(await self(alice)).toMatchObject({ username: 'alice', github_id: 'alice-gh' });
      // Still signed in as alice afterwards.
      expect((await alice.get('/api/user/self')).body.success).toBe(true);

      const bob = await t.user('bob');
      const taken = await bob.get(
        `/api/oauth/github?code=${github.issueCode({ id: 'alice-gh' })}&state=${await stateOf(bob)}`,
      );
      expect(taken.body).toMatchObject({ success: false });
      expect(taken.body.message).toMatch(/GitHub account is already bound/);
      expect((await self(bob))?.github_id).toBe('');
    });

    it('a session ended by logout binds nothing: its holder signs in as someone else', async () => {
      const grace = await t.user('grace');
      const copied = new Client(t.baseUrl);
      copied.cookie = grace.cookie;
      await grace.get('/api/user/logout');

      const state = await stateOf(copied);
      const answer = await copied.get<EnvelopeBody<User>>(
        `/api/oauth/github?code=${github.issueCode({ id: 'intruder-gh' })}&state=${state}`,
      );
      expect(answer.body).toMatchObject({ success: true, data: { github_id: 'intruder-gh' } });
      expect(answer.body.data?.username).not.toBe('grace');
      await grace.login('grace', 'password123');
      expect((await self(grace))?.github_id).toBe('');
    });

    it('refuses a missing or different state with 403', async () => {
      const visitor = t.client();
      const code = github.issueCode({ id: 'stateless' });
      const none = await visitor.get(`/api/oauth/github?code=${code}&state=whatever`);
      expect(none.status).toBe(403);
      expect(none.body).toMatchObject({ success: false });
      expect(none.body.message).toMatch(/state/i);
      await stateOf(visitor);
      const other = await visitor.get(`/api/oauth/github?code=${code}&state=abcdefabcdef`);
      expect(other.status).toBe(403);
      const empty = await visitor.get(`/api/oauth/github?code=${code}&state=`);
      expect(empty.status).toBe(403);
    });

    it('explains a code GitHub does not accept', async () => {
      const visitor = t.client();
      const answer = await visitor.get(`/api/oauth/github?code=forged&state=${await stateOf(visitor)}`);
      expect(answer.body).toMatchObject({ success: false });
      expect(answer.body.message).toMatch(/GitHub did not accept the sign-in code/);
    });

    it('gives up on a GitHub that does not answer within 5 seconds', async () => {
      const visitor = t.client();
      const started = Date.now();
      const answer = await visitor.get(`/api/oauth/github?code=hang&state=${await stateOf(visitor)}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: false });
      expect(answer.body.message).toMatch(/GitHub did not answer within 5 seconds/);
      expect(Date.now() - started).toBeLessThan(9_000);
    });

    it('signs nobody up while registration is closed', async () => {
      await setOptions(root, { RegisterEnabled: 'false' });
      try {
        const visitor = t.client();
        const answer = await visitor.get(
          `/api/oauth/github?code=${github.issueCode({ id: 'latecomer' })}&state=${await stateOf(visitor)}`,
        );
        expect(answer.body).toMatchObject({ success: false });
        expect(answer.body.message).toMatch(/closed new registrations/);
        expect(visitor.cookie).not.toBe('');
        expect((await visitor.get('/api/user/self')).status).toBe(401);
      } finally {
        await setOptions(root, { RegisterEnabled: 'true' });
      }
    });

    it('refuses a disabled user', async () => {
      const visitor = t.client();
      const created = await visitor.get<EnvelopeBody<User>>(
        `/api/oauth/github?code=${github.issueCode({ id: 'troublemaker' })}&state=${await stateOf(visitor)}`,
      );
      const username = created.body.data?.username ?? '';
      expect((await root.post('/api/user/manage', { username, action: 'disable' })).body.success).toBe(true);
      const later = t.client();
      const answer = await later.get(
        `/api/oauth/github?code=${github.issueCode({ id: 'troublemaker' })}&state=${await stateOf(later)}`,
      );
      expect(answer.body).toMatchObject({ success: false });
      expect(answer.body.message).toMatch(/banned/);
      expect((await later.get('/api/user/self')).status).toBe(401);
    });

    it('is off until the administrator enables it', async () => {
      await setOptions(root, { GitHubOAuthEnabled: 'false' });
      try {
        const visitor = t.client();
        const answer = await visitor.get(
          `/api/oauth/github?code=${github.issueCode({ id: 'octocat' })}&state=${await stateOf(visitor)}`,
        );
        expect(answer.body).toMatchObject({ success: false });
        expect(answer.body.message).toMatch(/not enabled sign-in with GitHub/);
      } finally {
        await setOptions(root, { GitHubOAuthEnabled: 'true' });
      }
    });
  });

  describe('Lark', () => {
    it('signs up on the first sign-in and finds the user next time', async () => {
      const visitor = t.client();
      const state = await stateOf(visitor);
      const code = lark.issueCode({ id: 'ou_lark_1', name: '飞书用户' });
      const first = await visitor.get<EnvelopeBody<User>>(`/api/oauth/lark?code=${code}&state=${state}`);
      expect(first.body).toMatchObject({
        success: true,
        data: { display_name: '飞书用户', lark_id: 'ou_lark_1' },
      });
      expect(first.body.data?.username).toMatch(/^lark_\d+$/);
      const token = lark.fake.requests.find((request) => request.url === '/open-apis/authen/v2/oauth/token');
      expect(token?.json).toMatchObject({
        grant_type: 'authorization_code',
        client_id: 'cli_lark',
        client_secret: LARK_SECRET,
        code,
        redirect_uri: 'https://gateway.example.com/oauth/lark',
      });

      const again = t.client();
      const second = await again.get<EnvelopeBody<User>>(
        `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_lark_1' })}&state=${await stateOf(again)}`,
      );
      expect(second.body).toMatchObject({ success: true, data: { id: first.body.data?.id } });
    });

    it('binds to a signed-in user, once', async () => {
      const carol = await t.user('carol');
      const bound = await carol.get(
        `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_carol' })}&state=${await stateOf(carol)}`,
      );
      expect(bound.body).toEqual({ success: true, message: 'bind' });
      expect((await self(carol))?.lark_id).toBe('ou_carol');
      const dave = await t.user('dave');
      const taken = await dave.get(
        `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_carol' })}&state=${await stateOf(dave)}`,
      );
      expect(taken.body.message).toMatch(/Lark account is already bound/);
    });

    it('checks the state, registration and bans like GitHub', async () => {
      const visitor = t.client();
      expect((await visitor.get(`/api/oauth/lark?code=x&state=nope`)).status).toBe(403);

      await setOptions(root, { RegisterEnabled: 'false' });
      try {
        const closed = await visitor.get(
          `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_new' })}&state=${await stateOf(visitor)}`,
        );
        expect(closed.body.message).toMatch(/closed new registrations/);
      } finally {
        await setOptions(root, { RegisterEnabled: 'true' });
      }

      const created = await visitor.get<EnvelopeBody<User>>(
        `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_banned' })}&state=${await stateOf(visitor)}`,
      );
      await root.post('/api/user/manage', { username: created.body.data?.username, action: 'disable' });
      const later = t.client();
      const banned = await later.get(
        `/api/oauth/lark?code=${lark.issueCode({ id: 'ou_banned' })}&state=${await stateOf(later)}`,
      );
      expect(banned.body).toMatchObject({ success: false });
      expect(banned.body.message).toMatch(/banned/);
    });
  });

  describe('WeChat', () => {
    it('signs up and signs in with the code from the official account', async () => {
      wechatIds.set('111111', 'wx-open-1');
      wechatIds.set('222222', 'wx-open-1');
      const visitor = t.client();
      const first = await visitor.get<EnvelopeBody<User>>('/api/oauth/wechat?code=111111');
      expect(first.body).toMatchObject({
        success: true,
        data: { display_name: 'WeChat User', wechat_id: 'wx-open-1' },
      });
      expect(first.body.data?.username).toMatch(/^wechat_\d+$/);
      expect(wechat.last().headers.authorization).toBe(WECHAT_TOKEN);
      expect((await visitor.get('/api/user/self')).body.success).toBe(true);
      const second = await t.client().get<EnvelopeBody<User>>('/api/oauth/wechat?code=222222');
      expect(second.body.data?.id).toBe(first.body.data?.id);
    });

    it('refuses a wrong code and a missing one', async () => {
      const wrong = await t.client().get('/api/oauth/wechat?code=999999');
      expect(wrong.body).toMatchObject({ success: false });
      expect(wrong.body.message).toMatch(/wrong or has expired/);
      const missing = await t.client().get('/api/oauth/wechat');
      expect(missing.status).toBe(200);
      expect(missing.body.success).toBe(false);
    });

    it('binds WeChat to the signed-in user and refuses an id bound elsewhere', async () => {
      wechatIds.set('333333', 'wx-erin');
      const erin = await t.user('erin');
      expect((await erin.get('/api/oauth/wechat/bind?code=333333')).body).toMatchObject({ success: true });
      expect((await self(erin))?.wechat_id).toBe('wx-erin');
      const frank = await t.user('frank');
      const taken = await frank.get('/api/oauth/wechat/bind?code=333333');
      expect(taken.body.message).toMatch(/WeChat account is already bound/);
      expect((await t.client().get('/api/oauth/wechat/bind?code=333333')).status).toBe(401);
    });

    it('is off until the administrator enables it', async () => {
      await setOptions(root, { WeChatAuthEnabled: 'false' });
      try {
        const answer = await t.client().get('/api/oauth/wechat?code=111111');
        expect(answer.body.message).toMatch(/not enabled sign-in with WeChat/);
      } finally {
        await setOptions(root, { WeChatAuthEnabled: 'true' });
      }
    });
  });
});

import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, sendJson } from './fakes/http-fake';
import { fakeOidcProvider, type OidcAccount } from './fakes/oidc-provider';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

const CLIENT = { id: 'switchyard-oidc', secret: 'oidc-client-secret-value' };
const GATEWAY = 'https://gateway.example.com';

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

const self = async (client: Client) => (await client.get<EnvelopeBody<User>>('/api/user/self')).body.data;

describe('sign-in with OpenID Connect', () => {
  let t: TestApp;
  let root: Client;
  let provider: Awaited<ReturnType<typeof fakeOidcProvider>>;
  /** Issuers that fail in every way: under /down a closed connection, /slow never answers, … */
  const broken = new HttpFake((request, res) => {
    const path = new URL(request.url, 'http://fake').pathname;
    if (path === '/slow/.well-known/openid-configuration') return;
    if (path === '/down/.well-known/openid-configuration') return void res.destroy();
    if (path === '/html/.well-known/openid-configuration') {
      res.writeHead(500, { 'content-type': 'text/html' });
      return void res.end('<h1>oops</h1>');
    }
    const issuer = `${broken.url}${path.replace('/.well-known/openid-configuration', '')}`;
    const base = {
      authorization_endpoint: `${issuer}/a`,
      token_endpoint: `${issuer}/t`,
      jwks_uri: `${issuer}/k`,
    };
    if (path === '/elsewhere/.well-known/openid-configuration') {
      return sendJson(res, 200, { ...base, issuer: 'https://evil.example.com' });
    }
    if (path === '/symmetric/.well-known/openid-configuration') {
      return sendJson(res, 200, {
        ...base,
        issuer,
        id_token_signing_alg_values_supported: ['HS256', 'none'],
      });
    }
    sendJson(res, 404, {});
  });

  /** Start as `client`, let the provider sign in `account`, and answer the callback's query. */
  async function authorize(client: Client, account: OidcAccount): Promise<{ code: string; state: string }> {
    const started = await client.get<EnvelopeBody<string>>('/api/oauth/oidc/start');
    expect(started.body.success, started.body.message).toBe(true);
    provider.signInAs(account);
    const redirect = await fetch(started.body.data ?? '', { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(`${GATEWAY}/oauth/oidc`);
    return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
  }

  const callback = (client: Client, { code, state }: { code: string; state: string }) =>
    client.get<EnvelopeBody<User>>(`/api/oauth/oidc?code=${code}&state=${state}`);

  const signIn = async (client: Client, account: OidcAccount) =>
    callback(client, await authorize(client, account));

  beforeAll(async () => {
    provider = await fakeOidcProvider(CLIENT);
    await Promise.all([provider.fake.start(), broken.start()]);
    t = await startTestApp();
    root = await t.root();
    await setOptions(root, {
      ServerAddress: GATEWAY,
      OidcIssuer: provider.fake.url,
      OidcClientId: CLIENT.id,
      OidcClientSecret: CLIENT.secret,
      OidcDisplayName: 'Company SSO',
      OidcEnabled: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([provider.fake.close(), broken.close()]);
  });

  it('keeps the client secret from everyone but the token endpoint, and names the button', async () => {
    const options = await root.get<EnvelopeBody<Array<{ key: string; value: string }>>>('/api/option/');
    expect(options.body.data?.map((option) => option.key)).not.toContain('OidcClientSecret');
    expect(options.text).not.toContain(CLIENT.secret);
    const audit = await root.get('/api/audit/?p=0');
    expect(audit.text).not.toContain(CLIENT.secret);
    const status = await t.client().get<EnvelopeBody<Record<string, unknown>>>('/api/status');
    expect(status.body.data).toMatchObject({ oidc: true, oidc_name: 'Company SSO' });
    expect(status.text).not.toContain(CLIENT.secret);
  });

  it('asks with state, nonce and PKCE, signs up a new user, and finds the same user next time', async () => {
    const visitor = t.client();
    const started = await visitor.get<EnvelopeBody<string>>('/api/oauth/oidc/start');
    const asked = new URL(started.body.data ?? '').searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: `${GATEWAY}/oauth/oidc`,
      scope: 'openid profile email',
      code_challenge_method: 'S256',
    });
    expect(asked.get('state')).toMatch(/^[0-9a-f]{32}$/);
    expect(asked.get('nonce')).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);

    const account = {
      sub: 'user-1',
      claims: { name: 'Ada Lovelace', email: 'ada@example.com', email_verified: true },
    };
    const first = await signIn(visitor, account);
    expect(first.body).toMatchObject({
      success: true,
      data: { display_name: 'Ada Lovelace', email: 'ada@example.com', oidc_subject: 'user-1', role: 1 },
    });
    expect(first.body.data?.username).toMatch(/^oidc_\d+$/);
    expect(await self(visitor)).toMatchObject({ id: first.body.data?.id, oidc_subject: 'user-1' });
    // client_secret_basic, as the discovery allows it; the verifier went to the token endpoint only.
    const sent = provider.state.lastToken;
    expect(sent?.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
    );
    expect(sent?.form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expect(first.text).not.toContain(CLIENT.secret);

    const again = await signIn(t.client(), { sub: 'user-1' });
    expect(again.body).toMatchObject({ success: true, data: { id: first.body.data?.id } });
  });

  it('sends the secret in the form when the provider only takes client_secret_post', async () => {
    const original = provider;
    const postOnly = await fakeOidcProvider(CLIENT);
    postOnly.state.discovery = { token_endpoint_auth_methods_supported: ['client_secret_post'] };
    await postOnly.fake.start();
    provider = postOnly;
    await setOptions(root, { OidcIssuer: postOnly.fake.url });
    try {
      const answer = await signIn(t.client(), { sub: 'post-user' });
      expect(answer.body).toMatchObject({ success: true, data: { oidc_subject: 'post-user' } });
      expect(postOnly.state.lastToken?.authorization).toBe('');
      expect(postOnly.state.lastToken?.form.get('client_secret')).toBe(CLIENT.secret);
    } finally {
      provider = original;
      await setOptions(root, { OidcIssuer: original.fake.url });
      await postOnly.fake.close();
    }
  });

  it('takes the e-mail address only when the provider says it is verified', async () => {
    for (const [sub, verified] of [
      ['unverified-1', false],
      ['unverified-2', 'true'],
      ['unverified-3', undefined],
    ] as const) {
      const answer = await signIn(t.client(), {
        sub,
        claims: { email: `${sub}@example.com`, email_verified: verified },
      });
      expect(answer.body).toMatchObject({ success: true, data: { oidc_subject: sub, email: '' } });
      expect(answer.body.data?.display_name).toBe('OIDC User');
    }
  });

  it('binds the account to a signed-in user, and never to a second one', async () => {
    const alice = await t.user('alice');
    const bound = await signIn(alice, {
      sub: 'alice-sub',
      claims: { email: 'x@example.com', email_verified: true },
    });
    expect(bound.body).toEqual({ success: true, message: 'bind' });
    expect(await self(alice)).toMatchObject({ username: 'alice', oidc_subject: 'alice-sub', email: '' });

    const bob = await t.user('bob');
    const taken = await signIn(bob, { sub: 'alice-sub' });
    expect(taken.body).toMatchObject({ success: false });
    expect(taken.body.message).toMatch(/OpenID Connect account is already bound/);
    expect((await self(bob))?.oidc_subject).toBe('');
    // The subject signs in as alice.
    const visitor = t.client();
    expect((await signIn(visitor, { sub: 'alice-sub' })).body.data?.username).toBe('alice');
  });

  it('signs nobody up while registration is closed', async () => {
    await setOptions(root, { RegisterEnabled: 'false' });
    try {
      const visitor = t.client();
      const answer = await signIn(visitor, { sub: 'latecomer' });
      expect(answer.body.message).toMatch(/closed new registrations/);
      expect((await visitor.get('/api/user/self')).status).toBe(401);
    } finally {
      await setOptions(root, { RegisterEnabled: 'true' });
    }
  });

  describe('refuses an ID token', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: Array<[string, OidcAccount, string]> = [
      ['signed with another key', { sub: 'forged', forgeSignature: true }, 'signature'],
      ['for another client', { sub: 'other-aud', claims: { aud: 'someone-else' } }, 'aud'],
      ['from another issuer', { sub: 'other-iss', claims: { iss: 'https://evil.example.com' } }, 'iss'],
      ['that has expired', { sub: 'expired', claims: { iat: now() - 7200, exp: now() - 3600 } }, 'exp'],
      ['with another nonce', { sub: 'replayed-token', claims: { nonce: 'not-the-nonce' } }, 'nonce'],
      ['without a nonce', { sub: 'no-nonce', claims: { nonce: undefined } }, 'nonce'],
      ['shared with another audience', { sub: 'azp', claims: { aud: [CLIENT.id, 'other'] } }, 'azp'],
      ['with an overlong subject', { sub: 'x'.repeat(256) }, 'sub'],
    ];
    it.each(cases)('%s', async (_name, account, check) => {
      const visitor = t.client();
      const answer = await signIn(visitor, account);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ success: false, code: 'oidc_id_token_invalid', params: { check } });
      expect((await visitor.get('/api/user/self')).status).toBe(401);
      const found = await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('oidc_subject', '=', account.sub)
        .execute();
      expect(found).toEqual([]);
    });
  });

  it('records sign-ins and refused sign-ins in the audit log', async () => {
    for (const action of ['auth.login', 'auth.login_failed']) {
      const found = await root.get<EnvelopeBody<unknown[]>>(`/api/audit/?action=${action}`);
      expect(JSON.stringify(found.body.data)).toContain('"method":"oidc"');
    }
  });

  it('redeems a state once: a replayed callback, an old cookie or another browser gets 403', async () => {
    const visitor = t.client();
    const query = await authorize(visitor, { sub: 'replay' });
    const cookieBefore = visitor.cookie;
    expect((await callback(visitor, query)).body.success).toBe(true);
    // The same callback again, in the session it now has and with the cookie it had before.
    expect((await callback(visitor, query)).status).toBe(403);
    visitor.cookie = cookieBefore;
    const replayed = await callback(visitor, query);
    expect(replayed.status).toBe(403);
    expect(replayed.body.message).toMatch(/state/);
    // A state handed to one browser is no good in another.
    const other = t.client();
    const stolen = await authorize(t.client(), { sub: 'stolen' });
    await other.get('/api/oauth/oidc/start');
    expect((await callback(other, stolen)).status).toBe(403);
  });

  it('trades no code for a session whose PKCE verifier does not match (an injected code)', async () => {
    const victim = t.client();
    const attacker = t.client();
    // The attacker's code, minted for the attacker's challenge, with the victim's state.
    const minted = await authorize(attacker, { sub: 'attacker' });
    const own = await authorize(victim, { sub: 'victim' });
    const answer = await callback(victim, { code: minted.code, state: own.state });
    expect(answer.body).toMatchObject({ success: false, code: 'oauth_code_refused_because' });
    expect(answer.body.message).toMatch(
      /Company SSO did not accept the sign-in code: PKCE verification failed/,
    );
    expect((await victim.get('/api/user/self')).status).toBe(401);
  });

  it('never shows the client secret a provider quotes back in its refusal', async () => {
    const visitor = t.client();
    const { state } = await authorize(visitor, { sub: 'echo' });
    const answer = await callback(visitor, { code: 'echo', state });
    expect(answer.body).toMatchObject({ success: false, code: 'oauth_code_refused_because' });
    expect(answer.body.message).toMatch(/bad code for \[redacted\]/);
    expect(answer.text).not.toContain(CLIENT.secret);
  });

  it('words the provider refusing the sign-in, and a callback without a sign-in under way', async () => {
    const visitor = t.client();
    const { state } = await authorize(visitor, { sub: 'denied' });
    const denied = await visitor.get(
      `/api/oauth/oidc?error=access_denied&error_description=User+said+no&state=${state}`,
    );
    expect(denied.body).toMatchObject({ success: false, code: 'oidc_sign_in_refused' });
    expect(denied.body.message).toMatch(/User said no/);
    const stranger = await t.client().get('/api/oauth/oidc?code=abc&state=def');
    expect(stranger.status).toBe(403);
  });

  it('answers a broken, slow or unreachable issuer with a clear refusal', async () => {
    const expectations: Array<[string, string | RegExp]> = [
      [
        '/html',
        /discovery document at .*\/html\/\.well-known\/openid-configuration could not be read \(HTTP 500\)/,
      ],
      ['/elsewhere', /names the issuer https:\/\/evil\.example\.com, not/],
      ['/symmetric', /signs ID tokens only with HS256, none/],
      ['/down', /Could not reach the identity provider/],
      ['/slow', /did not answer within 5 seconds/],
    ];
    try {
      for (const [path, message] of expectations) {
        await setOptions(root, { OidcIssuer: `${broken.url}${path}` });
        const answer = await t.client().get('/api/oauth/oidc/start');
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toMatchObject({ success: false });
        expect(answer.body.message).toMatch(message);
      }
    } finally {
      await setOptions(root, { OidcIssuer: provider.fake.url });
    }
  });

  it('checks the options: an issuer is a plain URL, and sign-in is on only once set up', async () => {
    for (const issuer of ['not a url', 'ftp://idp.example.com', 'https://idp.example.com/?tenant=1']) {
      const answer = await root.put('/api/option/', { key: 'OidcIssuer', value: issuer });
      expect(answer.body).toMatchObject({ success: false, code: 'option_bad_issuer' });
    }
    await setOptions(root, { OidcEnabled: 'false', OidcClientId: '' });
    try {
      const refused = await root.put('/api/option/', { key: 'OidcEnabled', value: 'true' });
      expect(refused.body).toMatchObject({ success: false, code: 'oidc_login_needs_issuer' });
      const off = await t.client().get('/api/oauth/oidc/start');
      expect(off.body).toMatchObject({ success: false, code: 'oidc_login_disabled' });
      const status = await t.client().get<EnvelopeBody<Record<string, unknown>>>('/api/status');
      expect(status.body.data?.oidc).toBe(false);
    } finally {
      await setOptions(root, { OidcClientId: CLIENT.id, OidcEnabled: 'true' });
    }
  });
});

import type { AuditEntry } from '@switchyard/contract/audit';
import type {
  Passkey,
  TwoFactorEnabled,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@switchyard/contract/two-factor';
import type { User } from '@switchyard/contract/users';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGitHub } from './fakes/oauth-providers';
import { SoftAuthenticator } from './fakes/passkey-authenticator';
import {
  Client,
  type EnvelopeBody,
  type JsonResponse,
  logCapture,
  startTestApp,
  type TestApp,
} from './harness';

const STEP_MS = 30_000;

/** A client that keeps every answer it read, to look for secrets in them. */
class WatchedClient extends Client {
  constructor(
    baseUrl: string,
    private readonly seen: string[],
  ) {
    super(baseUrl);
  }
  override async request<T = EnvelopeBody>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<JsonResponse<T>> {
    const response = await super.request<T>(method, path, body, headers);
    this.seen.push(`${method} ${path} ${response.text}`);
    return response;
  }
}

describe('two-factor sign-in', () => {
  let t: TestApp;
  let root: Client;
  let now = Date.now();
  const seen: string[] = [];
  const secrets: string[] = [];
  const log = logCapture();
  const github = fakeGitHub('gh-client-id', 'gh-client-secret');

  const client = () => new WatchedClient(t.baseUrl, seen);
  const codeOf = (secret: string, at = now) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });
  const signIn = async (username: string, password = 'password123') => {
    const browser = client();
    await browser.login(username, password);
    return browser;
  };
  /** A user with two-factor sign-in on: its client (signed in), secret and recovery codes. */
  const enrolled = async (username: string) => {
    await t.user(username);
    const browser = await signIn(username);
    const setup = await browser.post<EnvelopeBody<TwoFactorSetup>>('/api/user/2fa/setup');
    const secret = setup.body.data?.secret ?? '';
    secrets.push(secret);
    const enabled = await browser.post<EnvelopeBody<TwoFactorEnabled>>('/api/user/2fa/enable', {
      code: codeOf(secret),
    });
    expect(enabled.body.success).toBe(true);
    // The step just used is spent: later sign-ins take the next step's code.
    now += STEP_MS;
    return { browser, secret, recovery: enabled.body.data?.recovery_codes ?? [] };
  };
  const auditOf = async (action: string) =>
    (await root.get<EnvelopeBody<{ items: AuditEntry[] } | AuditEntry[]>>(`/api/audit/?action=${action}`))
      .body.data;

  beforeAll(async () => {
    await github.fake.start();
    t = await startTestApp({
      clock: () => now,
      logger: log.logger,
      env: { GITHUB_OAUTH_URL: github.fake.url, GITHUB_API_URL: github.fake.url },
    });
    root = await t.root();
    for (const [key, value] of Object.entries({
      GitHubClientId: 'gh-client-id',
      GitHubClientSecret: 'gh-client-secret',
      GitHubOAuthEnabled: 'true',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await t?.close();
    await github.fake.close();
  });

  it('enrols only once a code from the app confirms the secret, and shows the secret only then', async () => {
    await t.user('alice');
    const alice = await signIn('alice');
    expect((await alice.get<EnvelopeBody<TwoFactorStatus>>('/api/user/2fa')).body.data).toEqual({
      enabled: false,
      required: false,
      recovery_codes_left: 0,
    });
    expect((await alice.post('/api/user/2fa/enable', { code: '123456' })).body.code).toBe(
      'two_factor_setup_missing',
    );

    const setup = (await alice.post<EnvelopeBody<TwoFactorSetup>>('/api/user/2fa/setup')).body.data;
    const secret = setup?.secret ?? '';
    secrets.push(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup?.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Switchyard:alice\?/);
    expect(setup?.otpauth_uri).toContain(`secret=${secret}`);
    expect(setup?.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    // Stored encrypted: the row does not hold it.
    const row = await t.db.kysely.selectFrom('two_factor').selectAll().executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);
    expect(row.enabled).toBeFalsy();

    const wrong = await alice.post('/api/user/2fa/enable', { code: codeOf(secret, now - 10 * STEP_MS) });
    expect(wrong.body).toMatchObject({ success: false, code: 'two_factor_code_invalid' });
    // Not on yet: the password alone still signs in.
    expect((await signIn('alice')).cookie).toContain('session=');

    const enabled = await alice.post<EnvelopeBody<TwoFactorEnabled>>('/api/user/2fa/enable', {
      code: codeOf(secret),
    });
    expect(enabled.body.data?.recovery_codes).toHaveLength(10);
    expect(enabled.body.data?.recovery_codes[0]).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const status = await alice.get<EnvelopeBody<TwoFactorStatus>>('/api/user/2fa');
    expect(status.body.data).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    expect(status.text).not.toContain(secret);
    expect((await alice.post('/api/user/2fa/setup')).body.code).toBe('two_factor_already_enabled');
    const entries = JSON.stringify(await auditOf('user.two_factor_enable'));
    expect(entries).toContain('"target_name":"alice"');
  });

  it('signs in only after the second step; a code is taken once', async () => {
    const { secret } = await enrolled('bob');
    const browser = client();
    const first = await browser.post('/api/user/login', { username: 'bob', password: 'password123' });
    expect(first.body).toEqual({
      success: true,
      message: 'two_factor',
      data: { two_factor: true, passkey: false },
    });
    expect((await browser.get('/api/user/self')).status).toBe(401);

    // The code that confirmed the enrolment (the step before now) is spent.
    const spent = await browser.post('/api/user/login/2fa', { code: codeOf(secret, now - STEP_MS) });
    expect(spent.body.code).toBe('two_factor_code_invalid');
    const code = codeOf(secret);
    const second = await browser.post<EnvelopeBody<User>>('/api/user/login/2fa', { code });
    expect(second.body).toMatchObject({ success: true, data: { username: 'bob' } });
    expect((await browser.get<EnvelopeBody<User>>('/api/user/self')).body.data?.username).toBe('bob');

    // Replayed in another browser within its window: refused.
    const other = client();
    await other.post('/api/user/login', { username: 'bob', password: 'password123' });
    expect((await other.post('/api/user/login/2fa', { code })).body.code).toBe('two_factor_code_invalid');
    // A wrong password never reaches the second step.
    const wrong = await client().post('/api/user/login', { username: 'bob', password: 'nope-nope' });
    expect(wrong.body.code).toBe('login_failed');
    // No second step waiting: refused.
    expect((await client().post('/api/user/login/2fa', { code: codeOf(secret) })).body.code).toBe(
      'two_factor_not_pending',
    );
    // Signing out everywhere ends a second step still waiting too.
    const waiting = client();
    await waiting.post('/api/user/login', { username: 'bob', password: 'password123' });
    expect((await browser.post('/api/user/self/sessions/revoke')).body.success).toBe(true);
    now += STEP_MS;
    expect((await waiting.post('/api/user/login/2fa', { code: codeOf(secret) })).body.code).toBe(
      'two_factor_not_pending',
    );
    const logins = JSON.stringify(await auditOf('auth.login'));
    expect(logins).toContain('"method":"two_factor"');
  });

  it('takes each recovery code once, and audits its use', async () => {
    const { recovery } = await enrolled('carol');
    const code = recovery[3] ?? '';
    const browser = client();
    await browser.post('/api/user/login', { username: 'carol', password: 'password123' });
    const used = await browser.post('/api/user/login/2fa', { code: ` ${code.toLowerCase()} ` });
    expect(used.body.success).toBe(true);
    const status = await browser.get<EnvelopeBody<TwoFactorStatus>>('/api/user/2fa');
    expect(status.body.data?.recovery_codes_left).toBe(9);

    const again = client();
    await again.post('/api/user/login', { username: 'carol', password: 'password123' });
    expect((await again.post('/api/user/login/2fa', { code })).body.code).toBe('two_factor_code_invalid');
    const entries = JSON.stringify(await auditOf('auth.two_factor_recovery_code'));
    expect(entries).toContain('"actor_name":"carol"');
    expect(entries).not.toContain(code);

    // New codes for an old one: the old ones stop working.
    const renewed = await browser.post<EnvelopeBody<TwoFactorEnabled>>('/api/user/2fa/recovery_codes', {
      code: recovery[5],
    });
    expect(renewed.body.data?.recovery_codes).toHaveLength(10);
    expect(renewed.body.data?.recovery_codes).not.toContain(recovery[6]);
    const later = client();
    await later.post('/api/user/login', { username: 'carol', password: 'password123' });
    expect((await later.post('/api/user/login/2fa', { code: recovery[6] })).body.code).toBe(
      'two_factor_code_invalid',
    );
    expect(
      (await later.post('/api/user/login/2fa', { code: renewed.body.data?.recovery_codes[0] })).body.success,
    ).toBe(true);
    expect(JSON.stringify(await auditOf('user.two_factor_recovery_codes'))).toContain('"actor_name":"carol"');
  });

  it('refuses every code after five attempts in fifteen minutes, the right one too', async () => {
    const { secret } = await enrolled('dave');
    const browser = client();
    await browser.post('/api/user/login', { username: 'dave', password: 'password123' });
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await browser.post('/api/user/login/2fa', { code: '000000' });
      expect(wrong.body.code).toBe('two_factor_code_invalid');
    }
    const locked = await browser.post('/api/user/login/2fa', { code: codeOf(secret) });
    expect(locked.body).toMatchObject({ success: false, code: 'two_factor_too_many_attempts' });
    // Counted per user, not per browser.
    const other = client();
    await other.post('/api/user/login', { username: 'dave', password: 'password123' });
    expect((await other.post('/api/user/login/2fa', { code: codeOf(secret) })).body.code).toBe(
      'two_factor_too_many_attempts',
    );
    const failures = JSON.stringify(await auditOf('auth.login_failed'));
    expect(failures).toContain('"actor_name":"dave"');

    now += 15 * 60_000;
    const after = await other.post('/api/user/login/2fa', { code: codeOf(secret) });
    expect(after.body.success).toBe(true);
  });

  it('sends an OAuth sign-in to the second step as well', async () => {
    const { browser, secret } = await enrolled('erin');
    const state = async (c: Client) => (await c.get<EnvelopeBody<string>>('/api/oauth/state')).body.data;
    const bound = await browser.get(
      `/api/oauth/github?code=${github.issueCode({ id: 'erin-gh' })}&state=${await state(browser)}`,
    );
    expect(bound.body).toEqual({ success: true, message: 'bind' });

    const visitor = client();
    const answer = await visitor.get(
      `/api/oauth/github?code=${github.issueCode({ id: 'erin-gh' })}&state=${await state(visitor)}`,
    );
    expect(answer.body).toEqual({
      success: true,
      message: 'two_factor',
      data: { two_factor: true, passkey: false },
    });
    expect((await visitor.get('/api/user/self')).status).toBe(401);
    const second = await visitor.post<EnvelopeBody<User>>('/api/user/login/2fa', { code: codeOf(secret) });
    expect(second.body.data).toMatchObject({ username: 'erin', github_id: 'erin-gh' });
  });

  it('turns off with a current code by the user, or by root alone for a lost device', async () => {
    const frank = await enrolled('frank');
    expect((await frank.browser.post('/api/user/2fa/disable', { code: '111111' })).body.code).toBe(
      'two_factor_code_invalid',
    );
    const off = await frank.browser.post('/api/user/2fa/disable', { code: codeOf(frank.secret) });
    expect(off.body.success).toBe(true);
    expect((await signIn('frank')).cookie).toContain('session=');
    expect(JSON.stringify(await auditOf('user.two_factor_disable'))).toContain('"actor_name":"frank"');

    const grace = await enrolled('grace');
    const id = (await grace.browser.get<EnvelopeBody<User>>('/api/user/self')).body.data?.id;
    await t.user('helper', { role: 'admin' });
    const admin = await signIn('helper');
    expect((await admin.delete(`/api/user/${id}/2fa`)).body.code).toBe('role_too_low');
    expect((await admin.get(`/api/user/${id}/2fa`)).body.code).toBe('role_too_low');
    expect((await root.get(`/api/user/${id}/2fa`)).body.data).toEqual({ enabled: true });
    expect((await root.delete(`/api/user/${id}/2fa`)).body.success).toBe(true);
    expect((await root.delete(`/api/user/${id}/2fa`)).body.code).toBe('two_factor_not_enabled');
    expect((await signIn('grace')).cookie).toContain('session=');
    const resets = JSON.stringify(await auditOf('user.two_factor_reset'));
    expect(resets).toContain('"actor_name":"root"');
    expect(resets).toContain('"target_name":"grace"');
  });

  it('takes a passkey as the second step instead of a code, once per challenge', async () => {
    type Challenge = EnvelopeBody<{ challenge: string }>;
    const plain = await signIn('frank');
    expect((await plain.post('/api/user/2fa/passkeys/options')).body.code).toBe('two_factor_not_enabled');

    const { browser, secret } = await enrolled('henry');
    const origin = t.baseUrl;
    const key = new SoftAuthenticator('127.0.0.1', origin);
    const options = await browser.post<EnvelopeBody<{ challenge: string; rp: { id: string } }>>(
      '/api/user/2fa/passkeys/options',
    );
    expect(options.body.data?.rp.id).toBe('127.0.0.1');
    const registration = key.register({ challenge: options.body.data?.challenge ?? '' });
    const added = await browser.post<EnvelopeBody<Passkey>>('/api/user/2fa/passkeys', {
      name: 'Laptop',
      credential: registration,
    });
    expect(added.body.data).toMatchObject({ id: key.id, name: 'Laptop' });
    // The challenge is spent: the same answer again is refused.
    const again = await browser.post('/api/user/2fa/passkeys', { name: 'Again', credential: registration });
    expect(again.body.code).toBe('passkey_challenge_missing');
    const listed = await browser.get<EnvelopeBody<Passkey[]>>('/api/user/2fa/passkeys');
    expect(listed.body.data?.map((passkey) => passkey.name)).toEqual(['Laptop']);
    expect(listed.text).not.toContain('public_key');

    const visitor = client();
    const first = await visitor.post('/api/user/login', { username: 'henry', password: 'password123' });
    expect(first.body.data).toEqual({ two_factor: true, passkey: true });
    // Before the step's challenge: nothing to sign.
    const early = await visitor.post('/api/user/login/2fa/passkey', {
      credential: key.sign({ challenge: 'x' }),
    });
    expect(early.body.code).toBe('passkey_challenge_missing');
    const challenge = (await visitor.post<Challenge>('/api/user/login/2fa/passkey/options')).body.data;
    const forged = await visitor.post('/api/user/login/2fa/passkey', {
      credential: key.sign({ challenge: challenge?.challenge ?? '' }, 'https://phishing.example'),
    });
    expect(forged.body.code).toBe('passkey_invalid');
    expect((await visitor.get('/api/user/self')).status).toBe(401);

    const fresh = (await visitor.post<Challenge>('/api/user/login/2fa/passkey/options')).body.data;
    const answer = key.sign({ challenge: fresh?.challenge ?? '' });
    const signedIn = await visitor.post<EnvelopeBody<User>>('/api/user/login/2fa/passkey', {
      credential: answer,
    });
    expect(signedIn.body.data?.username).toBe('henry');
    expect(JSON.stringify(await auditOf('auth.login'))).toContain('"method":"passkey"');

    // Replayed in another sign-in: its challenge is another.
    const replay = client();
    await replay.post('/api/user/login', { username: 'henry', password: 'password123' });
    await replay.post('/api/user/login/2fa/passkey/options');
    expect((await replay.post('/api/user/login/2fa/passkey', { credential: answer })).body.code).toBe(
      'passkey_invalid',
    );
    // Another user's passkey does not sign henry in.
    const stranger = new SoftAuthenticator('127.0.0.1', origin);
    const other = (await replay.post<Challenge>('/api/user/login/2fa/passkey/options')).body.data;
    const foreign = await replay.post('/api/user/login/2fa/passkey', {
      credential: stranger.sign({ challenge: other?.challenge ?? '' }),
    });
    expect(foreign.body.code).toBe('passkey_invalid');

    expect((await browser.delete(`/api/user/2fa/passkeys/${key.id}`)).body.success).toBe(true);
    expect((await browser.delete(`/api/user/2fa/passkeys/${key.id}`)).body.code).toBe('passkey_not_found');
    expect(JSON.stringify(await auditOf('user.passkey_add'))).toContain('"actor_name":"henry"');
    expect(JSON.stringify(await auditOf('user.passkey_remove'))).toContain('"actor_name":"henry"');

    // Turning two-factor sign-in off takes the passkeys with it.
    const second = await browser.post<EnvelopeBody<{ challenge: string }>>('/api/user/2fa/passkeys/options');
    await browser.post('/api/user/2fa/passkeys', {
      credential: new SoftAuthenticator('127.0.0.1', origin).register({
        challenge: second.body.data?.challenge ?? '',
      }),
    });
    now += STEP_MS;
    expect((await browser.post('/api/user/2fa/disable', { code: codeOf(secret) })).body.success).toBe(true);
    expect(await t.db.kysely.selectFrom('two_factor_passkeys').selectAll().execute()).toEqual([]);
    for (const body of [{}, { credential: {} }, { credential: { ...answer, id: 'x'.repeat(5000) } }]) {
      const refused = await client().post('/api/user/login/2fa/passkey', body);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.success).toBe(false);
    }
  });

  it('answers malformed codes with a clear refusal, never a 500', async () => {
    for (const body of [
      {},
      { code: 42 },
      { code: 'x'.repeat(100_000) },
      { code: '' },
      { code: ['123456'] },
    ]) {
      const answer = await client().post('/api/user/login/2fa', body);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.success).toBe(false);
    }
    const forged = client();
    forged.cookie = 'session=not-a-real-cookie';
    expect((await forged.post('/api/user/login/2fa', { code: '123456' })).body.code).toBe(
      'two_factor_not_pending',
    );
  });

  it('makes administrators enrol first when root requires it; access tokens are unaffected', async () => {
    await t.user('boss', { role: 'admin' });
    const boss = await signIn('boss');
    const token = (await boss.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    const rootToken = (await root.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    expect(
      (await root.put('/api/option/', { key: 'TwoFactorRequiredForAdmins', value: 'true' })).body.success,
    ).toBe(true);

    const refused = await boss.get('/api/channel/');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('two_factor_enrolment_required');
    expect((await boss.get<EnvelopeBody<User>>('/api/user/self')).body.data?.username).toBe('boss');
    expect((await boss.get<EnvelopeBody<TwoFactorStatus>>('/api/user/2fa')).body.data).toMatchObject({
      enabled: false,
      required: true,
    });
    // A common user is not concerned.
    expect((await (await signIn('frank')).get('/api/token/')).body.success).toBe(true);
    const byToken = client();
    byToken.authorization = token;
    expect((await byToken.get('/api/channel/')).body.success).toBe(true);

    const setup = await boss.post<EnvelopeBody<TwoFactorSetup>>('/api/user/2fa/setup');
    const secret = setup.body.data?.secret ?? '';
    secrets.push(secret);
    expect((await boss.post('/api/user/2fa/enable', { code: codeOf(secret) })).body.success).toBe(true);
    expect((await boss.get('/api/channel/')).body.success).toBe(true);

    const rootByToken = client();
    rootByToken.authorization = rootToken;
    await rootByToken.put('/api/option/', { key: 'TwoFactorRequiredForAdmins', value: 'false' });
  });

  it('never lets a secret out: answers after enrolment, audit rows, the log', async () => {
    const rows = JSON.stringify(await t.db.kysely.selectFrom('audit_logs').selectAll().execute());
    const answers = seen.filter((text) => !text.startsWith('POST /api/user/2fa/setup '));
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) {
      expect(secret).not.toBe('');
      expect(rows).not.toContain(secret);
      expect(log.text()).not.toContain(secret);
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });
});

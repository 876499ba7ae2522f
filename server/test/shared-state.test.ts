import { randomBytes } from 'node:crypto';
import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGitHub } from './fakes/oauth-providers';
import { MailCatcher } from './fakes/smtp';
import { Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

const REDIS = { REDIS_CONN_STRING: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
const GITHUB_SECRET = 'gh-client-secret-value';
// Codes live in the shared Redis under the address: addresses of this run only.
const RUN = randomBytes(4).toString('hex');
const address = (name: string) => `${name}.${RUN}@example.com`;

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

/** The same browser (its session cookie) talking to another process behind the load balancer. */
function sameBrowserOn(app: TestApp, browser: Client): Client {
  const moved = new Client(app.baseUrl);
  moved.cookie = browser.cookie;
  return moved;
}

describe('codes, reset links and OAuth state work on every process sharing Redis', () => {
  const smtp = new MailCatcher();
  const github = fakeGitHub('gh-client-id', GITHUB_SECRET);
  let a: TestApp;
  let b: TestApp;

  const mailedCode = async (email: string): Promise<string> => {
    const seen = smtp.to(email).length;
    const sent = await a.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
    expect(sent.body).toMatchObject({ success: true });
    const mail = await smtp.next(email, seen);
    return /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(mail.body)?.[1] ?? '';
  };
  const mailedResetToken = async (email: string): Promise<string> => {
    const seen = smtp.to(email).length;
    const sent = await a.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    expect(sent.body).toMatchObject({ success: true });
    const href = /href="([^"]+)"/.exec((await smtp.next(email, seen)).body)?.[1]?.replace(/&amp;/g, '&');
    return new URL(href ?? '').searchParams.get('token') ?? '';
  };
  const userWithEmail = async (username: string, email: string): Promise<void> => {
    const root = await a.root();
    await a.user(username);
    const found = await root.get<EnvelopeBody<User[]>>(`/api/user/search?keyword=${username}`);
    const id = found.body.data?.[0]?.id ?? 0;
    expect((await root.put('/api/user/', { id, email })).body.success).toBe(true);
  };

  beforeAll(async () => {
    await Promise.all([smtp.start(), github.fake.start()]);
    const env = { ...REDIS, GITHUB_OAUTH_URL: github.fake.url, GITHUB_API_URL: github.fake.url };
    a = await startTestApp({ env });
    await setOptions(await a.root(), {
      ServerAddress: 'https://gateway.example.com',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
      EmailVerificationEnabled: 'true',
      GitHubClientId: 'gh-client-id',
      GitHubClientSecret: GITHUB_SECRET,
      GitHubOAuthEnabled: 'true',
    });
    // B starts after the options are saved, so it reads them at start.
    b = await startTestApp({ database: a.database, env });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await Promise.all([smtp.close(), github.fake.close()]);
  });

  it('a verification code mailed by one process registers on another, once', async () => {
    const email = address('hank');
    const code = await mailedCode(email);
    const register = (app: TestApp, username: string) =>
      app
        .client()
        .post('/api/user/register', { username, password: 'password123', email, verification_code: code });
    expect((await register(b, 'hank')).body).toMatchObject({ success: true });
    const hank = a.client();
    await hank.login('hank', 'password123');
    expect((await hank.get<EnvelopeBody<User>>('/api/user/self')).body.data?.email).toBe(email);

    const again = await register(a, 'hank2');
    expect(again.body).toMatchObject({ success: false });
    expect(again.body.message).toMatch(/wrong or has expired/);
  });

  it('a reset link mailed by one process works once on another and is refused on the first', async () => {
    const email = address('kate');
    await userWithEmail('kate', email);
    const token = await mailedResetToken(email);
    const reset = await b.client().post<EnvelopeBody<string>>('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    await a.client().login('kate', reset.body.data ?? '');

    const again = await a.client().post('/api/user/reset', { email, token });
    expect(again.body).toMatchObject({ success: false });
    expect(again.body.message).toMatch(/invalid or has expired/);
  });

  it('two clicks on one reset link, on two processes at once, reset only once', async () => {
    const email = address('lena');
    await userWithEmail('lena', email);
    const token = await mailedResetToken(email);
    const answers = await Promise.all(
      [a, b, a, b].map((app) => app.client().post<EnvelopeBody<string>>('/api/user/reset', { email, token })),
    );
    const successes = answers.filter((answer) => answer.body.success);
    expect(successes).toHaveLength(1);
    await b.client().login('lena', successes[0]?.body.data ?? '');
  });

  it('a wrong token does not spend the link', async () => {
    const email = address('mona');
    await userWithEmail('mona', email);
    const token = await mailedResetToken(email);
    const forged = await b.client().post('/api/user/reset', { email, token: 'f'.repeat(32) });
    expect(forged.body.message).toMatch(/invalid or has expired/);
    expect((await a.client().post('/api/user/reset', { email, token })).body.success).toBe(true);
  });

  it('an OAuth state issued by one process is accepted by another', async () => {
    const browser = a.client();
    const state = (await browser.get<EnvelopeBody<string>>('/api/oauth/state')).body.data ?? '';
    expect(state).toMatch(/^[0-9A-Za-z]{12}$/);
    const code = github.issueCode({ id: `octo-${RUN}`, name: 'The Octocat' });

    // The state belongs to the browser's session: without its cookie B refuses it.
    const stranger = await b.client().get(`/api/oauth/github?code=${code}&state=${state}`);
    expect(stranger.status).toBe(403);

    const signedIn = await sameBrowserOn(b, browser).get<EnvelopeBody<User>>(
      `/api/oauth/github?code=${code}&state=${state}`,
    );
    expect(signedIn.body).toMatchObject({ success: true, data: { github_id: `octo-${RUN}` } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, sendJson } from './fakes/http-fake';
import { type Client, startTestApp, type TestApp } from './harness';

const SECRET = 'turnstile-secret-value';
const GOOD = 'good-token';

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

describe('Turnstile bot check', () => {
  let t: TestApp;
  let root: Client;
  // Cloudflare's siteverify: a form post of secret, response and remoteip.
  const cloudflare = new HttpFake((request, res) => {
    const form = new URLSearchParams(request.body);
    sendJson(res, 200, {
      success: form.get('secret') === SECRET && form.get('response') === GOOD,
      'error-codes': [],
    });
  });
  const verifications = () => cloudflare.requests.length;

  beforeAll(async () => {
    await cloudflare.start();
    t = await startTestApp({ env: { TURNSTILE_VERIFY_URL: `${cloudflare.url}/turnstile/v0/siteverify` } });
    root = await t.root();
    await setOptions(root, {
      TurnstileSiteKey: 'site-key',
      TurnstileSecretKey: SECRET,
      TurnstileCheckEnabled: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await cloudflare.close();
  });

  it('asks registration for a token', async () => {
    const answer = await t.client().post('/api/user/register', { username: 'olga', password: 'password123' });
    expect(answer.body).toMatchObject({ success: false });
    expect(answer.body.message).toMatch(/Turnstile token is empty/);
  });

  it('refuses a token Cloudflare does not accept', async () => {
    const before = verifications();
    const answer = await t
      .client()
      .post('/api/user/register?turnstile=bad-token', { username: 'olga', password: 'password123' });
    expect(answer.body).toMatchObject({ success: false });
    expect(answer.body.message).toMatch(/bot check failed/);
    expect(verifications()).toBe(before + 1);
  });

  it('lets a verified visitor through, and remembers the check for the session', async () => {
    const visitor = t.client();
    const registered = await visitor.post(`/api/user/register?turnstile=${GOOD}`, {
      username: 'olga',
      password: 'password123',
    });
    expect(registered.body).toMatchObject({ success: true });
    const form = new URLSearchParams(cloudflare.last().body);
    expect(Object.fromEntries(form)).toEqual({ secret: SECRET, response: GOOD, remoteip: '127.0.0.1' });
    await t.client().login('olga', 'password123');

    // The same session needs no second token (Cloudflare tokens are single-use).
    const before = verifications();
    const again = await visitor.get('/api/reset_password?email=olga@example.com');
    expect(again.body.message).not.toMatch(/Turnstile/);
    expect(verifications()).toBe(before);
  });

  it('guards the verification and reset mails too', async () => {
    for (const path of ['/api/verification?email=p@example.com', '/api/reset_password?email=p@example.com']) {
      const answer = await t.client().get(path);
      expect(answer.body.message).toMatch(/Turnstile token is empty/);
      const passed = await t.client().get(`${path}&turnstile=${GOOD}`);
      expect(passed.body.message).not.toMatch(/Turnstile|bot check/);
    }
  });

  it('says so when Cloudflare cannot be reached', async () => {
    const other = await startTestApp({ env: { TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' } });
    try {
      const otherRoot = await other.root();
      await setOptions(otherRoot, { TurnstileSiteKey: 'site-key', TurnstileCheckEnabled: 'true' });
      const answer = await other.client().post(`/api/user/register?turnstile=${GOOD}`, {
        username: 'pete',
        password: 'password123',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toMatch(/Could not reach the Turnstile bot check/);
    } finally {
      await other.close();
    }
  });

  it('asks for nothing while the check is off', async () => {
    await setOptions(root, { TurnstileCheckEnabled: 'false' });
    const before = verifications();
    const answer = await t
      .client()
      .post('/api/user/register', { username: 'quinn', password: 'password123' });
    expect(answer.body).toMatchObject({ success: true });
    expect(verifications()).toBe(before);
  });
});

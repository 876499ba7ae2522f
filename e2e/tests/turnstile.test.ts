import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, settle, waitForPath } from '../src/console';
import { type FakeMailServer, type FakeServer, startFake, startFakeSmtp } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const SITE_KEY = 'e2e-site-key';
const SECRET = 'e2e-secret-key';
const GOOD_TOKEN = 'e2e-turnstile-token';

/**
 * Stands in for Cloudflare's api.js: a `turnstile` global whose widget shows a label and calls
 * back with a token only when the test says so (`window.__solveTurnstile(token)`).
 */
const FAKE_SCRIPT = `
window.turnstile = {
  render(element, options) {
    element.setAttribute('data-fake-turnstile', options.sitekey);
    element.textContent = 'Fake bot check';
    window.__solveTurnstile = (token) => options.callback(token);
    return 'fake-widget';
  },
  remove() {},
};`;

let siteverify: FakeServer;
/** The forms the gateway posted to the fake siteverify endpoint. */
const verified: URLSearchParams[] = [];
let smtp: FakeMailServer;
let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

/** A fresh visitor (its own session, so the server asks for the check again) with the fake widget script. */
async function visitorPage(viewport = DESKTOP): Promise<Page> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en', viewport });
  contexts.push(context);
  await context.route('https://challenges.cloudflare.com/turnstile/v0/api.js**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: FAKE_SCRIPT }),
  );
  return context.newPage();
}

/** Wait for the widget to be drawn with the site key from the server status. */
async function widgetShown(page: Page): Promise<void> {
  await page.locator(`[data-fake-turnstile="${SITE_KEY}"]`).waitFor();
  await page.waitForFunction(
    () => typeof (window as { __solveTurnstile?: unknown }).__solveTurnstile === 'function',
  );
}

const solve = (page: Page, token: string) =>
  page.evaluate(
    (value) => (window as unknown as { __solveTurnstile: (t: string) => void }).__solveTurnstile(value),
    token,
  );

/** Requests to `path` the page sends from now on. */
function watch(page: Page, path: string): URL[] {
  const seen: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === path) seen.push(url);
  });
  return seen;
}

beforeAll(async () => {
  siteverify = await startFake((_req, body, res) => {
    const form = new URLSearchParams(body);
    verified.push(form);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ success: form.get('secret') === SECRET && form.get('response') === GOOD_TOKEN }),
    );
  });
  smtp = await startFakeSmtp();
  server = await startServer({ TURNSTILE_VERIFY_URL: `${siteverify.url}/turnstile/v0/siteverify` });
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  const options: Record<string, string> = {
    ServerAddress: server.baseUrl,
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPFrom: 'noreply@example.com',
    TurnstileSiteKey: SITE_KEY,
    TurnstileSecretKey: SECRET,
    TurnstileCheckEnabled: 'true',
  };
  await admin.setOptions(options);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
  await smtp?.close();
  await siteverify?.close();
});

describe('Turnstile bot check on /register', () => {
  it('asks to wait until the widget has a token, then sends it as turnstile= (1280 px)', async () => {
    const page = await visitorPage(DESKTOP);
    const registers = watch(page, '/api/user/register');
    await page.goto('/register');
    await widgetShown(page);
    await page.locator('input[name="username"]').fill('botcheck');
    await page.locator('input[name="password"]').fill('botcheck-password');
    await page.locator('input[name="password2"]').fill('botcheck-password');
    await settle(page);
    await screenshot(page, 'flows/register-turnstile');

    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'Please retry in a few seconds, the check is running!');
    expect(registers).toEqual([]);

    await solve(page, GOOD_TOKEN);
    await page.locator('form button[type="submit"]').click();
    await waitForPath(page, '/login');
    await expectToast(page, 'Registration successful!');
    expect(registers.map((url) => url.searchParams.get('turnstile'))).toEqual([GOOD_TOKEN]);
    // The gateway asked the (fake) Cloudflare about that very token, with the secret key.
    expect(verified.at(-1)?.get('response')).toBe(GOOD_TOKEN);
    expect(verified.at(-1)?.get('secret')).toBe(SECRET);
    const login = await page.context().request.post('/api/user/login', {
      data: { username: 'botcheck', password: 'botcheck-password' },
    });
    expect(((await login.json()) as { success: boolean }).success).toBe(true);
  });
});

describe('Turnstile bot check on /reset', () => {
  it('asks to wait, then mails the reset link once the token is sent (375 px)', async () => {
    const email = 'turnstile-reset@example.com';
    await admin.createUser('tsreset', 'tsreset-password');
    const [user] = await admin.call<Array<{ id: number }>>('GET', '/api/user/search?keyword=tsreset');
    await admin.call('PUT', '/api/user/', { id: user?.id, email });

    const page = await visitorPage(PHONE);
    const resets = watch(page, '/api/reset_password');
    await page.goto('/reset');
    await widgetShown(page);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'Please retry in a few seconds, Turnstile is checking!');
    expect(resets).toEqual([]);
    // Refused before the check: the button does not start its countdown.
    expect(await page.locator('form button[type="submit"]').textContent()).not.toMatch(/Retry/);

    await solve(page, GOOD_TOKEN);
    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'Reset mail sent, please check your mailbox!');
    expect(resets).toHaveLength(1);
    expect(resets[0]?.searchParams.get('turnstile')).toBe(GOOD_TOKEN);
    expect(resets[0]?.searchParams.get('email')).toBe(email);
    const mail = await smtp.next(email);
    expect(mail.body).toContain('/user/reset?');
    await page.getByRole('button', { name: /Retry \((30|29|28)\)/ }).waitFor();
    await page.waitForFunction(() => document.querySelector('.mantine-Notification-root') === null);
    await settle(page);
    await screenshot(page, 'flows/reset-turnstile-sent-375');
  });

  it('shows the server’s refusal when the check fails', async () => {
    const page = await visitorPage(DESKTOP);
    await page.goto('/reset');
    await widgetShown(page);
    await page.locator('input[name="email"]').fill('nobody@example.com');
    await solve(page, 'forged-token');
    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/reset_password',
    );
    await page.locator('form button[type="submit"]').click();
    expect(new URL((await answer).url()).searchParams.get('turnstile')).toBe('forged-token');
    await expectToast(page, 'The Turnstile bot check failed; refresh the page and try again');
    expect(verified.at(-1)?.get('response')).toBe('forged-token');
  });
});

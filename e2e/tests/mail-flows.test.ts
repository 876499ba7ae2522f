import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, loginThroughForm, settle, waitForPath } from '../src/console';
import { type CapturedMail, type FakeMailServer, startFakeSmtp } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let smtp: FakeMailServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

async function visitorPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en', viewport });
  contexts.push(context);
  return context.newPage();
}

/** The signed-in user of the page's session, as the server sees it. */
async function self(page: Page): Promise<{ username: string; email: string }> {
  const answer = await page.context().request.get('/api/user/self');
  return ((await answer.json()) as { data: { username: string; email: string } }).data;
}

const codeIn = (mail: CapturedMail): string =>
  /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(mail.body)?.[1] ?? '';

const linkIn = (mail: CapturedMail): string =>
  /href="([^"]+)"/.exec(mail.body)?.[1]?.replace(/&amp;/g, '&') ?? '';

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  const options: Record<string, string> = {
    SystemName: 'Mail Gate',
    ServerAddress: server.baseUrl,
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPFrom: 'noreply@mail-gate.example.com',
    EmailVerificationEnabled: 'true',
  };
  await admin.setOptions(options);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await smtp?.close();
  await server?.stop();
});

describe('registration with the code from the verification mail', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`registers with the mailed code and logs in (${viewport.width} px)`, async () => {
      const username = `mail${viewport.width}`;
      const password = `${username}-password`;
      const email = `${username}@example.com`;
      const page = await visitorPage(viewport);
      await page.goto('/register');
      await page.locator('input[name="username"]').fill(username);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('input[name="password2"]').fill(password);
      await page.locator('input[name="email"]').fill(email);
      await page.getByRole('button', { name: 'Get code' }).click();
      await expectToast(page, 'Verification code sent, please check your mailbox!');

      const mail = await smtp.next(email);
      expect(mail.subject).toBe('Mail Gate email verification');
      expect(mail.from).toBe('noreply@mail-gate.example.com');
      const code = codeIn(mail);
      expect(code).toMatch(/^[0-9a-f]{6}$/);

      await page.locator('input[name="verification_code"]').fill(code);
      await settle(page);
      await screenshot(page, `flows/register-mailed-code-${viewport.width}`);
      const request = page.waitForRequest((r) => r.url().includes('/api/user/register'));
      await page.locator('form button[type="submit"]').click();
      const sent = JSON.parse((await request).postData() ?? '{}') as Record<string, string>;
      expect(sent).toMatchObject({ username, email, verification_code: code });
      await waitForPath(page, '/login');
      await expectToast(page, 'Registration successful!');

      await loginThroughForm(page, username, password);
      await waitForPath(page, '/token');
      expect(await self(page)).toMatchObject({ username, email });
    });
  }

  it('refuses a wrong code with the server message and keeps the visitor on /register', async () => {
    const email = 'wrong-code@example.com';
    const page = await visitorPage(DESKTOP);
    await page.goto('/register');
    await page.locator('input[name="username"]').fill('wrongcode');
    await page.locator('input[name="password"]').fill('wrongcode-password');
    await page.locator('input[name="password2"]').fill('wrongcode-password');
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: 'Get code' }).click();
    const code = codeIn(await smtp.next(email));
    await page.locator('input[name="verification_code"]').fill(code === '000000' ? '111111' : '000000');
    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'The verification code is wrong or has expired');
    expect(new URL(page.url()).pathname).toBe('/register');
  });
});

describe('password reset through the mailed link', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`resets the password from the link and logs in with the new one (${viewport.width} px)`, async () => {
      const username = `reset${viewport.width}`;
      const email = `${username}@example.com`;
      await admin.createUser(username, 'old-password');
      const [user] = await admin.call<Array<{ id: number }>>('GET', `/api/user/search?keyword=${username}`);
      await admin.call('PUT', '/api/user/', { id: user?.id, email });

      const page = await visitorPage(viewport);
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      await page.goto('/reset');
      await page.locator('input[name="email"]').fill(email);
      await page.locator('form button[type="submit"]').click();
      await expectToast(page, 'Reset mail sent, please check your mailbox!');

      const mail = await smtp.next(email);
      expect(mail.subject).toBe('Mail Gate password reset');
      const link = new URL(linkIn(mail));
      expect(`${link.origin}${link.pathname}`).toBe(`${server.baseUrl}/user/reset`);
      expect(link.searchParams.get('email')).toBe(email);
      expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{32}$/);

      await page.goto(link.toString());
      expect(await page.getByLabel('Email address').inputValue()).toBe(email);
      await page.getByRole('button', { name: 'Reset password' }).click();
      const shown = page.getByTestId('new-password');
      await shown.waitFor();
      const password = await shown.inputValue();
      expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
      await expectToast(page, `New password copied to clipboard: ${password}`);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
      const done = page.getByRole('button', { name: 'Password reset done' });
      expect(await done.isDisabled()).toBe(true);
      await settle(page);
      await screenshot(page, `flows/reset-confirmed-${viewport.width}`);

      await loginThroughForm(page, username, password);
      await waitForPath(page, '/token');
      expect((await self(page)).username).toBe(username);
      // The old password is gone, and the link worked once.
      const old = await page.context().request.post('/api/user/login', {
        data: { username, password: 'old-password' },
      });
      expect(((await old.json()) as { success: boolean }).success).toBe(false);
      const again = await page.context().request.post('/api/user/reset', {
        data: { email, token: link.searchParams.get('token') },
      });
      expect(((await again.json()) as { message: string }).message).toMatch(/invalid or has expired/);
    });
  }
});

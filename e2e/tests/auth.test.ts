import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, loginThroughForm, ROOT, signInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

async function visitor(language: 'en' | 'zh' = 'en'): Promise<BrowserContext> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language });
  contexts.push(context);
  return context;
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser('alice', 'alice-password');
  await admin.createUser('bob', 'bob-password');
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('route guard and login', () => {
  it('sends a visitor of a list route to /login and brings them back after login', async () => {
    const page = await (await visitor()).newPage();
    await page.goto('/log?from=guard');
    await waitForPath(page, '/login');
    await page.locator('input[name="username"]').fill('alice');
    await page.locator('input[name="password"]').fill('alice-password');
    await page.locator('form button[type="submit"]').click();
    await waitForPath(page, '/log');
    expect(new URL(page.url()).search).toBe('?from=guard');
    await expectToast(page, 'Login successful!');
  });

  it('lands a normal login on /token and stores the user', async () => {
    const page = await (await visitor()).newPage();
    await loginThroughForm(page, 'bob', 'bob-password');
    await waitForPath(page, '/token');
    await expectToast(page, 'Login successful!');
    const stored = await page.evaluate(() => window.localStorage.getItem('user'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ username: 'bob', role: 1 });
    await expect(page.locator('[data-testid="user-menu"]:visible').textContent()).resolves.toBe('bob');
  });

  it('sends the default root login to /user/edit with a warning to change the password', async () => {
    const page = await (await visitor()).newPage();
    await loginThroughForm(page, ROOT.username, ROOT.password);
    await waitForPath(page, '/user/edit');
    await expectToast(page, 'Please change the default password immediately!');
    await page.locator('input[name="username"]').waitFor();
    expect(await page.locator('input[name="username"]').inputValue()).toBe('root');
    // Editing oneself shows neither group nor quota.
    expect(await page.locator('input[name="quota"]').count()).toBe(0);
    await screenshot(page, 'flows/root-login-warning');
  });

  it('shows the server message for wrong credentials and requires both fields', async () => {
    const page = await (await visitor()).newPage();
    await page.goto('/login');
    await page.locator('form button[type="submit"]').click();
    await page.getByText('Please enter your username and password.').first().waitFor();
    await loginThroughForm(page, 'alice', 'not-her-password');
    await expectToast(page, 'Wrong username or password, or the user has been banned');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it("words the server's refusal in Chinese in the Chinese console", async () => {
    const page = await (await visitor('zh')).newPage();
    await loginThroughForm(page, 'alice', 'not-her-password');
    await expectToast(page, '用户名或密码错误，或用户已被封禁');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it("labels the password field's show/hide toggle in the console's language", async () => {
    for (const [language, label] of [
      ['zh', '显示或隐藏密码'],
      ['en', 'Show or hide the password'],
    ] as const) {
      const page = await (await visitor(language)).newPage();
      await page.goto('/login');
      await page.getByRole('button', { name: label }).waitFor({ state: 'attached' });
      expect(await page.getByRole('button', { name: 'Toggle password visibility' }).count()).toBe(0);
    }
  });

  it('logs out from the user dropdown, even while a call of the page is still on its way', async () => {
    const context = await visitor();
    await signInContext(context, 'alice', 'alice-password');
    const page = await context.newPage();
    // The key list is held until the logout is answered, so the server refuses it (401): that is the
    // logout's own doing, not an expired session, and must not reload the console to say so.
    const isList = (url: string) => new URL(url).pathname === '/api/token/';
    const loggedOut = page.waitForResponse((response) => response.url().includes('/api/user/logout'));
    await page.route(
      (url) => isList(url.href),
      async (route) => {
        await loggedOut;
        await route.continue();
      },
    );
    const listRefused = page.waitForResponse(
      (response) => isList(response.url()) && response.status() === 401,
    );
    const listAsked = page.waitForRequest((request) => isList(request.url()));
    await page.goto('/token');
    await listAsked;
    await page.locator('[data-testid="user-menu"]:visible').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await listRefused;
    await waitForPath(page, '/login');
    await expectToast(page, 'Logged out successfully!');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    const session = await context.request.get('/api/user/self');
    expect(session.status()).toBe(401);
  });
});

describe('401 handling', () => {
  it('sends a user whose session is gone to /login?expired=true with the expired message', async () => {
    const context = await visitor();
    await signInContext(context, 'alice', 'alice-password');
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto('/user/edit');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('expired') === 'true');
    await page.getByText('Not logged in or login expired, please log in again!').waitFor();
    await screenshot(page, 'flows/expired');
    // The stale user is forgotten: the header offers login again.
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    await page.locator('header a[href="/login"]:visible').waitFor();
  });
});

describe('sign out everywhere', () => {
  it("ends the account's sessions in every browser, and the other browser is sent to log in again", async () => {
    const laptop = await visitor();
    const phone = await visitor();
    await signInContext(laptop, 'bob', 'bob-password');
    await signInContext(phone, 'bob', 'bob-password');
    const page = await laptop.newPage();
    await page.goto('/setting');
    const card = page.getByTestId('sign-out-everywhere');
    await card.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign out of all sessions' }).click();
    await waitForPath(page, '/login');
    await expectToast(page, 'Signed out everywhere');

    const other = await phone.newPage();
    await other.goto('/token');
    await other.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('expired') === 'true');
    // A new sign-in works.
    await loginThroughForm(other, 'bob', 'bob-password');
    await waitForPath(other, '/token');
  });
});

describe('registration', () => {
  it('checks the password length and the repeated password before sending', async () => {
    const page = await (await visitor()).newPage();
    let registerCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/user/register')) registerCalls += 1;
    });
    await page.goto('/register');
    await page.locator('form button[type="submit"]').click();
    await page.getByText('Please enter a username and a password.').first().waitFor();

    await page.locator('input[name="username"]').fill('carol');
    await page.locator('input[name="password"]').fill('short');
    await page.locator('input[name="password2"]').fill('short');
    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'Password length must not be less than 8');

    await page.locator('input[name="password"]').fill('carol-password');
    await page.locator('input[name="password2"]').fill('carol-different');
    await page.locator('form button[type="submit"]').click();
    await expectToast(page, 'The two passwords entered are inconsistent');

    await page.locator('input[name="username"]').fill('a-name-longer-than-12');
    await page.locator('input[name="password2"]').fill('carol-password');
    await page.locator('form button[type="submit"]').click();
    await page.getByText('The username must be at most 12 characters.').waitFor();
    await screenshot(page, 'flows/register-validation');
    expect(registerCalls).toBe(0);
  });

  it('keeps the invitation code, registers and goes to /login, where the new account can sign in', async () => {
    const page = await (await visitor()).newPage();
    await page.goto('/register?aff=AbCd');
    await page.locator('input[name="username"]').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('aff'))).toBe('AbCd');
    await page.locator('input[name="username"]').fill('carol');
    await page.locator('input[name="password"]').fill('carol-password');
    await page.locator('input[name="password2"]').fill('carol-password');
    const request = page.waitForRequest((r) => r.url().includes('/api/user/register'));
    await page.locator('form button[type="submit"]').click();
    const body = JSON.parse((await request).postData() ?? '{}') as Record<string, string>;
    expect(body).toMatchObject({ username: 'carol', password: 'carol-password', aff_code: 'AbCd' });
    await waitForPath(page, '/login');
    await expectToast(page, 'Registration successful!');

    await loginThroughForm(page, 'carol', 'carol-password');
    await waitForPath(page, '/token');
  });

  it('shows the server refusal for a taken username', async () => {
    const page = await (await visitor()).newPage();
    await page.goto('/register');
    await page.locator('input[name="username"]').fill('alice');
    await page.locator('input[name="password"]').fill('another-password');
    await page.locator('input[name="password2"]').fill('another-password');
    await page.locator('form button[type="submit"]').click();
    await page.locator('.mantine-Notification-root').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
  });
});

describe('password reset screens', () => {
  it('counts down 30 s on the reset button after a request', async () => {
    const page = await (await visitor()).newPage();
    await page.goto('/reset');
    await page.locator('input[name="email"]').fill('nobody@example.com');
    await page.locator('form button[type="submit"]').click();
    await page.getByRole('button', { name: /Retry \(\d+\)/ }).waitFor();
    expect(await page.getByRole('button', { name: /Retry/ }).isDisabled()).toBe(true);
  });
});

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  type Language,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  type TestBrowser,
} from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInPage, waitForPath } from '../src/console';
import { type FakeOidc, startFakeOidc } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const CLIENT = { id: 'switchyard-e2e', secret: 'oidc-e2e-secret' };

const TEXT = {
  en: {
    button: 'Company SSO',
    loggedIn: 'Login successful!',
    bound: 'Bound successfully!',
    bind: 'Bind',
    system: 'System',
  },
  zh: {
    button: '公司统一登录',
    loggedIn: '登录成功！',
    bound: '绑定成功！',
    bind: '绑定',
    system: '系统设置',
  },
} as const;

let oidc: FakeOidc;
let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

interface SignedInUser {
  id: number;
  username: string;
  email: string;
  oidc_subject: string;
}

/** From the login page through the provider and back: answers the user the session belongs to. */
async function signInThroughProvider(page: Page, button: string, toast: string): Promise<SignedInUser> {
  await page.goto('/login');
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/oauth/oidc' && url.searchParams.has('code'));
  await waitForPath(page, '/');
  await expectToast(page, toast);
  const self = await page.context().request.get('/api/user/self');
  return ((await self.json()) as { data: SignedInUser }).data;
}

beforeAll(async () => {
  oidc = await startFakeOidc(CLIENT);
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.setOptions({
    ServerAddress: server.baseUrl,
    OidcIssuer: oidc.url,
    OidcClientId: CLIENT.id,
    OidcClientSecret: CLIENT.secret,
    OidcEnabled: 'true',
  });
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
  await oidc?.close();
});

describe.each(['en', 'zh'] as Language[])('OpenID Connect (%s)', (language) => {
  const text = TEXT[language];

  it('is set up in Settings > System, signs in at 1280 and 375 px, and binds from personal settings', async () => {
    await admin.setOptions({ OidcDisplayName: text.button });

    // The settings form, as root sees it.
    const settings = await signedInPage(
      chromium.browser,
      { baseUrl: server.baseUrl, language },
      ROOT,
      contexts,
    );
    await settings.goto('/setting?tab=system');
    const section = settings.getByTestId('section-oidc');
    await section.getByText(`${server.baseUrl}/oauth/oidc`).waitFor();
    expect(
      await section
        .locator('input')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
    ).toContain(oidc.url);
    // The secret never reaches the page.
    expect(await settings.content()).not.toContain(CLIENT.secret);
    for (const viewport of [DESKTOP, PHONE]) {
      await settings.setViewportSize(viewport);
      // The section's title just below the sticky header.
      await section.evaluate((element) =>
        window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 72),
      );
      await settle(settings);
      expect(await settings.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await screenshot(settings, `flows/oidc-settings-${language}-${viewport.width}`, { fullPage: false });
    }

    // A visitor signs in through the provider: a new user at 1280 px, the same one again at 375 px.
    const context = await newContext(chromium.browser, {
      baseUrl: server.baseUrl,
      language,
      viewport: DESKTOP,
    });
    contexts.push(context);
    const page = await context.newPage();
    oidc.account = {
      sub: `visitor-${language}`,
      name: `Visitor ${language}`,
      email: `visitor-${language}@example.com`,
    };
    const first = await signInThroughProvider(page, text.button, text.loggedIn);
    expect(first).toMatchObject({
      oidc_subject: `visitor-${language}`,
      email: `visitor-${language}@example.com`,
    });
    expect(first.username).toMatch(/^oidc_\d+$/);
    await page.locator('.mantine-Notification-root').waitFor({ state: 'detached' });
    await settle(page);
    await screenshot(page, `flows/oidc-signed-in-${language}-1280`);

    await context.clearCookies();
    await page.evaluate(() => window.localStorage.removeItem('user'));
    await page.setViewportSize(PHONE);
    await page.goto('/login');
    const button = page.getByRole('button', { name: text.button, exact: true });
    await button.waitFor();
    expect((await button.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await settle(page);
    await screenshot(page, `flows/oidc-login-${language}-375`);
    const second = await signInThroughProvider(page, text.button, text.loggedIn);
    expect(second.id).toBe(first.id);

    // A user with a password binds the provider's account from personal settings.
    const username = `bind${language}`;
    await admin.createUser(username, 'bind-password');
    const own = await signedInPage(
      chromium.browser,
      { baseUrl: server.baseUrl, language, viewport: PHONE },
      { username, password: 'bind-password' },
      contexts,
    );
    oidc.account = { sub: `bound-${language}`, name: 'Bound', email: 'bound@example.com' };
    await own.goto('/setting');
    const row = own.locator(`[data-binding="${text.button}"]`);
    await row.getByRole('button', { name: text.bind, exact: true }).click();
    await waitForPath(own, '/setting');
    await expectToast(own, text.bound);
    await row.getByText(`bound-${language}`).waitFor();
    await own.locator('.mantine-Notification-root').waitFor({ state: 'detached' });
    await settle(own);
    await screenshot(own, `flows/oidc-bound-${language}-375`);
  });
});

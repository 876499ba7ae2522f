import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
const contexts: BrowserContext[] = [];

async function visitorPage(): Promise<Page> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' });
  contexts.push(context);
  return context.newPage();
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const admin = new AdminApi(server.baseUrl);
  await admin.login();
  // Credentials first: the server refuses to enable a login method that is not configured.
  const options: Record<string, string> = {
    GitHubClientId: 'gh-client-id',
    GitHubClientSecret: 'gh-client-secret',
    LarkClientId: 'lark-app-id',
    LarkClientSecret: 'lark-app-secret',
    WeChatServerAddress: 'http://127.0.0.1:9',
    WeChatServerToken: 'wechat-token',
    WeChatAccountQRCodeImageURL: '/logo.png',
    SMTPServer: '127.0.0.1',
    SMTPAccount: 'mailer@example.com',
    SMTPFrom: 'mailer@example.com',
    SMTPToken: 'smtp-token',
    GitHubOAuthEnabled: 'true',
    WeChatAuthEnabled: 'true',
    EmailVerificationEnabled: 'true',
  };
  await admin.setOptions(options);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('social login buttons from the server status', () => {
  it('offers GitHub, WeChat and Lark when enabled, and WeChat opens the QR dialog', async () => {
    const page = await visitorPage();
    await page.goto('/login');
    for (const name of ['GitHub', 'WeChat', 'Lark'])
      await page.getByRole('button', { name, exact: true }).waitFor();
    await screenshot(page, 'flows/login-social');
    await page.getByRole('button', { name: 'WeChat', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in with WeChat' });
    await dialog.waitFor();
    expect(await dialog.locator('img').getAttribute('src')).toBe('/logo.png');
    await dialog.getByLabel('Verification code').waitFor();
    await screenshot(page, 'flows/login-wechat');
  });
});

describe('login with Lark', () => {
  it('fetches a state, then leaves for the Lark authorise page with the app id and that state', async () => {
    const page = await visitorPage();
    // The browser never reaches Feishu: the authorise page is answered here and its address kept.
    let authorize: URL | undefined;
    await page.route('https://open.feishu.cn/open-apis/authen/v1/index**', async (route) => {
      authorize = new URL(route.request().url());
      await route.fulfill({ contentType: 'text/html', body: '<h1>Lark authorise page</h1>' });
    });
    // The state the server handed out, read on its way to the page (the page leaves right after).
    let state = '';
    await page.route('**/api/oauth/state', async (route) => {
      const response = await route.fetch();
      state = ((await response.json()) as { data: string }).data;
      await route.fulfill({ response });
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Lark', exact: true }).click();
    await page.getByRole('heading', { name: 'Lark authorise page' }).waitFor();
    expect(state).not.toBe('');
    expect(authorize?.searchParams.get('app_id')).toBe('lark-app-id');
    expect(authorize?.searchParams.get('state')).toBe(state);
    expect(authorize?.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/oauth/lark`);
    expect(page.url()).toBe(authorize?.toString());
  });
});

describe('registration with email verification', () => {
  it('shows the email block and counts down 30 s after a code request', async () => {
    const page = await visitorPage();
    await page.goto('/register');
    await page.getByRole('button', { name: 'Get code' }).click();
    await expectToast(page, 'Please enter your email address first.');
    await page.locator('input[name="email"]').fill('new@example.com');
    await page.getByRole('button', { name: 'Get code' }).click();
    const retry = page.getByRole('button', { name: /Retry \((30|29|28)\)/ });
    await retry.waitFor();
    expect(await retry.isDisabled()).toBe(true);
    await page.locator('input[name="verification_code"]').waitFor();
    await screenshot(page, 'flows/register-email');
  });
});

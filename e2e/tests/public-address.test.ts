import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInContext } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

// While ServerAddress is unset, links are built on the console's own origin (one-api's console does
// the same), never on the http://localhost:3000 the server reports as the unset default.

const CAROL = { username: 'carol', password: 'carol-password' };
const TEXT = {
  en: {
    copy: 'Copy invitation link',
    copied: 'Invitation link copied to the clipboard!',
    unset: (origin: string) => `Unset: links use ${origin}`,
    github: 'Authorization callback URL:',
    lark: 'Redirect URL:',
  },
  zh: {
    copy: '复制邀请链接',
    copied: '邀请链接已复制到剪贴板！',
    unset: (origin: string) => `未设置：链接使用 ${origin}`,
    github: 'Authorization callback URL 填',
    lark: '重定向 URL 填',
  },
};

let server: RunningServer;
let chromium: TestBrowser;

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser(CAROL.username, CAROL.password);
  const status = (await (await fetch(`${server.baseUrl}/api/status`)).json()) as {
    data: { server_address: string };
  };
  // The premise: the server reports one-api's default, which is not where the console is.
  expect(status.data.server_address).toBe('http://localhost:3000');
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe.each(['en', 'zh'] as const)('with ServerAddress unset (%s)', (language) => {
  const text = TEXT[language];

  it('copies an invitation link on the address the console is at', async () => {
    const context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language }, CAROL);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await context.newPage();
    await page.goto('/setting');
    await page.getByRole('button', { name: text.copy }).click();
    await expectToast(page, text.copied);
    const code = ((await (await context.request.get('/api/user/aff')).json()) as { data: string }).data;
    const link = `${server.baseUrl}/register?aff=${code}`;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await page.locator('input[name="invite_link"]').inputValue()).toBe(link);
    await settle(page);
    await screenshot(page, `public-address/personal-${language}-1280`);
    await page.setViewportSize(PHONE);
    await settle(page);
    await screenshot(page, `public-address/personal-${language}-375`);
    await context.close();
  });

  it("shows the console's origin as the address in effect and in the OAuth callbacks", async () => {
    const context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language }, ROOT);
    const page = await context.newPage();
    await page.goto('/setting?tab=system');
    const address = page.getByTestId('section-server').locator('input[name="ServerAddress"]');
    await address.waitFor();
    expect(await address.getAttribute('placeholder')).toBe(text.unset(server.baseUrl));
    const hint = (section: string) => page.getByTestId(`section-${section}`).locator('code');
    expect(await hint('github').textContent()).toBe(`${server.baseUrl}/oauth/github`);
    expect(await hint('lark').textContent()).toBe(`${server.baseUrl}/oauth/lark`);
    await page.getByTestId('section-github').getByText(text.github).waitFor();
    await page.getByTestId('section-lark').getByText(text.lark).waitFor();
    expect(await page.content()).not.toContain('localhost:3000');
    await settle(page);
    await screenshot(page, `public-address/system-${language}-1280`);
    await page.setViewportSize(PHONE);
    await settle(page);
    await screenshot(page, `public-address/system-${language}-375`);
    await context.close();
  });
});

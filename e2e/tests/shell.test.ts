import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Language,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  type TestBrowser,
} from '../src/browser';
import { AdminApi, expectToast, loginThroughForm, ROOT, signInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

async function open(
  options: {
    language?: Language;
    viewport?: { width: number; height: number };
    user?: [string, string];
  } = {},
): Promise<Page> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en', ...options });
  contexts.push(context);
  if (options.user) await signInContext(context, ...options.user);
  return context.newPage();
}

const menuKeys = (page: Page) =>
  page
    .locator('header [data-nav]:visible')
    .evaluateAll((links) => links.map((l) => l.getAttribute('data-nav')));

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser('dora', 'dora-password');
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('header menu', () => {
  it('shows admins channel, redemption and user, and a user dropdown', async () => {
    const page = await open({ user: [ROOT.username, ROOT.password] });
    await page.goto('/token');
    await page.locator('header [data-nav="user"]').waitFor();
    expect(await menuKeys(page)).toEqual([
      'home',
      'channel',
      'token',
      'redemption',
      'topup',
      'user',
      'log',
      'video',
      'pricing',
      'playground',
      'audit',
      'setting',
      'about',
    ]);
    expect(await page.locator('[data-testid="user-menu"]:visible').textContent()).toBe('root');
  });

  it('hides the admin sections from a normal user', async () => {
    const page = await open({ user: ['dora', 'dora-password'] });
    await page.goto('/token');
    await page.locator('header [data-nav="token"]').waitFor();
    expect(await menuKeys(page)).toEqual([
      'home',
      'token',
      'topup',
      'log',
      'video',
      'pricing',
      'playground',
      'setting',
      'about',
    ]);
  });

  it("tells a normal user who opens an administrator's page that it needs one", async () => {
    const page = await open({ user: ['dora', 'dora-password'] });
    for (const path of ['/user', '/channel', '/redemption/add', '/user/edit/1']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'This page needs an administrator' }).waitFor();
      expect(await page.locator('main button, main table').count(), path).toBe(0);
    }
    await screenshot(page, 'flows/admin-only');
    // No refused call behind it: no error toast.
    expect(await page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts)).toEqual([]);
    // Their own profile is theirs to edit.
    await page.goto('/user/edit');
    await page.locator('input[name="display_name"]').waitFor();
  });

  it('offers login and register buttons to visitors', async () => {
    const page = await open();
    await page.goto('/');
    await page.locator('header a[href="/login"]:visible').waitFor();
    await page.locator('header a[href="/register"]:visible').waitFor();
    expect(await page.locator('[data-testid="user-menu"]').count()).toBe(0);
  });

  it('collapses the menu behind a burger at 375 px', async () => {
    const page = await open({ viewport: PHONE, user: [ROOT.username, ROOT.password] });
    await page.goto('/');
    await page.locator('main').getByText('System status').waitFor();
    expect(await page.locator('header [data-nav]:visible').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.locator('[data-testid="mobile-menu"] [data-nav="user"]').waitFor();
    await screenshot(page, 'flows/mobile-menu-open');
    await page.locator('[data-testid="mobile-menu"] [data-nav="user"]').click();
    await waitForPath(page, '/user');
    await page.locator('[data-testid="mobile-menu"]').waitFor({ state: 'detached' });
    // Phones get one card per user instead of the wide table.
    await page.locator('[data-testid="users-cards"] [data-username="root"]').waitFor();
    await screenshot(page, 'flows/users-phone');
  });

  it('shows toasts at the bottom centre on phones', async () => {
    const page = await open({ viewport: PHONE });
    await loginThroughForm(page, 'dora', 'wrong-password');
    await page
      .locator('.mantine-Notifications-root[data-position="bottom-center"] .mantine-Notification-root')
      .waitFor();
  });
});

describe('language', () => {
  it('switches between English and Chinese and remembers the choice', async () => {
    const page = await open({ language: 'en' });
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.reload();
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    expect(await page.locator('header [data-nav="home"]:visible').textContent()).toBe('首页');
    await page.getByRole('button', { name: '语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
  });

  it('defaults to the browser language', async () => {
    const context = await chromium.browser.newContext({ baseURL: server.baseUrl, locale: 'zh-CN' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await page.getByText('页面不存在，请检查你的浏览器地址是否正确').waitFor();
  });
});

describe('shell pages', () => {
  it('shows the not-found page for unknown paths', async () => {
    const page = await open();
    await page.goto('/definitely/not/here');
    await page.getByText('The page does not exist, please check your browser address.').waitFor();
  });

  it('says so when the server status cannot be loaded', async () => {
    const page = await open();
    await page.route('**/api/status', (route) => route.abort());
    await page.goto('/about');
    await expectToast(page, 'Unable to connect to the server normally!');
    // The default name and logo stand in for the missing status.
    expect(await page.title()).toBe('Switchyard');
    expect(await page.locator("link[rel~='icon']").getAttribute('href')).toBe('/logo.png');
  });

  it('shows the router error page when a page chunk cannot be loaded', async () => {
    const page = await open();
    await page.route('**/assets/AboutPage-*.js', (route) => route.abort());
    await page.goto('/about');
    await page.getByRole('heading', { name: 'This page could not be downloaded' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    // The shell stays usable around the error.
    await page.locator('header [data-nav="home"]:visible').waitFor();
    await screenshot(page, 'flows/chunk-failed');
  });

  it('shows the loading placeholder while a page chunk downloads', async () => {
    const page = await open({ language: 'zh' });
    // The chunk's download is held until the placeholder has been seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/AboutPage-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/');
    await page.locator('header [data-nav="about"]:visible').click();
    await page.getByText('加载关于中...').waitFor();
    await screenshot(page, 'flows/loading-placeholder');
    release();
    await page.getByRole('heading', { name: '关于' }).waitFor();
  });
});

describe('server status and content', () => {
  afterAll(async () => {
    for (const key of ['ChatLink', 'Footer', 'HomePageContent', 'About', 'Notice', 'SystemName']) {
      await admin.call('PUT', '/api/option/', { key, value: '' });
    }
  });

  for (const [language, poweredBy, licence] of [
    ['en', 'Powered by', 'MIT licence'],
    ['zh', '由', 'MIT 协议'],
  ] as const) {
    it(`shows the default credit line, source link and MIT licence when footer_html is empty (${language})`, async () => {
      const status = await (await fetch(`${server.baseUrl}/api/status`)).json();
      expect((status as { data: { footer_html: string } }).data.footer_html).toBe('');
      const page = await open({ language });
      await page.goto('/about');
      const footer = page.getByTestId('footer');
      await footer.getByRole('link', { name: licence }).waitFor();
      const text = (await footer.textContent()) ?? '';
      expect(text).toContain('Switchyard');
      expect(text).toContain(poweredBy);
      const source = footer.getByRole('link', { name: 'Switchyard' });
      expect(await source.getAttribute('href')).toMatch(/^https:\/\/github\.com\/[\w-]+\/switchyard$/);
      expect(await footer.getByRole('link', { name: licence }).getAttribute('href')).toMatch(/mit-license/);
      expect(await footer.locator('.rich-content').count()).toBe(0);
    });
  }

  it('uses the configured name, footer, home content, about link, chat link and notice', async () => {
    await admin.call('PUT', '/api/option/', { key: 'SystemName', value: 'Gateway Lab' });
    await admin.call('PUT', '/api/option/', {
      key: 'Footer',
      value: '<b>Custom footer</b><script>alert(1)</script>',
    });
    await admin.call('PUT', '/api/option/', {
      key: 'HomePageContent',
      value: '# Hello gateway\n\nSome *markdown*.',
    });
    await admin.call('PUT', '/api/option/', { key: 'About', value: 'https://example.com/about' });
    await admin.call('PUT', '/api/option/', { key: 'ChatLink', value: 'https://chat.example.com' });
    await admin.call('PUT', '/api/option/', { key: 'Notice', value: 'Maintenance **tonight**' });

    const page = await open();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Hello gateway' }).waitFor();
    await page.waitForFunction(() => document.title === 'Gateway Lab');
    await page.locator('[data-testid="footer"] b', { hasText: 'Custom footer' }).waitFor();
    expect(await page.locator('[data-testid="footer"] script').count()).toBe(0);
    const notice = page.getByTestId('site-notice');
    await notice.getByText('tonight').waitFor();
    expect(await notice.locator('strong').textContent()).toBe('tonight');
    await screenshot(page, 'flows/custom-home');

    // The notice stays until it is closed, and then stays closed until its text changes.
    await page.reload();
    await notice.getByText('tonight').waitFor();
    await notice.getByRole('button', { name: 'Close the notice' }).click();
    await notice.waitFor({ state: 'detached' });
    const noticeAnswered = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/notice');
    await page.reload();
    await page.getByRole('heading', { name: 'Hello gateway' }).waitFor();
    // The notice came with its answer, and the page has drawn what it had to.
    await noticeAnswered;
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await notice.count()).toBe(0);
    await admin.call('PUT', '/api/option/', { key: 'Notice', value: 'Maintenance **again**' });
    await page.reload();
    await notice.getByText('again').waitFor();

    await page.locator('header [data-nav="chat"]:visible').click();
    await page.locator('main iframe[src="https://chat.example.com"]').waitFor();

    await page.locator('header [data-nav="about"]:visible').click();
    await page.locator('main iframe[src="https://example.com/about"]').waitFor();
  });
});

describe('toasts', () => {
  const overlaps = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  type Box = { x: number; y: number; width: number; height: number };
  /** Every matching element's box (and the start of its HTML) in one look at the page. */
  const boxesOf = (locator: Locator) =>
    locator.evaluateAll((elements) =>
      elements.map((element) => {
        const { x, y, width, height } = element.getBoundingClientRect();
        return { x, y, width, height, html: element.outerHTML.slice(0, 120) };
      }),
    );

  /** Two different toasts (the same message twice shows once). */
  async function showTwoToasts(page: Page) {
    await page.goto('/channel');
    await page.getByRole('button', { name: 'Test all channels' }).click();
    await page.getByRole('button', { name: 'Delete disabled channels' }).click();
    await page.getByRole('button', { name: 'Confirm: delete every disabled channel' }).click();
    await page.locator('.mantine-Notification-root').nth(1).waitFor();
  }

  it('cover neither the header nor the page buttons at 1280 px, and let clicks through their margins', async () => {
    await admin.call('PUT', '/api/option/', { key: 'Notice', value: 'Read me' });
    const page = await open({ user: [ROOT.username, ROOT.password] });
    await showTwoToasts(page);
    // Measured at once: the toasts close by themselves a few seconds later.
    const toasts = await boxesOf(page.locator('.mantine-Notification-root'));
    const buttons = await boxesOf(page.locator('main button:visible'));
    const [header] = await boxesOf(page.locator('header'));
    if (!header) throw new Error('no header');
    expect(toasts.length).toBeGreaterThanOrEqual(2);
    for (const toast of toasts) {
      expect(overlaps(toast, header)).toBe(false);
      for (const button of buttons) expect(overlaps(toast, button), button.html).toBe(false);
    }
    await page.getByTestId('site-notice').waitFor();
    await screenshot(page, 'flows/toasts-desktop', { fullPage: false });
    // Every control stays reachable while the toasts and the notice are up.
    await page
      .getByRole('button', { name: 'Delete disabled channels' })
      .click({ trial: true, timeout: 2000 });
    await page
      .locator('header')
      .getByRole('button', { name: 'Language' })
      .first()
      .click({ trial: true, timeout: 2000 });
    await admin.call('PUT', '/api/option/', { key: 'Notice', value: '' });
  });

  it('sit below the header on a phone', async () => {
    const page = await open({ user: [ROOT.username, ROOT.password], viewport: PHONE });
    await showTwoToasts(page);
    const header = await page.locator('header').boundingBox();
    const toast = await page.locator('.mantine-Notification-root').first().boundingBox();
    if (!header || !toast) throw new Error('no box');
    expect(toast.y).toBeGreaterThanOrEqual(header.y + header.height);
    await page.getByRole('button', { name: 'Toggle menu' }).click({ trial: true, timeout: 2000 });
    await screenshot(page, 'flows/toasts-phone', { fullPage: false });
  });
});

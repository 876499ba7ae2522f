import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInContext, waitForPath } from '../src/console';
import {
  type FakeMailServer,
  type FakeServer,
  startFake,
  startFakeReleases,
  startFakeSmtp,
} from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const CAROL = { username: 'carol', password: 'carol-password' };
const DAVE = { username: 'dave', password: 'dave-password' };
const ERIN = { username: 'erin', password: 'erin-password' };

let server: RunningServer;
let releases: FakeServer;
/** GitHub's token and user endpoints and the WeChat server, in one fake. */
let providers: FakeServer;
let mail: FakeMailServer;
let release: { status: number; body: unknown };
let chromium: TestBrowser;
let admin: AdminApi;
let root: BrowserContext;
let page: Page;
/** Every PUT /api/option/ body the root page sent, in order. */
let saved: Array<{ key: string; value: string }> = [];

const section = (id: string) => page.getByTestId(`section-${id}`);
const saveSection = (id: string) => section(id).getByRole('button', { name: 'Save', exact: true }).click();

async function option(key: string): Promise<string | undefined> {
  const entries = await admin.call<Array<{ key: string; value: string }>>('GET', '/api/option/');
  return entries.find((entry) => entry.key === key)?.value;
}

beforeAll(async () => {
  providers = await startFake((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/access_token')
      answer({ access_token: 'gho_e2e', token_type: 'bearer' });
    else if (url.pathname === '/user') answer({ login: 'octocat', name: 'Octo Cat', email: null });
    else if (url.pathname === '/api/wechat/user')
      answer(
        url.searchParams.get('code') === 'wx-code'
          ? { success: true, data: 'wx-carol' }
          : { success: false, message: 'wrong code' },
      );
    else answer({});
  });
  mail = await startFakeSmtp();
  server = await startServer({ GITHUB_OAUTH_URL: providers.url, GITHUB_API_URL: providers.url });
  release = {
    status: 200,
    body: { tag_name: 'v9.9.9', body: '## Changes\n\n- faster relays', html_url: '' },
  };
  releases = await startFakeReleases(() => release);
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  for (const user of [CAROL, DAVE, ERIN]) await admin.createUser(user.username, user.password);
  await admin.call('POST', '/api/user/manage', { username: ERIN.username, action: 'promote' });
  root = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, ROOT);
  page = await root.newPage();
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/option/') {
      saved.push(JSON.parse(request.postData() ?? '{}') as { key: string; value: string });
    }
  });
});

afterAll(async () => {
  await root?.close();
  await chromium?.close();
  await releases?.close();
  await providers?.close();
  await mail?.close();
  await server?.stop();
});

describe('root changes the system options', () => {
  it('renames the system and the page title follows at once', async () => {
    await page.goto('/setting?tab=other');
    const name = section('branding').locator('input[name="SystemName"]');
    expect(await name.inputValue()).toBe('Switchyard');
    await name.fill('Relay Hub');
    saved = [];
    await saveSection('branding');
    await expectToast(page, 'Settings saved!');
    await page.waitForFunction(() => document.title === 'Relay Hub');
    await page.locator('header').getByText('Relay Hub').waitFor();
    expect(saved).toEqual([{ key: 'SystemName', value: 'Relay Hub' }]);
    expect(await option('SystemName')).toBe('Relay Hub');
  });

  it('checks for updates against the configured releases address', async () => {
    const check = page.getByTestId('update-check');
    await check.locator('input[name="releases_url"]').fill(releases.url);
    await check.getByRole('button', { name: 'Check for updates' }).click();
    const dialog = page.getByRole('dialog', { name: 'New version: v9.9.9' });
    await dialog.waitFor();
    await dialog.getByTestId('release-notes').locator('h2', { hasText: 'Changes' }).waitFor();
    await dialog.getByText('faster relays').waitFor();
    await settle(page);
    await screenshot(page, 'flows/setting-update-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();

    const status = (await (await fetch(`${server.baseUrl}/api/status`)).json()) as {
      data: { version: string };
    };
    release = { status: 200, body: { tag_name: status.data.version, body: '' } };
    await check.getByRole('button', { name: 'Check for updates' }).click();
    await expectToast(page, `Already the latest version: ${status.data.version}`);

    release = { status: 500, body: { message: 'down' } };
    await check.getByRole('button', { name: 'Check for updates' }).click();
    await page
      .getByTestId('update-failure')
      .getByText('Update check failed: 500 Internal Server Error')
      .waitFor();
    // The address is remembered in this browser.
    await page.reload();
    expect(await page.locator('input[name="releases_url"]').inputValue()).toBe(releases.url);
  });

  it('saves only changed values, and secrets only when typed', async () => {
    await page.goto('/setting?tab=system');
    const token = section('smtp').locator('input[name="SMTPToken"]');
    expect(await token.inputValue()).toBe('');
    expect(await token.getAttribute('placeholder')).toContain('leave empty to keep the current value');
    await section('smtp').locator('input[name="SMTPServer"]').fill('smtp.example.com');
    saved = [];
    await saveSection('smtp');
    await expectToast(page, 'Settings saved!');
    expect(saved).toEqual([{ key: 'SMTPServer', value: 'smtp.example.com' }]);

    await token.fill('mail-secret');
    saved = [];
    await saveSection('smtp');
    await page.waitForFunction(
      () => (document.querySelector('input[name="SMTPToken"]') as HTMLInputElement).value === '',
    );
    expect(saved).toEqual([{ key: 'SMTPToken', value: 'mail-secret' }]);
    expect(await option('SMTPToken')).toBeUndefined();
  });

  it('shows the address in effect while none is set, and removes the trailing slash of a new one', async () => {
    const address = section('server').locator('input[name="ServerAddress"]');
    expect(await address.getAttribute('placeholder')).toBe(`Unset: links use ${server.baseUrl}`);
    await address.fill(`${server.baseUrl}/`);
    saved = [];
    await saveSection('server');
    await expectToast(page, 'Settings saved!');
    expect(saved).toEqual([{ key: 'ServerAddress', value: server.baseUrl }]);
  });

  it('keeps whitelist domains unique', async () => {
    const input = section('email-domain')
      .locator('input[name="EmailDomainWhitelist"]')
      .locator('xpath=..')
      .locator('input:not([type="hidden"])');
    await input.fill('example.org');
    await input.press('Enter');
    await input.fill('gmail.com');
    await input.press('Enter');
    saved = [];
    await saveSection('email-domain');
    await expectToast(page, 'Settings saved!');
    const value = saved[0]?.value.split(',') ?? [];
    expect(value).toContain('example.org');
    expect(value.filter((domain) => domain === 'gmail.com')).toHaveLength(1);
  });

  it('asks before turning password login off', async () => {
    saved = [];
    await page.getByRole('switch', { name: 'Allow login with a password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Warning' });
    await dialog.getByText('Turning off password login').waitFor();
    await settle(page);
    await screenshot(page, 'flows/setting-password-warning', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Gone, not only closing: the next test clicks the page beneath it.
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('switch', { name: 'Allow login with a password' }).isChecked()).toBe(true);
    expect(saved).toEqual([]);
  });

  it('turns registration off, and /register refuses with the server message', async () => {
    saved = [];
    // The switch shows the saved value: its change is sent, then shown.
    const sent = page.waitForRequest(
      (request) => request.method() === 'PUT' && new URL(request.url()).pathname === '/api/option/',
    );
    await page.getByRole('switch', { name: 'Allow new users to register' }).click();
    await sent;
    await page.waitForFunction(
      () => !(document.querySelector('input[name="RegisterEnabled"]') as HTMLInputElement).checked,
    );
    expect(saved).toEqual([{ key: 'RegisterEnabled', value: 'false' }]);

    const visitor = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' });
    const form = await visitor.newPage();
    await form.goto('/register');
    await form.locator('input[name="username"]').fill('newcomer');
    await form.locator('input[name="password"]').fill('newcomer-password');
    await form.locator('input[name="password2"]').fill('newcomer-password');
    await form.locator('form button[type="submit"]').click();
    await expectToast(form, 'The administrator has closed new registrations');
    await visitor.close();

    await page.getByRole('switch', { name: 'Allow new users to register' }).click();
    await page.waitForFunction(
      () => (document.querySelector('input[name="RegisterEnabled"]') as HTMLInputElement).checked,
    );
    expect(await option('RegisterEnabled')).toBe('true');
  });

  it('checks the ratio JSON before sending it, and shows what a ratio costs', async () => {
    await page.goto('/setting?tab=operation');
    await section('ratio').getByText('Ratio 1 = $2 per 1M tokens').waitFor();
    await section('ratio').locator('textarea[name="ModelRatio"]').fill('{"gpt-4": 15,');
    saved = [];
    await saveSection('ratio');
    await section('ratio').getByText('Model ratio is not a valid JSON string').waitFor();
    expect(saved).toEqual([]);
    await section('ratio').locator('textarea[name="GroupRatio"]').fill('{"default": 1, "vip": 0.5}');
    await section('ratio').locator('textarea[name="ModelRatio"]').fill('{"gpt-4": 15}');
    await saveSection('ratio');
    await expectToast(page, 'Settings saved!');
    expect(saved.map((entry) => entry.key)).toEqual(['ModelRatio', 'GroupRatio']);
    expect(JSON.parse(saved[1]?.value ?? '')).toEqual({ default: 1, vip: 0.5 });
  });

  it('cleans history logs and says how many', async () => {
    const [user] = await admin.call<Array<{ id: number }>>(
      'GET',
      `/api/user/search?keyword=${CAROL.username}`,
    );
    for (const quota of [1000, 2000, 3000]) {
      await admin.call('POST', '/api/topup', { user_id: user?.id, quota, remark: 'seed' });
    }
    let count = 0;
    for (let p = 0; ; p += 1) {
      const logs = await admin.call<unknown[]>('GET', `/api/log/?p=${p}`);
      count += logs.length;
      if (logs.length < 10) break;
    }
    expect(count).toBeGreaterThanOrEqual(3);

    const cleanup = page.getByTestId('log-cleanup');
    const target = cleanup.locator('input[name="log_target_time"]');
    const thirtyDaysAgo = new Date(Date.now() - 2592000 * 1000);
    expect(await target.inputValue()).toContain(thirtyDaysAgo.toISOString().slice(0, 8));
    const inAnHour = new Date(Date.now() + 3600 * 1000 - new Date().getTimezoneOffset() * 60000);
    await target.fill(inAnHour.toISOString().slice(0, 19));
    await cleanup.getByRole('button', { name: 'Clean history logs' }).click();
    await page.getByRole('button', { name: 'Delete these logs' }).click();
    await expectToast(page, `${count} logs cleared!`);
    expect(await admin.call<unknown[]>('GET', '/api/log/?p=0')).toEqual([]);
  });
});

describe('an administrator who is not root', () => {
  it('sees the admin tabs with an explanation instead of the root-only options', async () => {
    const context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, ERIN);
    const view = await context.newPage();
    await view.goto('/setting');
    await view.getByTestId('access-card').waitFor();
    const tabs = await view.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Personal', 'Operation', 'System', 'Other']);
    await view.getByRole('tab', { name: 'System' }).click();
    await view.getByTestId('root-only').getByText('super administrator (root) only').waitFor();
    await view.getByRole('tab', { name: 'Operation' }).click();
    await view.getByTestId('log-cleanup').waitFor();
    await screenshot(view, 'flows/setting-admin-not-root');
    await context.close();
  });
});

describe('personal settings', () => {
  let carol: BrowserContext;
  let view: Page;

  beforeAll(async () => {
    carol = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, CAROL);
    await carol.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    view = await carol.newPage();
  });
  afterAll(async () => carol?.close());

  it('shows only the personal tab to a normal user', async () => {
    await view.goto('/setting');
    await view.getByTestId('access-card').waitFor();
    expect(await view.getByRole('tab').allTextContents()).toEqual(['Personal']);
  });

  it('generates a system access token, shows it and copies it', async () => {
    await view.getByRole('button', { name: 'Generate system access token' }).click();
    await expectToast(view, 'Token reset and copied to the clipboard!');
    const shown = await view.locator('input[name="access_token"]').inputValue();
    expect(shown).toMatch(/^\w{32}$/);
    expect(await view.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    // The token is a credential of its own: it signs carol in without the session.
    const self = await fetch(`${server.baseUrl}/api/user/self`, { headers: { Authorization: shown } });
    expect(((await self.json()) as { data: { username: string } }).data.username).toBe(CAROL.username);
  });

  it('copies the invitation link built on the server address', async () => {
    await view.reload();
    await view.getByRole('button', { name: 'Copy invitation link' }).click();
    await expectToast(view, 'Invitation link copied to the clipboard!');
    const code = ((await (await carol.request.get('/api/user/aff')).json()) as { data: string }).data;
    const link = `${server.baseUrl}/register?aff=${code}`;
    expect(await view.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await view.locator('input[name="invite_link"]').inputValue()).toBe(link);
  });

  it('offers only the bindings the server enables', async () => {
    const github = view.locator('[data-binding="GitHub"]');
    await github.getByText('Not enabled by the administrator').waitFor();
    expect(await github.getByRole('button').isDisabled()).toBe(true);
    await view.locator('[data-binding="Email"]').getByRole('button', { name: 'Bind' }).click();
    const dialog = view.getByRole('dialog', { name: 'Bind an email address' });
    // Opened and still: a click during the dialog's entrance once brought no toast (cause not found).
    await dialog.waitFor();
    await settle(view);
    await dialog.getByRole('button', { name: 'Get code' }).click();
    await expectToast(view, 'Please enter your email address first.');
    await settle(view);
    await screenshot(view, 'flows/setting-email-bind', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('deletes the own account only after the username is typed', async () => {
    const context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, DAVE);
    const own = await context.newPage();
    await own.goto('/setting');
    await own.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = own.getByRole('dialog', { name: 'Dangerous operation' });
    await dialog.locator('input[name="confirm_username"]').fill('someone-else');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByText('Please enter your account name to confirm deletion!').waitFor();
    await settle(own);
    await screenshot(own, 'flows/setting-delete-account', { fullPage: false });
    await dialog.locator('input[name="confirm_username"]').fill(DAVE.username);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await waitForPath(own, '/login');
    await expectToast(own, 'Account deleted!');
    expect(await own.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    const login = await fetch(`${server.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(DAVE),
    });
    expect(((await login.json()) as { success: boolean }).success).toBe(false);
    await context.close();
  });
});

describe('account bindings', () => {
  it('binds GitHub, WeChat and an email address', async () => {
    const settings: Array<[string, string]> = [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(mail.port)],
      ['SMTPFrom', 'gate@example.com'],
      ['GitHubClientId', 'gh-client'],
      ['GitHubClientSecret', 'gh-secret'],
      ['GitHubOAuthEnabled', 'true'],
      ['WeChatServerAddress', providers.url],
      ['WeChatAuthEnabled', 'true'],
    ];
    for (const [key, value] of settings) await admin.call('PUT', '/api/option/', { key, value });
    const context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, CAROL);
    const view = await context.newPage();
    // GitHub's authorise page sends the browser straight back with a code and the same state.
    await view.route('https://github.com/login/oauth/authorize**', async (route) => {
      const state = new URL(route.request().url()).searchParams.get('state') ?? '';
      await route.fulfill({
        status: 302,
        headers: { location: `${server.baseUrl}/oauth/github?code=gh-code&state=${state}` },
      });
    });
    await view.goto('/setting');
    const row = (name: string) => view.locator(`[data-binding="${name}"]`);

    await row('GitHub').getByRole('button', { name: 'Bind' }).click();
    await expectToast(view, 'Bound successfully!');
    await waitForPath(view, '/setting');
    await row('GitHub').getByText('Bound: octocat').waitFor();

    await row('WeChat').getByRole('button', { name: 'Bind' }).click();
    const wechat = view.getByRole('dialog', { name: 'Bind a WeChat account' });
    await wechat.locator('input[name="wechat_code"]').fill('wx-code');
    await wechat.getByRole('button', { name: 'Bind' }).click();
    await expectToast(view, 'WeChat account bound!');
    await row('WeChat').getByText('Bound: wx-carol').waitFor();

    await row('Email').getByRole('button', { name: 'Bind' }).click();
    const email = view.getByRole('dialog', { name: 'Bind an email address' });
    await email.locator('input[name="bind_email"]').fill('not-an-address');
    await email.getByRole('button', { name: 'Get code' }).click();
    await email.getByText('Please enter a valid email address.').waitFor();
    await email.locator('input[name="bind_email"]').fill('carol@example.com');
    await email.getByRole('button', { name: 'Get code' }).click();
    await expectToast(view, 'Verification code sent, please check your mailbox!');
    await email.getByRole('button', { name: /^Resend \((30|29|28)\)$/ }).waitFor();
    const { body } = await mail.next('carol@example.com');
    const code = /<strong>([A-Za-z0-9]{6})<\/strong>/.exec(body)?.[1];
    expect(code).toBeTruthy();
    await email.locator('input[name="bind_code"]').fill(code ?? '');
    await email.getByRole('button', { name: 'Bind', exact: true }).click();
    await expectToast(view, 'Email address bound!');
    await row('Email').getByText('Bound: carol@example.com').waitFor();
    await settle(view);
    await screenshot(view, 'flows/setting-bindings-bound');
    await context.close();
  });
});

describe('screenshots', () => {
  for (const language of ['en', 'zh'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`every settings tab (${language}, ${viewport.width})`, async () => {
        const context = await signedInContext(
          chromium.browser,
          { baseUrl: server.baseUrl, language, viewport },
          ROOT,
        );
        const view = await context.newPage();
        for (const tab of ['personal', 'operation', 'system', 'other']) {
          await view.goto(tab === 'personal' ? '/setting' : `/setting?tab=${tab}`);
          await view
            .locator(tab === 'personal' ? '[data-testid="access-card"]' : '[data-testid^="section-"]')
            .first()
            .waitFor();
          await view.locator('[data-testid="page-loading"]').waitFor({ state: 'detached' });
          await view.evaluate(() => document.fonts.ready);
          await screenshot(view, `${language}-${viewport.width}/setting-${tab}`);
        }
        await context.close();
      });
    }
  }
});

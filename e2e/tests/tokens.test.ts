import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, settle, signedInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

interface ApiToken {
  id: number;
  key: string;
  name: string;
  status: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  models: string;
  subnet: string;
}

const USER = { username: 'alice', password: 'alice-password' };

let server: RunningServer;
let chromium: TestBrowser;
let context: BrowserContext;
let page: Page;

const row = (name: string) => page.locator(`[data-testid="tokens-table"] tr[data-token="${name}"]`);
const rowButton = (name: string, label: string) =>
  row(name).getByRole('button', { name: label, exact: true });

/** The user's own tokens, read through the user's own session. */
async function ownTokens(keyword: string): Promise<ApiToken[]> {
  const response = await context.request.get(`/api/token/search?keyword=${encodeURIComponent(keyword)}`);
  return ((await response.json()) as { data: ApiToken[] }).data;
}

async function ownToken(name: string): Promise<ApiToken> {
  const token = (await ownTokens(name)).find((t) => t.name === name);
  if (!token) throw new Error(`token ${name} not found`);
  return token;
}

async function createToken(target: BrowserContext, data: Record<string, unknown>): Promise<void> {
  const response = await target.request.post('/api/token/', { data });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`token creation failed: ${body.message}`);
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser(USER.username, USER.password);
  // A channel in the default group, so the user has models to choose from.
  await admin.call('POST', '/api/channel/', {
    type: 1,
    name: 'openai',
    key: 'sk-upstream',
    models: 'gpt-4o-mini,gpt-4o',
    group: 'default',
  });
  context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, USER);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await chromium?.close();
  await server?.stop();
});

describe('a user manages a token', () => {
  it('starts with an empty list', async () => {
    await page.goto('/token');
    await page.getByText('No tokens yet').waitFor();
  });

  it('checks the form before creating', async () => {
    await page.getByRole('link', { name: 'Add token' }).first().click();
    await waitForPath(page, '/token/add');
    expect(await page.locator('input[name="remain_quota"]').inputValue()).toBe('500000');
    expect(await page.locator('input[name="expired_time"]').inputValue()).toBe('-1');
    await page.getByText('actual use is also bounded by the remaining quota of your account').waitFor();

    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter a token name.').waitFor();

    await page.locator('input[name="name"]').fill('ci-key');
    await page.locator('input[name="expired_time"]').fill('someday');
    await page.locator('input[name="subnet"]').fill('10.0.0.0/8, 10.1.1.1/33');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Expiry time format error!').waitFor();

    await page.getByRole('button', { name: 'Expires in 1 day' }).click();
    expect(await page.locator('input[name="expired_time"]').inputValue()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('"10.1.1.1/33" is not a valid CIDR block').waitFor();
  });

  it('creates a token with models, a subnet and unlimited quota', async () => {
    await page.locator('input[name="subnet"]').fill('10.0.0.0/8, 192.168.0.0/16');
    await page.getByPlaceholder('Leave empty for no restriction').click();
    await page.getByRole('option', { name: 'gpt-4o-mini', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('Unlimited quota').check();
    expect(await page.locator('input[name="remain_quota"]').isDisabled()).toBe(true);
    await screenshot(page, 'flows/token-form-filled');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Token created; click copy in the list to get the token!');
    await waitForPath(page, '/token');
    await row('ci-key').getByText('Enabled', { exact: true }).waitFor();
    await row('ci-key').getByText('Unlimited', { exact: true }).waitFor();

    const token = await ownToken('ci-key');
    expect(token).toMatchObject({
      unlimited_quota: true,
      models: 'gpt-4o-mini',
      subnet: '10.0.0.0/8,192.168.0.0/16',
    });
    const inADay = Date.now() / 1000 + 86400;
    expect(Math.abs(token.expired_time - inADay)).toBeLessThan(120);
  });

  it('copies sk- and the key to the clipboard', async () => {
    const token = await ownToken('ci-key');
    await rowButton('ci-key', 'Copy').click();
    await expectToast(page, 'Copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`sk-${token.key}`);
  });

  it('copies a link that hands the key to a chat app, and opens ChatGPT Next Web with it', async () => {
    const token = await ownToken('ci-key');
    const origin = new URL(server.baseUrl).origin;
    const encoded = encodeURIComponent(origin);
    const copyLink = async (app: string) => {
      await rowButton('ci-key', 'More things to copy').click();
      await page.getByRole('menuitem', { name: `Link for ${app}` }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const nextWeb = `https://chat.oneapi.pro/#/?settings={"key":"sk-${token.key}","url":"${origin}"}`;
    expect(await copyLink('ChatGPT Next Web')).toBe(nextWeb);
    expect(await copyLink('BotGem')).toBe(`ama://set-api-key?server=${encoded}&key=sk-${token.key}`);
    expect(await copyLink('OpenCat')).toBe(`opencat://team/join?domain=${encoded}&token=sk-${token.key}`);

    // Chat opens the hosted Next Web (no chat link is set) in a new tab, with the key and this server.
    await context.route('https://chat.oneapi.pro/**', (route) => route.fulfill({ body: 'chat app' }));
    const [tab] = await Promise.all([context.waitForEvent('page'), rowButton('ci-key', 'Chat').click()]);
    await tab.waitForLoadState();
    expect(decodeURIComponent(tab.url())).toBe(nextWeb);
    await tab.close();
    await rowButton('ci-key', 'Chat in another app').click();
    await page.getByRole('menuitem', { name: 'OpenCat' }).waitFor();
    await settle(page);
    await screenshot(page, 'flows/token-chat-menu', { fullPage: false });
    await page.keyboard.press('Escape');
  });

  it('offers the same choices on a phone, in Chinese', async () => {
    const phone = await signedInContext(
      chromium.browser,
      { baseUrl: server.baseUrl, language: 'zh', viewport: PHONE },
      USER,
    );
    const small = await phone.newPage();
    await small.goto('/token');
    const card = small.locator('[data-token="ci-key"]');
    await card.getByRole('button', { name: '聊天', exact: true }).waitFor();
    await card.getByRole('button', { name: '复制其他内容' }).click();
    await small.getByRole('menuitem', { name: 'OpenCat 链接' }).waitFor();
    await settle(small);
    await screenshot(small, 'flows/token-chat-menu-phone-zh', { fullPage: false });
    await phone.close();
  });

  it('puts the key into the search box when the clipboard refuses', async () => {
    const token = await ownToken('ci-key');
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        configurable: true,
        value: () => Promise.reject(new Error('denied')),
      });
    });
    await rowButton('ci-key', 'Copy').click();
    await expectToast(page, 'Cannot copy to clipboard, please copy manually');
    expect(await page.getByPlaceholder('Search tokens by name...').inputValue()).toBe(`sk-${token.key}`);
    await page.reload();
  });

  it('edits the token, keeping its fields', async () => {
    const token = await ownToken('ci-key');
    await row('ci-key').getByRole('link', { name: 'Edit' }).click();
    await waitForPath(page, `/token/edit/${token.id}`);
    expect(await page.locator('input[name="subnet"]').inputValue()).toBe('10.0.0.0/8,192.168.0.0/16');
    expect(await page.locator('input[name="remain_quota"]').isDisabled()).toBe(true);
    await page.locator('input[name="name"]').fill('ci-key-2');
    await page.getByLabel('Unlimited quota').uncheck();
    await page.locator('input[name="remain_quota"]').fill('1234567');
    await page.getByRole('button', { name: 'Never expires' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Token updated!');
    await waitForPath(page, '/token');
    await row('ci-key-2').getByText('Never expires', { exact: true }).waitFor();
    expect(await ownToken('ci-key-2')).toMatchObject({
      expired_time: -1,
      remain_quota: 1234567,
      unlimited_quota: false,
    });
  });

  it('disables the token with a status-only update', async () => {
    await rowButton('ci-key-2', 'Disable').click();
    await row('ci-key-2').getByText('Disabled', { exact: true }).waitFor();
    expect((await ownToken('ci-key-2')).status).toBe(2);
    await rowButton('ci-key-2', 'Enable').click();
    await row('ci-key-2').getByText('Enabled', { exact: true }).waitFor();
    expect((await ownToken('ci-key-2')).status).toBe(1);
  });

  it("shows the server's refusal to enable a used-up token", async () => {
    await createToken(context, { name: 'empty-key', remain_quota: 0 });
    await page.reload();
    await row('empty-key').getByText('Exhausted', { exact: true }).waitFor();
    await rowButton('empty-key', 'Enable').click();
    await expectToast(page, 'This token has used up its quota and cannot be enabled');
    expect((await ownToken('empty-key')).status).toBe(4);
  });

  it('searches by name', async () => {
    await page.getByPlaceholder('Search tokens by name...').fill('empty');
    await page.getByPlaceholder('Search tokens by name...').press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="tokens-table"] tbody tr').length === 1,
    );
    await row('empty-key').waitFor();
    await page.getByPlaceholder('Search tokens by name...').fill('');
    await page.getByPlaceholder('Search tokens by name...').press('Enter');
    await row('ci-key-2').waitFor();
  });

  it('deletes the token after confirmation; the row disappears', async () => {
    await rowButton('ci-key-2', 'Delete').click();
    const confirm = page.getByRole('button', { name: 'Delete token ci-key-2' });
    await confirm.waitFor();
    await screenshot(page, 'flows/token-delete-confirm', { fullPage: false });
    await confirm.click();
    await row('ci-key-2').waitFor({ state: 'detached' });
    expect(await ownTokens('ci-key')).toEqual([]);
  });
});

describe('paging and order', () => {
  it('fetches the next server page and asks for the chosen order', async () => {
    for (let i = 1; i <= 10; i += 1)
      await createToken(context, { name: `bulk-${String(i).padStart(2, '0')}`, remain_quota: i * 1000 });
    await page.goto('/token');
    await page.locator('[data-testid="tokens-table"] tbody tr').nth(9).waitFor();
    expect(await page.locator('[data-testid="tokens-table"] tbody tr').count()).toBe(10);
    const nextPage = page.waitForRequest((r) => r.url().includes('/api/token/?p=1'));
    await page.locator('.mantine-Pagination-control', { hasText: '2' }).click();
    await nextPage;
    await row('empty-key').waitFor();

    const ordered = page.waitForRequest((r) => r.url().includes('order=remain_quota'));
    await page.getByRole('button', { name: 'Remaining quota' }).click();
    await ordered;
    await row('bulk-10').waitFor();
  });
});

describe('screenshots', () => {
  const shots: Array<{ language: Language; viewport: { width: number; height: number } }> = [
    { language: 'en', viewport: DESKTOP },
    { language: 'en', viewport: PHONE },
    { language: 'zh', viewport: DESKTOP },
    { language: 'zh', viewport: PHONE },
  ];

  it('of the filled list and the forms at 1280 and 375 px in both languages', async () => {
    // One token of each status at the top of the list.
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    await createToken(context, { name: 'expiring', expired_time: expiresAt });
    await createToken(context, { name: 'paused', remain_quota: 250000 });
    await context.request.put('/api/token/?status_only=true', {
      data: { id: (await ownToken('paused')).id, status: 2 },
    });
    await createToken(context, { name: 'unlimited', unlimited_quota: true, models: 'gpt-4o' });
    // Time is under test: the token's expiry (whole seconds) has to pass for it to show as expired.
    await new Promise((resolve) => setTimeout(resolve, (expiresAt + 1) * 1000 - Date.now()));
    const token = await ownToken('unlimited');
    for (const { language, viewport } of shots) {
      const label = `${language}-${viewport.width}`;
      const shotContext = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        USER,
      );
      const shot = await shotContext.newPage();
      await shot.goto('/token');
      await shot.locator('[data-token="unlimited"]').first().waitFor();
      await screenshot(shot, `flows/${label}/token-list`);
      await shot.goto('/token/add');
      await shot.locator('input[name="name"]').waitFor();
      await screenshot(shot, `flows/${label}/token-add`);
      await shot.goto(`/token/edit/${token.id}`);
      await shot.locator('input[name="name"]').waitFor();
      await screenshot(shot, `flows/${label}/token-edit`);
      await shotContext.close();
    }
  }, 120_000);
});

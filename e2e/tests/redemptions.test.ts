import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, signedInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

interface ApiRedemption {
  id: number;
  key: string;
  name: string;
  status: number;
  quota: number;
  redeemed_time: number;
}

const USER = { username: 'bob', password: 'bob-password' };

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
let rootContext: BrowserContext;
let userContext: BrowserContext;
let adminPage: Page;
let userPage: Page;
/** The codes read back from the downloaded file. */
let codes: string[] = [];

const row = (id: number) => adminPage.locator(`[data-testid="redemptions-table"] tr[data-code-id="${id}"]`);
const rowButton = (id: number, name: string) => row(id).getByRole('button', { name, exact: true });

const codesNamed = (name: string) =>
  admin.call<ApiRedemption[]>('GET', `/api/redemption/search?keyword=${encodeURIComponent(name)}`);

async function codeByKey(key: string): Promise<ApiRedemption> {
  const all = await codesNamed('spring');
  const code = all.find((c) => c.key === key);
  if (!code) throw new Error(`code ${key} not found`);
  return code;
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser(USER.username, USER.password);
  rootContext = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ROOT);
  await rootContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  adminPage = await rootContext.newPage();
  userContext = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, USER);
  userPage = await userContext.newPage();
});

afterAll(async () => {
  await rootContext?.close();
  await userContext?.close();
  await chromium?.close();
  await server?.stop();
});

describe('an admin creates redemption codes', () => {
  it('checks the form: a name is needed and at most 100 codes', async () => {
    await adminPage.goto('/redemption');
    await adminPage.getByText('No redemption codes yet').waitFor();
    await adminPage.getByRole('link', { name: 'Add redemption codes' }).first().click();
    await waitForPath(adminPage, '/redemption/add');
    expect(await adminPage.locator('input[name="quota"]').inputValue()).toBe('100000');
    expect(await adminPage.locator('input[name="count"]').inputValue()).toBe('1');
    await adminPage.locator('input[name="count"]').fill('101');
    await adminPage.getByRole('button', { name: 'Submit' }).click();
    await adminPage.getByText('Please enter a name for the codes.').waitFor();
    await adminPage.getByText('Please enter a whole number from 1 to 100.').waitFor();
  });

  it('downloads the 3 created codes as <name>.txt, one per line', async () => {
    await adminPage.locator('input[name="name"]').fill('spring-promo');
    await adminPage.locator('input[name="quota"]').fill('250000');
    await adminPage.locator('input[name="count"]').fill('3');
    await screenshot(adminPage, 'flows/redemption-form-filled');
    const download = adminPage.waitForEvent('download');
    await adminPage.getByRole('button', { name: 'Submit' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('spring-promo.txt');
    const text = readFileSync((await file.path()) as string, 'utf8');
    codes = text.split('\n').filter((line) => line !== '');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/);
    const stored = await codesNamed('spring-promo');
    expect(stored.map((c) => c.key).sort()).toEqual([...codes].sort());
    expect(stored.every((c) => c.quota === 250000 && c.status === 1)).toBe(true);
    await expectToast(adminPage, 'Redemption codes created!');
    await waitForPath(adminPage, '/redemption');
  });

  it('lists the codes as unused and copies one', async () => {
    const first = await codeByKey(codes[0] as string);
    await row(first.id).getByText('Unused', { exact: true }).waitFor();
    await row(first.id).getByText('Not redeemed yet', { exact: true }).waitFor();
    expect(await adminPage.locator('[data-testid="redemptions-table"] tbody tr').count()).toBe(3);
    await rowButton(first.id, 'Copy').click();
    await expectToast(adminPage, 'Copied to clipboard!');
    expect(await adminPage.evaluate(() => navigator.clipboard.readText())).toBe(first.key);
  });

  it('disables and enables a code', async () => {
    const second = await codeByKey(codes[1] as string);
    await rowButton(second.id, 'Disable').click();
    await row(second.id).getByText('Disabled', { exact: true }).waitFor();
    expect((await codeByKey(second.key)).status).toBe(2);
    await rowButton(second.id, 'Enable').click();
    await row(second.id).getByText('Unused', { exact: true }).waitFor();
    expect((await codeByKey(second.key)).status).toBe(1);
  });

  it('edits a code', async () => {
    const third = await codeByKey(codes[2] as string);
    await row(third.id).getByRole('link', { name: 'Edit' }).click();
    await waitForPath(adminPage, `/redemption/edit/${third.id}`);
    expect(await adminPage.locator('input[name="name"]').inputValue()).toBe('spring-promo');
    expect(await adminPage.locator('input[name="count"]').count()).toBe(0);
    await adminPage.locator('input[name="name"]').fill('spring-vip');
    await adminPage.locator('input[name="quota"]').fill('500000');
    await adminPage.getByRole('button', { name: 'Submit' }).click();
    await expectToast(adminPage, 'Redemption code updated!');
    await waitForPath(adminPage, '/redemption');
    await row(third.id).getByText('spring-vip', { exact: true }).waitFor();
    expect(await codeByKey(third.key)).toMatchObject({ name: 'spring-vip', quota: 500000 });
  });
});

describe('a user tops up', () => {
  it('asks for a code, then redeems one and the shown quota grows', async () => {
    await userPage.goto('/topup');
    const quota = userPage.getByTestId('topup-quota');
    await quota.getByText('$0.00').waitFor();
    await userPage.getByRole('button', { name: 'Redeem' }).click();
    await userPage.getByText('Please enter the top-up code!').waitFor();

    await userPage.getByPlaceholder('Enter a redemption code').fill(codes[0] as string);
    await userPage.getByRole('button', { name: 'Redeem' }).click();
    await expectToast(userPage, 'Top-up successful!');
    // 250000 quota at 500000 per dollar.
    await quota.getByText('$0.50').waitFor();
    expect(await userPage.getByPlaceholder('Enter a redemption code').inputValue()).toBe('');
    await userPage.reload();
    await quota.getByText('$0.50').waitFor();
  });

  it("is refused with the server's message when the code is redeemed again", async () => {
    await userPage.getByPlaceholder('Enter a redemption code').fill(codes[0] as string);
    await userPage.getByRole('button', { name: 'Redeem' }).click();
    await expectToast(userPage, 'Redemption failed: this code has already been used');
    await userPage.getByTestId('topup-quota').getByText('$0.50').waitFor();
  });

  it('says when no top-up link is set, and opens the link in a new tab once it is', async () => {
    await userPage.getByRole('button', { name: 'Get a redemption code' }).click();
    await expectToast(userPage, 'The super administrator has not set a top-up link!');
    await admin.call('PUT', '/api/option/', { key: 'TopUpLink', value: `${server.baseUrl}/about?shop=1` });
    await userPage.reload();
    await userPage.waitForFunction(() => (localStorage.getItem('status') ?? '').includes('shop=1'));
    const popup = userContext.waitForEvent('page');
    await userPage.getByRole('button', { name: 'Get a redemption code' }).click();
    const tab = await popup;
    await tab.waitForURL((url) => url.pathname === '/about' && url.search === '?shop=1');
    await tab.close();
  });

  it('shows the code as used in the admin list, its toggle inactive', async () => {
    const used = await codeByKey(codes[0] as string);
    expect(used.status).toBe(3);
    await adminPage.goto('/redemption');
    await row(used.id).getByText('Used', { exact: true }).waitFor();
    expect(await rowButton(used.id, 'Enable').isDisabled()).toBe(true);
    expect(await row(used.id).getByText('Not redeemed yet').count()).toBe(0);
  });
});

describe('list', () => {
  it('searches by name and deletes a code after confirmation', async () => {
    const third = await codeByKey(codes[2] as string);
    await adminPage.getByPlaceholder('Search codes by ID or name...').fill('spring-vip');
    await adminPage.getByPlaceholder('Search codes by ID or name...').press('Enter');
    await adminPage.waitForFunction(
      () => document.querySelectorAll('[data-testid="redemptions-table"] tbody tr').length === 1,
    );
    await rowButton(third.id, 'Delete').click();
    const confirm = adminPage.getByRole('button', { name: 'Confirm delete' });
    await confirm.waitFor();
    await screenshot(adminPage, 'flows/redemption-delete-confirm', { fullPage: false });
    await confirm.click();
    await row(third.id).waitFor({ state: 'detached' });
    expect(await codesNamed('spring-vip')).toEqual([]);
  });

  it('fetches the next server page from the page buttons', async () => {
    await admin.call('POST', '/api/redemption/', { name: 'bulk', quota: 1000, count: 10 });
    await adminPage.goto('/redemption');
    await adminPage.locator('[data-testid="redemptions-table"] tbody tr').nth(9).waitFor();
    const nextPage = adminPage.waitForRequest((r) => r.url().includes('/api/redemption/?p=1'));
    await adminPage.locator('.mantine-Pagination-control', { hasText: '2' }).click();
    await nextPage;
    await adminPage.getByText('spring-promo').first().waitFor();
  });
});

describe('screenshots', () => {
  const shots: Array<{ language: Language; viewport: { width: number; height: number } }> = [
    { language: 'en', viewport: DESKTOP },
    { language: 'en', viewport: PHONE },
    { language: 'zh', viewport: DESKTOP },
    { language: 'zh', viewport: PHONE },
  ];

  it('of the list, the forms and top-up at 1280 and 375 px in both languages', async () => {
    const used = await codeByKey(codes[0] as string);
    // One code of each status: used, disabled and a new unused one.
    await admin.call('PUT', '/api/redemption/?status_only=true', {
      id: (await codeByKey(codes[1] as string)).id,
      status: 2,
    });
    await admin.call('POST', '/api/redemption/', { name: 'spring-new', quota: 1500000, count: 1 });
    for (const { language, viewport } of shots) {
      const label = `${language}-${viewport.width}`;
      const root = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        ROOT,
      );
      const page = await root.newPage();
      await page.goto('/redemption');
      await page.locator('[data-code-id]').first().waitFor();
      await page.locator('input[name="keyword"]').fill('spring');
      await page.locator('input[name="keyword"]').press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('[data-code-id]').length === 3);
      await screenshot(page, `flows/${label}/redemption-list`);
      await page.goto('/redemption/add');
      await page.locator('input[name="count"]').waitFor();
      await screenshot(page, `flows/${label}/redemption-add`);
      await page.goto(`/redemption/edit/${used.id}`);
      await page.locator('input[name="name"]').waitFor();
      await screenshot(page, `flows/${label}/redemption-edit`);
      await root.close();

      const user = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        USER,
      );
      const topup = await user.newPage();
      await topup.goto('/topup');
      await topup.getByTestId('topup-quota').getByText('$0.50').waitFor();
      await screenshot(topup, `flows/${label}/topup`);
      await user.close();
    }
  }, 120_000);
});

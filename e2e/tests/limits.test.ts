import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

const USER = { username: 'limited', password: 'limited-password' };

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
let userId: number;

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser(USER.username, USER.password);
  const found = await admin.call<Array<{ id: number; username: string }>>(
    'GET',
    `/api/user/search?keyword=${USER.username}`,
  );
  userId = found.find((user) => user.username === USER.username)!.id;
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('limits and budgets in the console', () => {
  let root: { context: BrowserContext; page: Page };
  let user: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    const rootContext = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, ROOT);
    root = { context: rootContext, page: await rootContext.newPage() };
    const userContext = await signedInContext(chromium.browser, { baseUrl: server.baseUrl }, USER);
    user = { context: userContext, page: await userContext.newPage() };
  });
  afterAll(async () => {
    await root.context.close();
    await user.context.close();
  });

  it("an administrator sets the user's limits on the user form", async () => {
    const { page } = root;
    await page.goto(`/user/edit/${userId}`);
    const rpm = page.locator('input[name="rpm_limit"]');
    await rpm.waitFor();
    expect(await rpm.inputValue()).toBe('');
    await rpm.fill('100');
    await page.locator('input[name="concurrency_limit"]').fill('5');
    await settle(page);
    await screenshot(page, 'flows/user-limits-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'User info updated!');
    const saved = await admin.call<{ rpm_limit: number; tpm_limit: number; concurrency_limit: number }>(
      'GET',
      `/api/user/${userId}`,
    );
    expect(saved).toMatchObject({ rpm_limit: 100, tpm_limit: 0, concurrency_limit: 5 });
  });

  it('the user sees them read-only', async () => {
    const { page } = user;
    await page.goto('/user/edit');
    await page.getByText('Set by an administrator for every key of yours.').waitFor();
    const limits = page.getByTestId('user-limits');
    expect(await limits.getByLabel('Requests per minute').inputValue()).toBe('100');
    expect(await limits.getByLabel('Tokens per minute').inputValue()).toBe('No limit');
    expect(await limits.getByLabel('Requests per minute').getAttribute('readonly')).not.toBeNull();
    await settle(page);
    await screenshot(page, 'flows/user-limits-self');
  });

  it('the key form is capped by them and takes a budget', async () => {
    const { page } = user;
    await page.goto('/token/add');
    await page.locator('input[name="name"]').fill('budgeted');
    await page.getByText('At most 100 (your account’s limit); empty uses that.').waitFor();
    await page.locator('input[name="rpm_limit"]').fill('200');
    await page.locator('input[name="budget_quota"]').fill('5000');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Choose when the budget starts over.').waitFor();
    await page.getByTestId('budget-period').click();
    await page.getByRole('option', { name: 'Every day' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Your account allows at most 100 requests per minute');
    await page.locator('input[name="rpm_limit"]').fill('60');
    await page.locator('input[name="tpm_limit"]').fill('90000');
    await settle(page);
    await screenshot(page, 'flows/token-limits-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await waitForPath(page, '/token');
    const row = page.locator('[data-testid="tokens-table"] tr[data-token="budgeted"]');
    await row.getByText('60 RPM · 90000 TPM').waitFor();
    const budget = await row.getByTestId('token-budget').textContent();
    // Shown as money (the console's default): 5,000 quota is $0.01.
    expect(budget).toMatch(/^Budget \$0\.00 \/ \$0\.01Resets \d{4}-\d\d-\d\d 00:00:00$/);
    await settle(page);
    await screenshot(page, 'flows/token-limits-list');
  });

  it('the key list and form on a phone, in Chinese', async () => {
    const context = await signedInContext(
      chromium.browser,
      { baseUrl: server.baseUrl, language: 'zh', viewport: PHONE },
      USER,
    );
    const page = await context.newPage();
    await page.goto('/token');
    const card = page.locator('[data-token="budgeted"]');
    await card.getByText('60 次/分钟').waitFor();
    await settle(page);
    await screenshot(page, 'flows/token-limits-list-phone-zh');
    await card.getByText('编辑', { exact: true }).click();
    await page.locator('input[name="rpm_limit"]').waitFor();
    expect(await page.locator('input[name="rpm_limit"]').inputValue()).toBe('60');
    await page.getByTestId('budget-used').waitFor();
    await settle(page);
    await screenshot(page, 'flows/token-limits-form-phone-zh');
    await page.goto(`/user/edit`);
    await page.getByText('由管理员为您的所有令牌设置。').waitFor();
    await settle(page);
    await screenshot(page, 'flows/user-limits-self-phone-zh');
    await context.close();
  });
});

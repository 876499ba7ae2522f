import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, signedInContext, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

interface ApiUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  quota: number;
  group: string;
}

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
let rootContext: BrowserContext;
let page: Page;

const row = (username: string) => page.locator(`[data-testid="users-table"] tr[data-username="${username}"]`);
const rowButton = (username: string, name: string) =>
  row(username).getByRole('button', { name, exact: true });

async function findUser(username: string): Promise<ApiUser> {
  const users = await admin.call<ApiUser[]>('GET', `/api/user/search?keyword=${username}`);
  const user = users.find((u) => u.username === username);
  if (!user) throw new Error(`${username} not found`);
  return user;
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  // root plus 11 users: two server pages of ten.
  for (let i = 1; i <= 11; i += 1)
    await admin.createUser(`member${String(i).padStart(2, '0')}`, 'member-password');
  rootContext = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ROOT);
  page = await rootContext.newPage();
});

afterAll(async () => {
  await rootContext?.close();
  await chromium?.close();
  await server?.stop();
});

describe('user list', () => {
  it('shows the first server page and fetches the next one from the page buttons', async () => {
    await page.goto('/user');
    await row('member11').waitFor();
    expect(await page.locator('[data-testid="users-table"] tbody tr').count()).toBe(10);
    await screenshot(page, 'flows/users-page-1');
    const nextPage = page.waitForRequest((r) => r.url().includes('/api/user/?p=1'));
    await page.locator('.mantine-Pagination-control', { hasText: '2' }).click();
    await nextPage;
    await row('root').waitFor();
    expect(await page.locator('[data-testid="users-table"] tbody tr').count()).toBe(2);
  });

  it('disables every action on the super-admin row', async () => {
    for (const name of ['Promote', 'Demote', 'Delete', 'Disable']) {
      expect(await rowButton('root', name).isDisabled(), name).toBe(true);
    }
    // Root's quota, with its thousands grouped.
    await row('root').getByText('$1,000,000,000.00', { exact: false }).first().waitFor();
  });

  it('searches by keyword', async () => {
    await page.getByPlaceholder('Search by ID, username').fill('member03');
    await page.getByPlaceholder('Search by ID, username').press('Enter');
    await row('member03').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="users-table"] tbody tr').length === 1,
    );
  });

  it('asks the server for the chosen order', async () => {
    await page.goto('/user');
    await row('member11').waitFor();
    const ordered = page.waitForRequest((r) => r.url().includes('order=request_count'));
    await page.getByRole('button', { name: 'Request count' }).click();
    await ordered;
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="users-table"] tbody tr').length === 10,
    );
  });
});

describe('row actions', () => {
  it('promotes and demotes, updating the row from the answer', async () => {
    await page.goto('/user');
    await row('member05').waitFor();
    await rowButton('member05', 'Promote').click();
    await expectToast(page, 'Operation completed successfully!');
    await row('member05').getByText('Admin', { exact: true }).waitFor();
    expect((await findUser('member05')).role).toBe(10);

    await rowButton('member05', 'Demote').click();
    await row('member05').getByText('Normal user', { exact: true }).waitFor();
    expect((await findUser('member05')).role).toBe(1);
    // A common user has no role below: Demote is off again.
    expect(await rowButton('member05', 'Demote').isDisabled()).toBe(true);
  });

  it('disables and enables', async () => {
    await rowButton('member06', 'Disable').click();
    await row('member06').getByText('Banned', { exact: true }).waitFor();
    expect((await findUser('member06')).status).toBe(2);
    await screenshot(page, 'flows/users-disabled-row');

    await rowButton('member06', 'Enable').click();
    await row('member06').getByText('Activated', { exact: true }).waitFor();
    expect((await findUser('member06')).status).toBe(1);
  });

  it('deletes after the confirmation popup and hides the row', async () => {
    await rowButton('member07', 'Delete').click();
    const confirm = page.getByRole('button', { name: 'Delete user member07' });
    await confirm.waitFor();
    await screenshot(page, 'flows/users-delete-confirm', { fullPage: false });
    await confirm.click();
    await row('member07').waitFor({ state: 'detached' });
    const remaining = await admin.call<ApiUser[]>('GET', '/api/user/?p=0');
    expect(remaining.some((u) => u.username === 'member07')).toBe(false);
  });
});

describe('create and edit', () => {
  it('creates a user from /user/add and returns to the list', async () => {
    await page.goto('/user');
    await page.getByRole('link', { name: 'Add user' }).click();
    await waitForPath(page, '/user/add');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter a username.').waitFor();
    await page.locator('input[name="username"]').fill('newcomer');
    await page.locator('input[name="display_name"]').fill('New Comer');
    await page.locator('input[name="password"]').fill('newcomer-password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await waitForPath(page, '/user');
    await expectToast(page, 'User account created!');
    expect((await findUser('newcomer')).display_name).toBe('New Comer');
  });

  it('lets an admin edit another user, group and quota included', async () => {
    const target = await findUser('member08');
    await page.goto('/user');
    await row('member08').getByRole('link', { name: 'Edit' }).click();
    await waitForPath(page, `/user/edit/${target.id}`);
    await page.locator('input[name="display_name"]').fill('Eighth Member');
    await page.getByLabel('Group', { exact: true }).first().click();
    await page.getByRole('option', { name: 'vip', exact: true }).click();
    await page.locator('input[name="quota"]').fill('750000');
    await screenshot(page, 'flows/user-edit-admin');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'User info updated!');
    const updated = await findUser('member08');
    expect(updated).toMatchObject({ display_name: 'Eighth Member', group: 'vip', quota: 750000 });
  });

  it('lets a user edit their own profile without group or quota', async () => {
    const context = await signedInContext(
      chromium.browser,
      { baseUrl: server.baseUrl, language: 'en' },
      { username: 'member09', password: 'member-password' },
    );
    const own = await context.newPage();
    await own.goto('/user/edit');
    await own.locator('input[name="display_name"]').waitFor();
    expect(await own.locator('input[name="quota"]').count()).toBe(0);
    await own.locator('input[name="password"]').fill('short');
    await own.getByRole('button', { name: 'Submit' }).click();
    await own.getByText('Password length must not be less than 8').waitFor();
    await own.locator('input[name="password"]').fill('');
    await own.locator('input[name="display_name"]').fill('Ninth');
    await own.getByRole('button', { name: 'Submit' }).click();
    await expectToast(own, 'User info updated!');
    expect((await findUser('member09')).display_name).toBe('Ninth');
    await context.close();
  });
});

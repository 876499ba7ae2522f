import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, ROOT, signedInContext } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;

/** One list: where it lives, how a row is named, and the header (per language) that sorts it. */
interface SortedList {
  path: string;
  table: string;
  cards: string;
  /** The attribute naming a row, on table rows and on cards. */
  rowName: string;
  header: Record<Language, string>;
  /** The menu's option on phones. */
  option: Record<Language, string>;
  order: string;
  /** The names expected at the top once sorted, and at the top in the default order (newest first). */
  sortedTop: string[];
  defaultTop: string[];
}

const LISTS: Record<string, SortedList> = {
  channels: {
    path: '/channel',
    table: 'channels-table',
    cards: 'channels-cards',
    rowName: 'data-channel',
    header: { en: 'Priority', zh: '优先级' },
    option: { en: 'By priority', zh: '按优先级排序' },
    order: 'priority',
    sortedTop: ['ch-high', 'ch-mid', 'ch-low'],
    defaultTop: ['ch-mid', 'ch-high', 'ch-low'],
  },
  tokens: {
    path: '/token',
    table: 'tokens-table',
    cards: 'tokens-cards',
    rowName: 'data-token',
    header: { en: 'Remaining quota', zh: '剩余额度' },
    option: { en: 'By remaining quota', zh: '按剩余额度排序' },
    order: 'remain_quota',
    sortedTop: ['tk-rich', 'tk-middle', 'tk-poor'],
    defaultTop: ['tk-middle', 'tk-poor', 'tk-rich'],
  },
  users: {
    path: '/user',
    table: 'users-table',
    cards: 'users-cards',
    rowName: 'data-username',
    header: { en: 'Remaining quota', zh: '剩余额度' },
    option: { en: 'By remaining quota', zh: '按剩余额度排序' },
    order: 'quota',
    // Root holds a billion and stays first; the members follow by their quota.
    sortedTop: ['root', 'us-rich', 'us-middle', 'us-poor'],
    defaultTop: ['us-middle', 'us-poor', 'us-rich'],
  },
};

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  // Created in this order, so newest first differs from every sort.
  for (const [name, priority] of [
    ['ch-low', -1],
    ['ch-high', 9],
    ['ch-mid', 5],
  ] as const)
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name,
      key: `sk-${name}`,
      models: 'gpt-4o-mini',
      group: 'default',
      priority,
    });
  for (const [name, remain_quota] of [
    ['tk-rich', 900_000],
    ['tk-poor', 1_000],
    ['tk-middle', 50_000],
  ] as const)
    await admin.call('POST', '/api/token/', { name, remain_quota });
  for (const [name, quota] of [
    ['us-rich', 800_000],
    ['us-poor', 2_000],
    ['us-middle', 60_000],
  ] as const) {
    await admin.createUser(name, 'member-password');
    const [user] = await admin.call<Array<{ id: number }>>('GET', `/api/user/search?keyword=${name}`);
    await admin.call('PUT', '/api/user/', { id: user!.id, quota });
  }
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

async function rootPage(language: Language, viewport: typeof DESKTOP): Promise<[BrowserContext, Page]> {
  const context = await signedInContext(
    chromium.browser,
    { baseUrl: server.baseUrl, language, viewport },
    ROOT,
  );
  return [context, await context.newPage()];
}

/** Wait until the first rows (or cards) carry exactly these names, in this order. */
async function expectTop(page: Page, container: string, rowName: string, names: string[]): Promise<void> {
  await page
    .waitForFunction(
      ({ container, rowName, names }) => {
        const shown = [...document.querySelectorAll(`[data-testid="${container}"] [${rowName}]`)]
          .map((row) => row.getAttribute(rowName))
          .slice(0, names.length);
        return JSON.stringify(shown) === JSON.stringify(names);
      },
      { container, rowName, names },
    )
    .catch(async (error: unknown) => {
      const shown = await page
        .locator(`[data-testid="${container}"] [${rowName}]`)
        .evaluateAll((rows, name) => rows.map((row) => row.getAttribute(name)), rowName);
      throw new Error(`expected ${names.join(', ')} first, saw ${shown.join(', ')}: ${String(error)}`);
    });
}

describe.each(['en', 'zh'] as const)('sortable headers at 1280 px (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    [context, page] = await rootPage(language, DESKTOP);
  });
  afterAll(() => context?.close());

  it.each(Object.entries(LISTS))(
    '%s: a header click asks the server for its order and back',
    async (key, list) => {
      await page.goto(list.path);
      await expectTop(page, list.table, list.rowName, list.defaultTop);
      // No menu on wide screens: the headers sort.
      expect(await page.locator('.mantine-Select-root:visible').count()).toBe(0);
      const header = page.locator(`[data-testid="${list.table}"] th`, { hasText: list.header[language] });
      expect(await header.getAttribute('aria-sort')).toBe('none');

      const sorted = page.waitForRequest((r) => new URL(r.url()).searchParams.get('order') === list.order);
      await header.getByRole('button').click();
      await sorted;
      await expectTop(page, list.table, list.rowName, list.sortedTop);
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      expect(await header.textContent()).toContain('↓');
      await screenshot(page, `sorting/${key}-${language}-1280`);

      // Pressed again: back to newest first, which the id (or creation) header then shows.
      const back = page.waitForRequest((r) => new URL(r.url()).searchParams.get('order') === '');
      await header.getByRole('button').click();
      await back;
      await expectTop(page, list.table, list.rowName, list.defaultTop);
      expect(await header.getAttribute('aria-sort')).toBe('none');
      expect(await page.locator(`[data-testid="${list.table}"] th[aria-sort="descending"]`).count()).toBe(1);
    },
  );
});

describe.each(['en', 'zh'] as const)('the order menu at 375 px (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    [context, page] = await rootPage(language, PHONE);
  });
  afterAll(() => context?.close());

  it.each(Object.entries(LISTS))('%s: the menu asks the server for its order', async (key, list) => {
    await page.goto(list.path);
    await expectTop(page, list.cards, list.rowName, list.defaultTop);
    const sorted = page.waitForRequest((r) => new URL(r.url()).searchParams.get('order') === list.order);
    await page.locator('.mantine-Select-root:visible input').click();
    await page.getByRole('option', { name: list.option[language] }).click();
    await sorted;
    await expectTop(page, list.cards, list.rowName, list.sortedTop);
    await screenshot(page, `sorting/${key}-${language}-375`);
  });
});

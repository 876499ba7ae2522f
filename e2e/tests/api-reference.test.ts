import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { settle } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

const WORDS = {
  en: {
    intro: 'The console API (/api',
    group: 'Account',
    summary: 'End every session of the signed-in user',
    filter: 'Filter by path or summary',
    access: 'Who may call',
  },
  zh: {
    intro: '控制台接口（/api',
    group: '账户',
    summary: '结束当前用户的所有会话',
    filter: '按路径或说明筛选',
    access: '调用权限',
  },
};
const LONG_PATH = '/api/user/self/sessions/revoke';

let server: RunningServer;
let chromium: TestBrowser;

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe.each(['en', 'zh'] as const)('the API reference (%s)', (language) => {
  const words = WORDS[language];

  it.each([DESKTOP, PHONE])(
    'shows the intro, groups and summaries in the console language at $width px',
    async (viewport) => {
      const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language, viewport });
      const page = await context.newPage();
      await page.goto('/api-reference');
      const main = page.locator('main');
      await main.getByText(words.intro).waitFor();
      await main.getByRole('heading', { name: words.group, exact: true }).waitFor();
      const row = main.getByRole('button').filter({ hasText: LONG_PATH });
      const summary = row.getByTestId('api-summary');
      expect(await summary.textContent()).toBe(words.summary);
      await summary.scrollIntoViewIfNeeded();
      const box = await summary.boundingBox();
      expect(box && box.width > 0 && box.x + box.width <= viewport.width).toBe(true);

      // The filter finds an operation by its summary in the console's language.
      await page.getByPlaceholder(words.filter).fill(words.summary);
      await expect.poll(() => main.getByRole('button').filter({ hasText: '/api/' }).count()).toBe(1);
      await page.getByPlaceholder(words.filter).fill('');

      // A path breaks only after a slash, and nothing is wider than the window.
      const lines = await row
        .locator('.mantine-Text-root')
        .first()
        .evaluate((element) => {
          const rows = new Map<number, string>();
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let index = 0; index < (node.textContent ?? '').length; index += 1) {
              const range = document.createRange();
              range.setStart(node, index);
              range.setEnd(node, index + 1);
              const top = Math.round(range.getBoundingClientRect().top);
              rows.set(top, (rows.get(top) ?? '') + (node.textContent ?? '')[index]);
            }
          }
          return [...rows.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
        });
      expect(lines.join('')).toBe(LONG_PATH);
      for (const line of lines.slice(0, -1)) expect(line, JSON.stringify(lines)).toMatch(/\/$/);
      if (viewport === PHONE) expect(lines.length, 'the long path wraps on a phone').toBeGreaterThan(1);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);

      // Opened, the operation says who may call it.
      await row.click();
      const panel = page.locator(`[id="${await row.getAttribute('aria-controls')}"]`);
      await panel.getByText(`${words.access}: user`).waitFor();
      await settle(page);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `flows/${language}-${viewport.width}/api-reference-open`, { fullPage: false });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `flows/${language}-${viewport.width}/api-reference-top`, { fullPage: false });
      await context.close();
    },
  );
});

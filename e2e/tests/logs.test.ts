import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInContext } from '../src/console';
import { type FakeServer, startFakeOpenAi } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

interface ApiLog {
  type: number;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  request_id: string;
}

const ALICE = { username: 'alice', password: 'alice-password' };
const BOB = { username: 'bob', password: 'bob-password' };
const ALICE_CALLS = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo',
  'gpt-3.5-turbo',
  'gpt-4o-mini',
  'gpt-4o-mini',
] as const;

let server: RunningServer;
let upstream: FakeServer;
let chromium: TestBrowser;
let admin: AdminApi;
let alice: BrowserContext;
let page: Page;

const tableRows = () => page.locator('[data-testid="logs-table"] tbody tr');

/** Create a token as the context's user and return its key (the list shows it without sk-). */
async function createToken(context: BrowserContext, name: string): Promise<string> {
  const created = await context.request.post('/api/token/', {
    data: { name, remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
  const found = await context.request.get(`/api/token/search?keyword=${name}`);
  const tokens = ((await found.json()) as { data: Array<{ name: string; key: string }> }).data;
  const token = tokens.find((t) => t.name === name);
  if (!token) throw new Error(`token ${name} not found`);
  return token.key;
}

/** A real relay call through the gateway to the fake upstream. */
async function chat(key: string, model: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** How many pixels of the usage chart's canvas are painted in a Mantine colour variable. */
function chartPixels(view: Page, colorVar: string): Promise<number> {
  return view.evaluate((name) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="usage-chart"] canvas');
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return 0;
    const probe = document.createElement('canvas').getContext('2d');
    if (!probe) return 0;
    probe.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let count = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b && pixels[i + 3] === 255) count++;
    }
    return count;
  }, colorVar);
}

async function ownLogs(context: BrowserContext, query = ''): Promise<ApiLog[]> {
  const response = await context.request.get(`/api/log/self/?p=0${query}`);
  return ((await response.json()) as { data: ApiLog[] }).data;
}

beforeAll(async () => {
  server = await startServer();
  upstream = await startFakeOpenAi();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createUser(ALICE.username, ALICE.password);
  await admin.createUser(BOB.username, BOB.password);
  await admin.call('POST', '/api/channel/', {
    type: 1,
    name: 'fake-openai',
    key: 'sk-upstream',
    base_url: upstream.url,
    models: 'gpt-3.5-turbo,gpt-4o-mini',
    group: 'default',
  });
  for (const username of [ALICE.username, BOB.username]) {
    const [user] = await admin.call<Array<{ id: number }>>('GET', `/api/user/search?keyword=${username}`);
    await admin.call('POST', '/api/topup', { user_id: user?.id, quota: 5_000_000, remark: 'e2e credit' });
  }

  alice = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ALICE);
  const bob = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, BOB);
  const aliceKey = await createToken(alice, 'alice-key');
  const bobKey = await createToken(bob, 'bob-key');
  for (const model of ALICE_CALLS) await chat(aliceKey, model);
  await chat(bobKey, 'gpt-3.5-turbo');
  await bob.close();
  // Consumption is logged after the answer; wait until all of it is there.
  for (let tries = 0; (await ownLogs(alice, '&type=2')).length < ALICE_CALLS.length; tries += 1) {
    if (tries > 50) throw new Error('consumption logs did not appear');
    await new Promise((r) => setTimeout(r, 100));
  }
  page = await alice.newPage();
});

afterAll(async () => {
  await alice?.close();
  await chromium?.close();
  await upstream?.close();
  await server?.stop();
});

describe('a user reads their usage', () => {
  it('lists only their own logs, from the self endpoints, with the quota total', async () => {
    const listCall = page.waitForRequest((r) => r.url().includes('/api/log/self/?'));
    const statCall = page.waitForRequest((r) => r.url().includes('/api/log/self/stat?'));
    await page.goto('/log');
    const list = new URL((await listCall).url());
    expect(Object.fromEntries(list.searchParams)).toMatchObject({ p: '0', type: '0', start_timestamp: '0' });
    const end = Number(list.searchParams.get('end_timestamp'));
    expect(Math.abs(end - (Date.now() / 1000 + 3600))).toBeLessThan(120);
    await statCall;

    const own = await ownLogs(alice);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="logs-table"] tbody tr').length === n,
      own.length,
    );
    expect(own.every((log) => log.username === ALICE.username || log.username === '')).toBe(true);
    const headers = await page.locator('[data-testid="logs-table"] thead th').allTextContents();
    expect(headers).not.toContain('Channel');
    expect(headers).not.toContain('User');
    const text = (await page.locator('[data-testid="logs-table"]').textContent()) ?? '';
    expect(text).toContain('alice-key');
    expect(text).not.toContain('bob-key');
    expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);

    const consumed = own.filter((log) => log.type === 2).reduce((sum, log) => sum + log.quota, 0);
    const stat = page.getByTestId('logs-stat');
    await stat.getByText(`$${(consumed / 500000).toFixed(6)}`).waitFor();
    await page.locator('[data-log-type="2"]').first().getByText('Consumption').waitFor();
  });

  it('charts the last 7 days by model on the dashboard', async () => {
    const chart = page.getByTestId('usage-chart');
    await chart.locator('canvas').waitFor();
    expect(await chart.getAttribute('data-series')).toBe('2');
    // Both models' bars are on the canvas, each in its legend colour.
    await expect.poll(() => chartPixels(page, '--mantine-color-blue-6')).toBeGreaterThan(100);
    await expect.poll(() => chartPixels(page, '--mantine-color-teal-6')).toBeGreaterThan(100);
    expect(await page.getByTestId('usage-requests').textContent()).toBe('5');
    const legend = (await page.getByTestId('usage-legend').textContent()) ?? '';
    expect(legend).toContain('gpt-3.5-turbo');
    expect(legend).toContain('gpt-4o-mini');
    expect(await page.getByTestId('usage-tokens').textContent()).toBe((5 * 200).toLocaleString('en-US'));

    await page
      .getByTestId('usage-dashboard')
      .locator('label', { hasText: /^Requests$/ })
      .click();
    // Today is the last bar: hovering it shows the day's numbers.
    const box = await chart.boundingBox();
    if (!box) throw new Error('chart has no box');
    await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
    const tooltip = page.getByTestId('usage-chart-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toContain('gpt-3.5-turbo: 3');
    expect(await tooltip.textContent()).toContain('gpt-4o-mini: 2');
    await screenshot(page, 'flows/log-dashboard-tooltip', { fullPage: false });
  });

  it('filters by model name and by type', async () => {
    await page.locator('input[name="model_name"]').fill('gpt-4o-mini');
    const filtered = page.waitForRequest((r) => r.url().includes('model_name=gpt-4o-mini'));
    await page.getByRole('button', { name: 'Search' }).click();
    expect((await filtered).url()).toContain('/api/log/self/?');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="logs-table"] tbody tr').length === 2,
    );

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('combobox', { name: 'Log type' }).click();
    await page.getByRole('option', { name: 'Top-up', exact: true }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="logs-table"] tbody tr').length === 1,
    );
    expect(await tableRows().first().getAttribute('data-log-type')).toBe('1');
  });

  it('refuses a time it cannot read', async () => {
    await page.locator('input[name="start_timestamp"]').fill('');
    await page.locator('input[name="end_timestamp"]').evaluate((input: HTMLInputElement) => {
      input.type = 'text';
    });
    await page.locator('input[name="end_timestamp"]').fill('someday');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Enter a valid date and time.').waitFor();
    await page.reload();
  });
});

describe('an administrator reads everyone’s usage', () => {
  it('shows channel and user columns and filters by username', async () => {
    const root = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ROOT);
    const rootPage = await root.newPage();
    const listCall = rootPage.waitForRequest((r) => new URL(r.url()).pathname === '/api/log/');
    await rootPage.goto('/log');
    await listCall;
    await rootPage.locator('[data-testid="logs-table"] tbody tr').first().waitFor();
    const headers = await rootPage.locator('[data-testid="logs-table"] thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Channel', 'User']));
    const text = (await rootPage.locator('[data-testid="logs-table"]').textContent()) ?? '';
    expect(text).toContain('alice-key');
    expect(text).toContain('bob-key');

    // 8 logs so far; three more top-ups make a second server page, fetched from the page buttons.
    const [bob] = await admin.call<Array<{ id: number }>>('GET', `/api/user/search?keyword=${BOB.username}`);
    for (const quota of [1000, 2000, 3000]) {
      await admin.call('POST', '/api/topup', { user_id: bob?.id, quota, remark: `extra ${quota}` });
    }
    await rootPage.getByRole('button', { name: 'Search' }).click();
    await rootPage.getByText('extra 3000').waitFor();
    expect(await rootPage.locator('[data-testid="logs-table"] tbody tr').count()).toBe(10);
    const nextPage = rootPage.waitForRequest(
      (r) => r.url().includes('/api/log/?') && r.url().includes('p=1'),
    );
    await rootPage.locator('.mantine-Pagination-control', { hasText: '2' }).click();
    await nextPage;
    await rootPage.waitForFunction(
      () => document.querySelectorAll('[data-testid="logs-table"] tbody tr').length === 1,
    );

    await rootPage.locator('input[name="username"]').fill('bob');
    await rootPage.getByRole('button', { name: 'Search' }).click();
    await rootPage.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="logs-table"] tbody tr')];
      return rows.length > 0 && rows.every((row) => row.textContent?.includes('bob'));
    });

    // The dashboard: everyone's use by default, the admin's own (none) on request.
    await rootPage.getByTestId('usage-requests').getByText('6', { exact: true }).waitFor();
    await rootPage.getByRole('combobox', { name: 'Whose usage' }).click();
    await rootPage.getByRole('option', { name: 'My usage' }).click();
    await rootPage.getByTestId('usage-dashboard').getByText('No usage in this period').waitFor();
    await rootPage.getByRole('combobox', { name: 'Whose usage' }).click();
    await rootPage.getByRole('option', { name: 'One user' }).click();
    await rootPage.locator('input[name="dashboard_username"]').fill('bob');
    await rootPage.getByRole('button', { name: 'Show', exact: true }).click();
    await rootPage.getByTestId('usage-requests').getByText('1', { exact: true }).waitFor();
    await root.close();
  });
});

describe('the Chinese console says log details in Chinese', () => {
  const ONE_API_ROW = '通过兑换码充值 $1.000000 额度';

  beforeAll(async () => {
    const [code] = await admin.call<string[]>('POST', '/api/redemption/', {
      name: 'e2e',
      quota: 2_000_000,
      count: 1,
    });
    const redeemed = await alice.request.post('/api/user/topup', { data: { key: code } });
    expect(((await redeemed.json()) as { success: boolean }).success).toBe(true);
    // A row one-api wrote to the same database: its own columns, Chinese text, no facts.
    const [user] = await admin.call<Array<{ id: number }>>(
      'GET',
      `/api/user/search?keyword=${ALICE.username}`,
    );
    const db = new Database(server.databasePath);
    db.prepare(
      `insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
        prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
        values (?, ?, 1, ?, ?, '', '', 500000, 0, 0, 0, '', 0, 0, 0)`,
    ).run(user?.id, Math.floor(Date.now() / 1000), ONE_API_ROW, ALICE.username);
    db.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`consumption, redemption and top-up details, and one-api's row as it is (${viewport.width})`, async () => {
      const context = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language: 'zh', viewport },
        ALICE,
      );
      const view = await context.newPage();
      await view.goto('/log');
      const logs = view.getByTestId(viewport === PHONE ? 'logs-cards' : 'logs-table');
      await logs.getByText('模型倍率 0.25 × 分组倍率 1.00 × 补全倍率 3.00').first().waitFor();
      await logs.getByText('通过兑换码充值 $4.000000', { exact: true }).waitFor();
      await logs.getByText(ONE_API_ROW, { exact: true }).waitFor();
      // The administrator's remark is shown as they wrote it.
      await logs.getByText('e2e credit', { exact: true }).waitFor();
      expect(await logs.textContent()).not.toMatch(/model ratio|Redeemed a code/);
      await context.close();
    });
  }
});

describe('long names at 1280 px, and the request id', () => {
  const MODEL = 'claude-3-haiku@20240307';
  let requestId = '';

  beforeAll(async () => {
    // Long names, as real teams give them: the table must still fit at 1280 px.
    const longModel = 'gpt-4o-mini-2024-07-18-eu-west-deployment';
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name: 'fake-openai-long',
      key: 'sk-upstream',
      base_url: upstream.url,
      models: longModel,
      group: 'default',
    });
    const bob = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, BOB);
    await chat(await createToken(bob, 'marketing-team-shared-key-2026'), longModel);
    await bob.close();
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name: 'fake-openai-vertex-names',
      key: 'sk-upstream',
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
    });
    await chat(await createToken(alice, 'vertex-key'), MODEL);
    // Consumption is logged after the answer.
    let [log] = await ownLogs(alice, `&model_name=${MODEL}`);
    for (let tries = 0; !log; tries += 1) {
      if (tries > 50) throw new Error('the consumption log did not appear');
      await new Promise((r) => setTimeout(r, 100));
      [log] = await ownLogs(alice, `&model_name=${MODEL}`);
    }
    requestId = log?.request_id ?? '';
    expect(requestId).toMatch(/^\d{25}$/);
  });

  it('keeps a model id to at most two lines in the administrator’s English table', async () => {
    const root = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ROOT);
    const view = await root.newPage();
    await view.goto('/log');
    const cell = view.locator('[data-testid="logs-table"] td', { hasText: MODEL }).first();
    await cell.waitFor();
    await view.evaluate(() => document.fonts.ready);
    const lines = await cell.evaluate((td) => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let index = 0; index < (node.textContent ?? '').length; index += 1) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          tops.add(Math.round(range.getBoundingClientRect().top));
        }
      }
      return tops.size;
    });
    expect(lines).toBeLessThanOrEqual(2);
    await root.close();
  });

  const COPIED = { en: 'Request ID copied: ', zh: '已复制请求 ID：' };
  for (const [language, viewport] of [
    ['en', DESKTOP],
    ['zh', PHONE],
  ] as const) {
    it(`copies the request id on a click or tap (${language}, ${viewport.width})`, async () => {
      const context = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        ALICE,
      );
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      const view = await context.newPage();
      await view.goto('/log');
      const list = view.getByTestId(viewport === PHONE ? 'logs-cards' : 'logs-table');
      const entry = list.locator('[data-log-type="2"]', { hasText: MODEL });
      const button = entry.getByTestId('log-request-id');
      if (viewport === PHONE) {
        // A tap target on phones: 44 × 44 px at least (docs/decisions.md).
        const box = await button.boundingBox();
        expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(44);
      }
      await button.click();
      await expectToast(view, `${COPIED[language]}${requestId}`);
      expect(await view.evaluate(() => navigator.clipboard.readText())).toBe(requestId);
      await settle(view);
      await entry.scrollIntoViewIfNeeded();
      await screenshot(view, `flows/${language}-${viewport.width}/log-request-id-copied`, {
        fullPage: false,
      });
      await context.close();
    });
  }
});

describe('screenshots', () => {
  // The long names of the previous suite are in the lists too.

  for (const language of ['en', 'zh'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`log page for a user and an admin (${language}, ${viewport.width})`, async () => {
        for (const who of [ALICE, ROOT]) {
          const context = await signedInContext(
            chromium.browser,
            { baseUrl: server.baseUrl, language: language, viewport },
            who,
          );
          const view = await context.newPage();
          await view.goto('/log');
          await view
            .locator(viewport === PHONE ? '[data-testid="logs-cards"]' : '[data-testid="logs-table"]')
            .waitFor();
          if (who === ALICE) await view.getByTestId('usage-chart').locator('canvas').waitFor();
          await view.evaluate(() => document.fonts.ready);
          if (viewport === DESKTOP) {
            // The whole table fits at 1280 px: no sideways scrolling, nothing cut.
            const overflow = await view.getByTestId('logs-table').evaluate((table) => {
              const viewport = table.closest('.mantine-ScrollArea-viewport');
              return viewport ? viewport.scrollWidth - viewport.clientWidth : Number.NaN;
            });
            expect(overflow, `${who.username} ${language}`).toBeLessThanOrEqual(0);
          }
          await screenshot(
            view,
            `${language}-${viewport.width}/log-${who === ROOT ? 'admin' : 'user'}-filled`,
          );
          if (who === ALICE && viewport === PHONE) {
            // Tapping today's bar on a phone shows its numbers, inside the screen.
            const chart = view.getByTestId('usage-chart');
            await chart.scrollIntoViewIfNeeded();
            const box = await chart.boundingBox();
            if (!box) throw new Error('chart has no box');
            await view.mouse.click(box.x + box.width - 20, box.y + box.height / 2);
            const tooltip = view.getByTestId('usage-chart-tooltip');
            await tooltip.waitFor();
            const tip = await tooltip.boundingBox();
            expect(tip?.x).toBeGreaterThanOrEqual(0);
            expect((tip?.x ?? 0) + (tip?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
            expect(await tooltip.textContent()).toContain('gpt-3.5-turbo');
            await screenshot(view, `flows/log-dashboard-tooltip-${language}-375`, { fullPage: false });
          }
          await context.close();
        }
      });
    }
  }
});

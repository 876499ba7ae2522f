import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signInContext } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

// A failed channel test says what went wrong in the console's language, and shows the configuration
// that reveals a typo (a Bedrock region) while the credentials stay out.

const REGION_TYPO = 'us-wset-2';
const ACCESS_KEY_ID = 'AKIAE2ECHANNELTEST01';
const SECRET_KEY = 'e2eSecretAccessKey/0123456789abcdefghij';
const HOST = `bedrock-runtime.${REGION_TYPO}.amazonaws.com`;

const TEXT = {
  en: {
    test: 'Test',
    unreachable: 'Could not reach the upstream: ',
    failed: ': failed. Could not reach the upstream: ',
  },
  zh: { test: '测试', unreachable: '无法连接上游：', failed: '：失败。无法连接上游：' },
};

let server: RunningServer;
let chromium: TestBrowser;
let channelId: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.call('POST', '/api/channel/', {
    type: 33,
    name: 'bedrock-typo',
    key: '',
    config: JSON.stringify({ region: REGION_TYPO, ak: ACCESS_KEY_ID, sk: SECRET_KEY }),
    models: 'claude-3-haiku-20240307',
    group: 'default',
  });
  channelId = (await root.call<Array<{ id: number }>>('GET', '/api/channel/?p=0'))[0]!.id;
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe.each(['en', 'zh'] as const)('a failed channel test (%s)', (language) => {
  const text = TEXT[language];

  it('says why in the console language, with the host it tried and without the credentials', async () => {
    const context = await newContext(chromium.browser, {
      baseUrl: server.baseUrl,
      language,
      viewport: DESKTOP,
    });
    contexts.push(context);
    await signInContext(context, ROOT.username, ROOT.password);
    const page = await context.newPage();
    await page.goto('/channel');
    const row = page.locator(`[data-testid="channels-table"] tr[data-id="${channelId}"]`);
    await row.getByRole('button', { name: text.test, exact: true }).click();
    await expectToast(page, `${text.unreachable}getaddrinfo ENOTFOUND ${HOST}`);

    await page.reload();
    const badge = row.getByTestId('response-time');
    await expect.poll(() => badge.getAttribute('data-color')).toBe('red');
    await badge.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.getByText(text.failed, { exact: false }).waitFor();
    const said = (await tooltip.textContent()) ?? '';
    expect(said).toContain(HOST);
    expect(said).not.toContain(ACCESS_KEY_ID);
    expect(said).not.toContain(SECRET_KEY);
    await settle(page);
    await screenshot(page, `channel-test-failure/${language}-1280`, { fullPage: false });

    await page.setViewportSize(PHONE);
    const card = page.locator(`[data-testid="channels-cards"] [data-id="${channelId}"]`);
    await card.getByTestId('response-time').click();
    await page.getByRole('tooltip').getByText(text.failed, { exact: false }).waitFor();
    await settle(page);
    await screenshot(page, `channel-test-failure/${language}-375`, { fullPage: false });
  });
});

import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInPage } from '../src/console';
import { type FakeServer, startFake } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

// A failed channel test says what went wrong in the console's language, and shows the configuration
// that reveals a typo (a Bedrock region) while the credentials stay out. A fake Bedrock (the channel's
// base URL) refuses the call naming the region and the credentials it was sent, as a provider may.

const REGION_TYPO = 'us-wset-2';
const ACCESS_KEY_ID = 'AKIAE2ECHANNELTEST01';
const SECRET_KEY = 'e2eSecretAccessKey/0123456789abcdefghij';
const REFUSAL = `No Bedrock endpoint in region ${REGION_TYPO} for ${ACCESS_KEY_ID} (${SECRET_KEY})`;
const SHOWN = `No Bedrock endpoint in region ${REGION_TYPO} for [redacted]`;

const TEXT = {
  en: { test: 'Test', toast: SHOWN, failed: ': failed. ' },
  zh: { test: '测试', toast: `上游返回错误：${SHOWN}`, failed: '：失败。上游返回错误：' },
};

let bedrock: FakeServer;
let server: RunningServer;
let chromium: TestBrowser;
let channelId: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  bedrock = await startFake((_req, _body, res) => {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: REFUSAL }));
  });
  server = await startServer();
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.call('POST', '/api/channel/', {
    type: 33,
    name: 'bedrock-typo',
    key: '',
    base_url: bedrock.url,
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
  await bedrock?.close();
});

describe.each(['en', 'zh'] as const)('a failed channel test (%s)', (language) => {
  const text = TEXT[language];

  it('says why in the console language, with the region it was given and without the credentials', async () => {
    const page = await signedInPage(
      chromium.browser,
      { baseUrl: server.baseUrl, language, viewport: DESKTOP },
      ROOT,
      contexts,
    );
    await page.goto('/channel');
    const row = page.locator(`[data-testid="channels-table"] tr[data-id="${channelId}"]`);
    await row.getByRole('button', { name: text.test, exact: true }).click();
    await expectToast(page, text.toast);

    await page.reload();
    const badge = row.getByTestId('response-time');
    // Waits as long as the reloaded list takes (expect.poll gave up after 1 s on a loaded machine).
    await row.locator('[data-testid="response-time"][data-color="red"]').waitFor();
    await badge.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.getByText(text.failed, { exact: false }).waitFor();
    const said = (await tooltip.textContent()) ?? '';
    expect(said).toContain(REGION_TYPO);
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

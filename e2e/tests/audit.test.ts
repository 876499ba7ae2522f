import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, ROOT, signedInPage } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

const CHANNEL_KEY = 'sk-e2e-audit-channel-secret';
const ADMIN = { username: 'opsadmin', password: 'ops-password' };

let server: RunningServer;
let chromium: TestBrowser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.createAdmin(ADMIN.username, ADMIN.password);
  await root.call('POST', '/api/channel/', {
    type: 1,
    name: 'audited-channel',
    key: CHANNEL_KEY,
    models: 'gpt-4o-mini',
    group: 'default',
  });
  await root.setOptions({ SystemName: 'Audited gateway' });
  const admin = new AdminApi(server.baseUrl);
  await admin.login(ADMIN.username, ADMIN.password);
  await admin.createUser('carol', 'carol-password', 'Carol');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

async function auditPage(
  account: { username: string; password: string },
  language: Language,
  viewport: { width: number; height: number },
): Promise<Page> {
  const page = await signedInPage(
    chromium.browser,
    { baseUrl: server.baseUrl, language, viewport },
    account,
    contexts,
  );
  await page.goto('/audit');
  await page.locator('[data-audit-id]').first().waitFor();
  return page;
}

describe('the audit log page', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`shows root every change on a desktop, secrets masked (${language})`, async () => {
      const page = await auditPage(ROOT, language, DESKTOP);
      const table = page.locator('[data-testid="audit-table"]');
      await table.waitFor();
      const text = (await table.textContent()) ?? '';
      expect(text).toContain('audited-channel');
      expect(text).toContain('[secret]');
      expect(text).not.toContain(CHANNEL_KEY);
      expect(text).toContain(language === 'en' ? 'Created channel' : '创建渠道');
      expect(text).toContain(ADMIN.username);
      await screenshot(page, `audit/${language}-1280-root`);

      await page.locator('input[name="action"]').fill('option.update');
      await page.getByRole('button', { name: language === 'en' ? 'Search' : '查询' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-audit-id]').length === 1);
      expect(await table.textContent()).toContain('Audited gateway');
      await screenshot(page, `audit/${language}-1280-filtered`);
    });

    it(`shows cards on a phone, and an admin none of root's entries (${language})`, async () => {
      const page = await auditPage(ADMIN, language, PHONE);
      const cards = page.locator('[data-testid="audit-cards"]');
      await cards.waitFor();
      const text = (await cards.textContent()) ?? '';
      expect(text).toContain('carol');
      expect(text).not.toContain('audited-channel');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, `audit/${language}-375-admin`);
    });
  }

  it('is not in the menu of a common user, and the API reference lists the audit route', async () => {
    const page = await signedInPage(
      chromium.browser,
      { baseUrl: server.baseUrl, language: 'en' },
      { username: 'carol', password: 'carol-password' },
      contexts,
    );
    await page.goto('/about');
    await page.getByTestId('api-reference-link').waitFor();
    await screenshot(page, 'audit/en-1280-about');
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.getByText('/api/audit/').first().waitFor();
    await screenshot(page, 'audit/en-1280-api-reference');
    expect(await page.locator('header').getByRole('link', { name: 'Audit', exact: true }).count()).toBe(0);
    await page.setViewportSize(PHONE);
    await page.getByPlaceholder('Filter by path or summary').fill('/v1/chat/completions');
    await page.getByText('/v1/chat/completions').click();
    await page.getByText('"messages"').first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'audit/en-375-api-reference', { fullPage: false });
  });
});

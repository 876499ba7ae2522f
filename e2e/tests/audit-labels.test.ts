import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, ROOT, signedInPage } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

// The audit page names targets and fields with the console's own labels in each language, and records
// an administrator's own credentials changing (root's system access token, an admin's profile).

const ADMIN = { username: 'opsadmin', password: 'ops-password' };

/** What the page must say: never a raw field or target type name. */
const WORDS = {
  en: {
    accessToken: 'New system access token',
    ownProfile: 'Changed own profile',
    rootTarget: 'user #1 root',
    optionTarget: 'setting System name',
    quota: 'Quota: 100 → 500',
    expiry: 'Expiry time: -1 → 4102444800',
  },
  zh: {
    accessToken: '重新生成系统访问令牌',
    ownProfile: '修改个人信息',
    rootTarget: '用户 #1 root',
    optionTarget: '设置 系统名称',
    quota: '额度: 100 → 500',
    expiry: '过期时间: -1 → 4102444800',
  },
};

let server: RunningServer;
let chromium: TestBrowser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.createAdmin(ADMIN.username, ADMIN.password);
  await root.setOptions({ SystemName: 'Audited gateway' });
  await root.call('GET', '/api/user/token');
  const admin = new AdminApi(server.baseUrl);
  await admin.login(ADMIN.username, ADMIN.password);
  await admin.call('PUT', '/api/user/self', { display_name: 'Ops' });
  const key = await admin.call<{ id: number }>('POST', '/api/token/', {
    name: 'ops-key',
    remain_quota: 100,
    expired_time: -1,
  });
  await admin.call('PUT', '/api/token/', {
    id: key.id,
    name: 'ops-key',
    remain_quota: 500,
    expired_time: 4102444800,
  });
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe.each(['en', 'zh'] as const)('audit labels (%s)', (language) => {
  it("names targets and fields with the console's labels, at 1280 and 375 px", async () => {
    const words = WORDS[language];
    const page = await signedInPage(
      chromium.browser,
      { baseUrl: server.baseUrl, language, viewport: DESKTOP },
      ROOT,
      contexts,
    );
    await page.goto('/audit');
    const table = page.getByTestId('audit-table');
    const cards = page.getByTestId('audit-cards');
    for (const [view, width] of [
      [table, 1280],
      [cards, 375],
    ] as const) {
      if (width === 375) await page.setViewportSize(PHONE);
      await view.locator('[data-audit-id]').first().waitFor();
      const text = (await view.textContent()) ?? '';
      for (const expected of Object.values(words)) expect(text).toContain(expected);
      expect(text).not.toMatch(/remain_quota|expired_time|access_token|display_name/);
      if (language === 'zh') expect(text).not.toMatch(/\b(?:user|token|channel|option) /);
      await screenshot(page, `audit-labels/${language}-${width}`);
    }
  });
});

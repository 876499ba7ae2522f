import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  type Language,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  type TestBrowser,
} from '../src/browser';
import { AdminApi, loginThroughForm, settle, signedInPage, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

const STEP_MS = 30_000;

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

const codeOf = (secret: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

/** Screenshots at 1280 px and 375 px of the same page, and no horizontal scrolling on the phone. */
async function bothWidths(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize(DESKTOP);
  await settle(page);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await settle(page);
  await screenshot(page, `${name}-375`);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize(DESKTOP);
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe('two-factor sign-in', () => {
  for (const language of ['en', 'zh'] as Language[]) {
    it(`enrols in the personal settings and signs in with the second step (${language})`, async () => {
      const user = { username: `tf_${language}`, password: 'two-factor-pw' };
      await admin.createUser(user.username, user.password);
      const page = await signedInPage(
        chromium.browser,
        { baseUrl: server.baseUrl, language },
        user,
        contexts,
      );

      await page.goto('/setting');
      const card = page.getByTestId('two-factor-card');
      await card.getByRole('button').click();
      const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expect
        .poll(() => page.getByTestId('two-factor-qr').evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await bothWidths(page, `two-factor/${language}-enrol`);

      await page.getByTestId('two-factor-confirm').locator('input[name="code"]').fill(codeOf(secret));
      await page.getByTestId('two-factor-confirm').locator('button[type="submit"]').click();
      const codes = page.getByTestId('recovery-codes');
      await codes.waitFor();
      expect(await codes.locator('code').count()).toBe(10);
      await bothWidths(page, `two-factor/${language}-recovery-codes`);
      await codes.getByRole('button').last().click();
      await page.getByTestId('two-factor-disable').waitFor();

      const visitor = await newContext(chromium.browser, { baseUrl: server.baseUrl, language });
      contexts.push(visitor);
      const login = await visitor.newPage();
      await loginThroughForm(login, user.username, user.password);
      const step = login.getByTestId('two-factor-step');
      await step.waitFor();
      await bothWidths(login, `two-factor/${language}-login-step`);
      // The step the enrolment used is spent: the next one's code (the server takes ±1 step).
      await step.locator('input[name="code"]').fill(codeOf(secret, Date.now() + STEP_MS));
      await step.locator('button[type="submit"]').click();
      await waitForPath(login, '/token');
    });
  }
});

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
/** Passkeys need a host name: WebAuthn takes no IP address as the site they belong to. */
let baseUrl: string;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

const codeOf = (secret: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

/** Chromium's virtual authenticator in the page (DevTools' WebAuthn domain), holding `credentials`. */
async function virtualAuthenticator(page: Page, credentials: unknown[] = []) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  for (const credential of credentials) {
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential } as never);
  }
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

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
  baseUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
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
    it(`enrols in the personal settings, adds a passkey, signs in with the second step (${language})`, async () => {
      const user = { username: `tf_${language}`, password: 'two-factor-pw' };
      await admin.createUser(user.username, user.password);
      const page = await signedInPage(chromium.browser, { baseUrl, language }, user, contexts);

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

      // A passkey beside the code: made by the browser's (virtual) authenticator.
      const device = await virtualAuthenticator(page);
      const passkeys = page.getByTestId('passkeys');
      await passkeys.locator('input[name="passkey_name"]').fill('Laptop');
      await passkeys.locator('button[type="submit"]').click();
      await passkeys.getByTestId('passkey').waitFor();
      await bothWidths(page, `two-factor/${language}-passkeys`);
      const [credential] = await device.credentials();

      const visitor = await newContext(chromium.browser, { baseUrl, language });
      contexts.push(visitor);
      const login = await visitor.newPage();
      // The same passkey on this browser too (a passkey synced across devices).
      await virtualAuthenticator(login, [credential]);
      await loginThroughForm(login, user.username, user.password);
      const step = login.getByTestId('two-factor-step');
      await step.waitFor();
      await bothWidths(login, `two-factor/${language}-login-step`);
      if (language === 'en') {
        await step.getByRole('button', { name: 'Use a passkey' }).click();
      } else {
        // The step the enrolment used is spent: the next one's code (the server takes ±1 step).
        await step.locator('input[name="code"]').fill(codeOf(secret, Date.now() + STEP_MS));
        await step.locator('button[type="submit"]').click();
      }
      await waitForPath(login, '/token');
    });
  }
});

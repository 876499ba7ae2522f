import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, type TestBrowser } from '../src/browser';
import { ROOT, signedInContext } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
const contexts: BrowserContext[] = [];

/** Everything a page complains about: console errors, uncaught exceptions and CSP violations. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

async function tour(page: Page, paths: string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(path);
    await page.locator('main').waitFor();
    await page.getByTestId('page-loading').first().waitFor({ state: 'detached' });
    await page.waitForLoadState('networkidle');
  }
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe('the console under its Content-Security-Policy', () => {
  it('is served with the policy', async () => {
    const response = await fetch(`${server.baseUrl}/token`, { headers: { accept: 'text/html' } });
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('shows the public pages with no console error or violation', async () => {
    const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' });
    contexts.push(context);
    const { page, problems } = await watchedPage(context);
    await tour(page, ['/', '/login', '/register', '/reset', '/about']);
    expect(problems).toEqual([]);
  });

  it('shows the signed-in pages with no console error or violation', async () => {
    const context = await signedInContext(
      chromium.browser,
      { baseUrl: server.baseUrl, language: 'zh' },
      ROOT,
    );
    contexts.push(context);
    const { page, problems } = await watchedPage(context);
    const consoleCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) {
        consoleCalls.push(request.headers()['x-requested-with'] ?? 'none');
      }
    });
    await tour(page, [
      '/',
      '/channel',
      '/channel/add',
      '/token',
      '/redemption',
      '/user',
      '/log',
      '/setting',
      '/topup',
    ]);
    expect(problems).toEqual([]);
    // Every API call of the console says it is the console's (the server's same-origin sign).
    expect(consoleCalls.length).toBeGreaterThan(0);
    expect(new Set(consoleCalls)).toEqual(new Set(['switchyard-console']));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, type TestBrowser } from '../src/browser';
import { type RunningServer, startServer } from '../src/server';

// GLOBAL_WEB_RATE_LIMIT counts page loads, not the ~25 scripts, styles and images a first visit fetches.
const PAGE_LOADS = 4;
let server: RunningServer;
let chromium: TestBrowser;

beforeAll(async () => {
  server = await startServer({ GLOBAL_WEB_RATE_LIMIT: String(PAGE_LOADS) });
  chromium = await launchBrowser();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('the web rate limit', () => {
  it('lets as many fresh browsers load the console as it allows page loads, every file included', async () => {
    for (let visit = 1; visit <= PAGE_LOADS; visit++) {
      const context = await newContext(chromium.browser, { baseUrl: server.baseUrl });
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 429) refused.push(response.url());
      });
      await page.goto('/login');
      await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
      // The logo is a real picture, not a broken one.
      await page.waitForFunction(() => {
        const logo = document.querySelector<HTMLImageElement>('header img');
        return logo?.complete === true && logo.naturalWidth > 0;
      });
      expect(refused, `visit ${visit}`).toEqual([]);
      await context.close();
    }
    // The next page load is over the limit.
    const over = await fetch(`${server.baseUrl}/`);
    expect(over.status).toBe(429);
  });
});

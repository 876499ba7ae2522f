import { gzipSync } from 'node:zlib';
import type { BrowserContext, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Language, launchBrowser, newContext, type TestBrowser } from '../src/browser';
import { type RunningServer, startServer } from '../src/server';

/** The sign-in page's budget: what a first visit costs, cold cache. */
const MAX_REQUESTS = 10;
const MAX_SCRIPT_KB = 150;

let server: RunningServer;
let chromium: TestBrowser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

interface Script {
  url: string;
  gzipBytes: number;
}

/**
 * Opens /login in a fresh context and waits until the form can be used (both fields and the button
 * enabled) and the network has gone quiet, so that whatever loads just after the form counts as well.
 * Counts every request the page made (document, scripts, styles, images, /api calls) and the gzip size
 * of each script's body.
 */
async function firstLoad(language: Language) {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language });
  contexts.push(context);
  const page = await context.newPage();
  const requests: Request[] = [];
  const scripts: Promise<Script>[] = [];
  page.on('request', (request) => requests.push(request));
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => ({ url: response.url(), gzipBytes: gzipSync(body).length })));
  });
  const started = Date.now();
  await page.goto('/login');
  const form = page.locator('form');
  for (const control of ['input[name="username"]', 'input[name="password"]', 'button[type="submit"]']) {
    await form.locator(control).waitFor();
    await expect(form.locator(control).isEnabled()).resolves.toBe(true);
  }
  const usableAfterMs = Date.now() - started;
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  const paintMs = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  const scriptKb = loaded.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024;
  const paths = requests.map((request) => new URL(request.url()).pathname);
  console.log(
    `First load of /login (${language}): ${requests.length} requests, ${scriptKb.toFixed(1)} KB gzip of JS ` +
      `in ${loaded.length} files, first contentful paint ${paintMs.toFixed(0)} ms, form usable after ` +
      `${usableAfterMs} ms\n  ${paths.join('\n  ')}`,
  );
  return { requests: requests.length, scriptKb };
}

describe('the sign-in page on a first visit', () => {
  it('needs at most 10 requests and 150 KB gzip of JavaScript (English)', async () => {
    const { requests, scriptKb } = await firstLoad('en');
    expect(requests).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(scriptKb).toBeLessThanOrEqual(MAX_SCRIPT_KB);
  });

  it('needs at most 10 requests and 150 KB gzip of JavaScript (Chinese)', async () => {
    const { requests, scriptKb } = await firstLoad('zh');
    expect(requests).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(scriptKb).toBeLessThanOrEqual(MAX_SCRIPT_KB);
  });
});

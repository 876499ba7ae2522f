import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser, PHONE, type TestBrowser } from '../src/browser';
import { type RunningServer, startServer } from '../src/server';
import { tourRoutes } from '../src/tour';

let server: RunningServer;
let chromium: TestBrowser;

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('every route at 375 px', () => {
  it('renders in English', async () => {
    await tourRoutes(chromium.browser, server.baseUrl, 'en', PHONE);
  }, 180_000);

  it('renders in Chinese', async () => {
    await tourRoutes(chromium.browser, server.baseUrl, 'zh', PHONE);
  }, 180_000);
});

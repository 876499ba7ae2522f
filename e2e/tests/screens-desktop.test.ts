import { afterAll, beforeAll, describe, it } from 'vitest';
import { DESKTOP, launchBrowser, type TestBrowser } from '../src/browser';
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

describe('every route at 1280 px', () => {
  it('renders in English', async () => {
    await tourRoutes(chromium.browser, server.baseUrl, 'en', DESKTOP);
  }, 180_000);

  it('renders in Chinese', async () => {
    await tourRoutes(chromium.browser, server.baseUrl, 'zh', DESKTOP);
  }, 180_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_LOAD, startTestApp, type TestApp } from './harness';

/** Unknown paths of the APIs, ours and one-api's: a JSON 404 whether or not the console is built. */
const API_PATHS = [
  '/metrics',
  '/v1',
  '/v1/nothing',
  '/v1beta/files',
  '/v2/models',
  '/api/nothing',
  '/healthz/deep',
  '/health',
  '/livez',
  '/ready',
  '/dashboard/billing/nothing',
  '/mj/submit/imagine',
  '/oneapi/proxy/1/x',
  '//api/nothing',
];

/** What Prometheus sends when it scrapes. */
const SCRAPE = {
  accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2',
};

async function expectJson404(t: TestApp, url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(t.baseUrl + url, { headers });
  const label = `${url} ${headers.accept}`;
  expect(response.status, label).toBe(404);
  expect(response.headers.get('content-type'), label).toContain('application/json');
  expect(JSON.stringify(await response.json()), label).not.toContain('<');
}

/** Both states of a checkout: the console built (a folder of our own) and not built. */
describe.each([
  { state: 'built', built: true },
  { state: 'not built', built: false },
])('unknown paths with the console $state', ({ built }) => {
  let t: TestApp;
  let dir: string | undefined;
  beforeAll(async () => {
    if (built) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
      fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    }
    t = await startTestApp(dir ? { env: { WEB_DIST: dir } } : {});
  });
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers an API's unknown path with a JSON 404, even to a browser", async () => {
    for (const url of API_PATHS) {
      await expectJson404(t, url, PAGE_LOAD);
      await expectJson404(t, url, { accept: '*/*' });
    }
    const relay = await (await fetch(`${t.baseUrl}/v1beta/files`)).json();
    expect(relay).toMatchObject({ error: { message: 'Invalid URL (GET /v1beta/files)' } });
    const management = await (await fetch(`${t.baseUrl}/api/nothing`)).json();
    expect(management).toMatchObject({ success: false });
  });

  it('never answers a Prometheus scrape with HTML, on /metrics or any other path', async () => {
    for (const url of ['/metrics', '/prometheus', '/token']) await expectJson404(t, url, SCRAPE);
  });

  it(
    built ? 'answers a browser deep link with index.html' : 'answers a browser deep link with a 404',
    async () => {
      for (const url of ['/token/edit/3', '/api-reference', '/login?expired=true', '/healthy-eating']) {
        const response = await fetch(t.baseUrl + url, { headers: PAGE_LOAD });
        expect(response.status, url).toBe(built ? 200 : 404);
        if (built) expect(await response.text(), url).toContain('<div id="root">');
      }
    },
  );
});

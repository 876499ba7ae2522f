import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, PAGE_LOAD, startTestApp, type TestApp } from './harness';

/** The GETs that change something: a browser may run them only from this site. */
const STATE_CHANGING_GETS = [
  '/api/user/logout',
  '/api/user/token',
  '/api/channel/test',
  '/api/channel/test/999',
  '/api/channel/update_balance/999',
  '/api/oauth/state',
  '/api/oauth/github?code=c&state=s',
  '/api/oauth/wechat?code=c',
  '/api/oauth/wechat/bind?code=c',
  '/api/oauth/email/bind?email=mallory%40example.com&code=123456',
  '/api/verification?email=mallory%40example.com',
];

describe('security headers and cross-site calls', () => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(consoleDir, 'assets'));
    fs.writeFileSync(path.join(consoleDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await startTestApp({ env: { WEB_DIST: consoleDir } });
    root = await t.root();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A call as a browser would send it, with root's session cookie and nothing of the console's. */
  const browserGet = (url: string, headers: Record<string, string> = {}) =>
    fetch(t.baseUrl + url, { headers: { cookie: root.cookie, ...headers } });

  it('serves the console with a CSP that forbids inline script and framing', async () => {
    for (const url of ['/', '/token/edit/3', '/assets/app-abc123.js']) {
      const response = await fetch(t.baseUrl + url, { headers: PAGE_LOAD });
      expect(response.status, url).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src '));
      expect(scriptSrc, url).toBe("script-src 'self' https://challenges.cloudflare.com");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('marks API answers nosniff and never cacheable, by session or access token', async () => {
    const token = (await root.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    for (const headers of [{ cookie: root.cookie }, { authorization: `Bearer ${token}` }]) {
      const response = await fetch(`${t.baseUrl}/api/user/self`, { headers });
      expect(((await response.json()) as EnvelopeBody).success).toBe(true);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('refuses a state-changing GET from another site, or with the cookie and no sign of this site', async () => {
    const signals: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
      {},
    ];
    for (const url of STATE_CHANGING_GETS) {
      for (const headers of signals) {
        const response = await browserGet(url, headers);
        const label = `${url} ${JSON.stringify(headers)}`;
        expect(response.status, label).toBe(403);
        expect(await response.json(), label).toMatchObject({ success: false, code: 'cross_site_call' });
      }
    }
    const zh = await browserGet('/api/user/token', {
      'sec-fetch-site': 'cross-site',
      'accept-language': 'zh',
    });
    expect(((await zh.json()) as EnvelopeBody).message).toContain('并非来自本站');
  });

  it('keeps the session and the access token when a cross-site link is followed', async () => {
    const token = (await root.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    await browserGet('/api/user/token', { 'sec-fetch-site': 'cross-site' });
    await browserGet('/api/user/logout', { 'sec-fetch-site': 'cross-site' });
    const self = await fetch(`${t.baseUrl}/api/user/self`, { headers: { authorization: token } });
    expect(((await self.json()) as EnvelopeBody).success).toBe(true);
    expect((await root.get('/api/user/self')).body.success).toBe(true);
  });

  it('runs them for this site: the console header, Sec-Fetch-Site, Origin or Referer of this origin', async () => {
    const own: Array<Record<string, string>> = [
      { 'x-requested-with': 'switchyard-console' },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: t.baseUrl },
      { referer: `${t.baseUrl}/token` },
    ];
    for (const headers of own) {
      const response = await browserGet('/api/user/token', headers);
      const body = (await response.json()) as EnvelopeBody<string>;
      expect(body.success, JSON.stringify(headers)).toBe(true);
      expect(body.data).toMatch(/^\w{32}$/);
    }
    expect((await root.get('/api/channel/test')).body.success).toBe(true);
  });

  it('leaves access-token calls and cookie-less scripts alone', async () => {
    const token = (await root.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    const rotated = await fetch(`${t.baseUrl}/api/user/token`, {
      headers: { authorization: `Bearer ${token}`, 'sec-fetch-site': 'cross-site' },
    });
    expect(((await rotated.json()) as EnvelopeBody).success).toBe(true);
    const script = await fetch(`${t.baseUrl}/api/user/logout`);
    expect(script.status).toBe(200);
    expect(((await script.json()) as EnvelopeBody).success).toBe(true);
  });
});

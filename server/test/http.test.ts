import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, PAGE_LOAD, startTestApp, type TestApp } from './harness';

const STATUS_FIELDS = [
  'version',
  'start_time',
  'email_verification',
  'github_oauth',
  'github_client_id',
  'lark_client_id',
  'system_name',
  'logo',
  'footer_html',
  'wechat_qrcode',
  'wechat_login',
  'server_address',
  'turnstile_check',
  'turnstile_site_key',
  'top_up_link',
  'chat_link',
  'quota_per_unit',
  'display_in_currency',
];

describe('HTTP surface', () => {
  let t: TestApp;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
    fs.writeFileSync(
      path.join(consoleDir, 'index.html'),
      '<!doctype html><title>console</title><div id="root"></div>',
    );
    fs.mkdirSync(path.join(consoleDir, 'assets'));
    fs.writeFileSync(path.join(consoleDir, 'assets', 'app-abc123.js'), `console.log(${'"x",'.repeat(800)}1)`);
    t = await startTestApp({ env: { WEB_DIST: consoleDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(consoleDir, { recursive: true, force: true });
  });

  it('GET /api/status answers every status field', async () => {
    const response = await t.client().get<EnvelopeBody<Record<string, unknown>>>('/api/status');
    expect(response.body.success).toBe(true);
    for (const field of STATUS_FIELDS) expect(response.body.data).toHaveProperty(field);
    expect(response.body.data).toMatchObject({
      system_name: 'Switchyard',
      quota_per_unit: 500000,
      display_in_currency: true,
      server_address: 'http://localhost:3000',
      github_oauth: false,
    });
  });

  it('serves notice, about and home page content', async () => {
    const root = await t.root();
    await root.put('/api/option/', { key: 'Notice', value: '**maintenance** tonight' });
    await root.put('/api/option/', { key: 'About', value: 'https://example.com/about' });
    expect((await t.client().get('/api/notice')).body).toEqual({
      success: true,
      message: '',
      data: '**maintenance** tonight',
    });
    expect((await t.client().get('/api/about')).body.data).toBe('https://example.com/about');
    expect((await t.client().get('/api/home_page_content')).body.data).toBe('');
  });

  it('answers an unknown /api route with the envelope and 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['POST', '/api/user/nothing'],
      ['DELETE', '/api'],
    ] as const) {
      const response = await t.client().request(method, url);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false });
      expect((response.body as EnvelopeBody).message).toMatch(/No such API route/);
    }
  });

  it('serves the console with a fallback to index.html for deep links', async () => {
    for (const url of ['/', '/token/edit/3', '/user/edit', '/login?expired=true']) {
      const response = await fetch(t.baseUrl + url, { headers: PAGE_LOAD });
      expect(response.status, url).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
    }
    const asset = await fetch(`${t.baseUrl}/assets/app-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${t.baseUrl}/assets/missing.js`)).status).toBe(404);
  });

  it('gzips answers for clients that accept it', async () => {
    const response = await fetch(`${t.baseUrl}/api/option/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(401);
    const root: Client = await t.root();
    const raw = await fetch(`${t.baseUrl}/api/option/`, {
      headers: { 'accept-encoding': 'gzip', cookie: root.cookie },
    });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    const asset = await fetch(`${t.baseUrl}/assets/app-abc123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(((await raw.json()) as EnvelopeBody).success).toBe(true);
  });

  it('accepts paths with and without a trailing slash', async () => {
    const root = await t.root();
    expect((await root.get('/api/user')).body.success).toBe(true);
    expect((await root.get('/api/user/1/')).body.success).toBe(true);
    expect((await root.get('/api/option')).body.success).toBe(true);
  });
});

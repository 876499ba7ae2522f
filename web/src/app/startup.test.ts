import type { ServerStatus } from '@switchyard/contract/status';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../lib/api-client';
import { getLogo, getSystemName } from '../lib/server-status';
import { jsonResponse } from '../test/render';
import { loadServerStatus } from './startup';

const STATUS: ServerStatus = {
  version: 'v1.2.3',
  start_time: 1_700_000_000,
  email_verification: true,
  github_oauth: true,
  github_client_id: 'gh-client',
  lark_client_id: 'lark-client',
  oidc: false,
  oidc_name: 'OIDC',
  system_name: 'Acme AI',
  logo: 'https://cdn.example.com/acme.png',
  footer_html: '<a href="https://acme.example">Acme</a>',
  wechat_qrcode: '',
  wechat_login: false,
  server_address: 'https://gateway.example.com',
  turnstile_check: true,
  turnstile_site_key: 'site-key',
  top_up_link: 'https://shop.example.com',
  chat_link: 'https://chat.example.com',
  quota_per_unit: 250000,
  display_in_currency: false,
  display_token_stat: true,
  public_pricing: false,
};

function serveStatus(status: ServerStatus) {
  const fetchMock = vi.fn(async (_url: string) => jsonResponse({ success: true, message: '', data: status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const stored = (key: string) => window.localStorage.getItem(key);

beforeEach(() => configureApiClient({ baseUrl: '' }));
afterEach(() => vi.unstubAllGlobals());

describe('start-up status', () => {
  it('copies GET /api/status to the local storage keys of spec section 3', async () => {
    const fetchMock = serveStatus(STATUS);
    expect(await loadServerStatus()).toEqual(STATUS);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/status');

    expect(JSON.parse(stored('status') ?? 'null')).toEqual(STATUS);
    expect(stored('system_name')).toBe('Acme AI');
    expect(stored('logo')).toBe('https://cdn.example.com/acme.png');
    expect(stored('footer_html')).toBe('<a href="https://acme.example">Acme</a>');
    expect(stored('quota_per_unit')).toBe('250000');
    expect(stored('display_in_currency')).toBe('false');
    expect(stored('chat_link')).toBe('https://chat.example.com');
  });

  it('names the tab and the favicon after the system', async () => {
    serveStatus(STATUS);
    await loadServerStatus();
    expect(document.title).toBe('Acme AI');
    expect(document.querySelector<HTMLLinkElement>("link[rel~='icon']")?.getAttribute('href')).toBe(
      'https://cdn.example.com/acme.png',
    );
  });

  it('clears what the administrator emptied and falls back to the product name and logo', async () => {
    window.localStorage.setItem('chat_link', 'https://old-chat.example.com');
    window.localStorage.setItem('footer_html', '<b>old footer</b>');
    serveStatus({
      ...STATUS,
      system_name: '',
      logo: '',
      footer_html: '',
      chat_link: '',
      quota_per_unit: 500000,
      display_in_currency: true,
    });
    await loadServerStatus();
    expect(stored('chat_link')).toBeNull();
    expect(stored('footer_html')).toBe('');
    expect(stored('system_name')).toBe('');
    expect(stored('logo')).toBe('');
    expect(stored('quota_per_unit')).toBe('500000');
    expect(stored('display_in_currency')).toBe('true');
    expect(getSystemName()).toBe('Switchyard');
    expect(getLogo()).toBe('/logo.png');
    expect(document.title).toBe('Switchyard');
  });

  it('leaves the last visit’s values alone when the server cannot be reached', async () => {
    window.localStorage.setItem('system_name', 'Cached name');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await loadServerStatus()).toBeNull();
    expect(stored('system_name')).toBe('Cached name');
    expect(stored('status')).toBeNull();
  });
});

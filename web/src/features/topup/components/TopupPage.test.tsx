import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { TopupPage } from './TopupPage';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));
const self = { id: 2, username: 'alice', quota: 1000, role: 1, status: 1 };

/** The server: GET /api/user/self answers `quota`; POST /api/user/topup answers `topup()`. */
function server(topup: () => Promise<Response>) {
  let quota = self.quota;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/user/topup' && init?.method === 'POST') {
      const response = await topup();
      const body = (await response.clone().json()) as { success: boolean; data?: number };
      if (body.success) quota += body.data ?? 0;
      return response;
    }
    return jsonResponse({ success: true, message: '', data: { ...self, quota } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const redeem = (code: string) => {
  fireEvent.change(screen.getByPlaceholderText('Enter a redemption code'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Redeem' }));
};

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
  window.localStorage.setItem('display_in_currency', 'false');
});
afterEach(() => vi.unstubAllGlobals());

describe('top-up', () => {
  it('asks for a code before calling the server', async () => {
    const fetchMock = server(async () => jsonResponse({ success: true, message: '', data: 1 }));
    renderAt('/topup', '/topup', <TopupPage />);
    await screen.findByText('1000');
    redeem('   ');
    await screen.findByText('Please enter the top-up code!');
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/user/topup')).toBe(false);
  });

  it('adds the redeemed quota to the quota shown', async () => {
    const fetchMock = server(async () => jsonResponse({ success: true, message: '', data: 24000 }));
    renderAt('/topup', '/topup', <TopupPage />);
    await screen.findByText('1000');
    redeem(' abc123 ');
    await screen.findByText('25.0k');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/user/topup');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ key: 'abc123' });
    expect(messages()).toContain('Top-up successful!');
    expect((screen.getByPlaceholderText('Enter a redemption code') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal", async () => {
    server(async () => jsonResponse({ success: false, message: 'this code has already been used' }));
    renderAt('/topup', '/topup', <TopupPage />);
    await screen.findByText('1000');
    redeem('used-code');
    await waitFor(() => expect(messages()).toContain('this code has already been used'));
    expect(screen.getByTestId('topup-quota').textContent).toBe('1000');
  });

  it("says 'request failed' when the server cannot be reached", async () => {
    server(async () => {
      throw new TypeError('Failed to fetch');
    });
    renderAt('/topup', '/topup', <TopupPage />);
    await screen.findByText('1000');
    redeem('any-code');
    await waitFor(() => expect(messages()).toEqual(['Request failed']));
  });

  it('opens the top-up link in a new tab, or says none is set', async () => {
    server(async () => jsonResponse({ success: true, message: '', data: 0 }));
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderAt('/topup', '/topup', <TopupPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Get a redemption code' }));
    expect(messages()).toContain('The super administrator has not set a top-up link!');
    expect(open).not.toHaveBeenCalled();
  });
});

describe('paying online', () => {
  const offer = {
    methods: ['stripe', 'epay'],
    amounts: [2, 5],
    min_amount: 2,
    unit_price: 250,
    currency: 'USD',
    quota_per_unit: 500000,
  };

  it('prices the chosen amount, refuses one below the minimum, and sends the order to the gateway', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/topup/offer') return jsonResponse({ success: true, message: '', data: offer });
      if (url.startsWith('/api/topup/order/self'))
        return jsonResponse({ success: true, message: '', data: [] });
      if (url === '/api/topup/order' && init?.method === 'POST')
        return jsonResponse({
          success: true,
          message: '',
          data: { trade_no: 'SY1', url: 'https://pay.test/x' },
        });
      return jsonResponse({ success: true, message: '', data: self });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/topup', '/topup', <TopupPage />);
    await screen.findByText('Pay online');
    fireEvent.click(screen.getByText('5'));
    await waitFor(() => expect(screen.getByTestId('topup-price').textContent).toContain('$12.50'));
    fireEvent.change(screen.getByLabelText('Units to buy'), { target: { value: '1' } });
    expect((screen.getByRole('button', { name: 'Alipay' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Units to buy'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'WeChat Pay' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.test/x'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/topup/order');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ method: 'epay', amount: 3, epay_type: 'wxpay' });
  });
});

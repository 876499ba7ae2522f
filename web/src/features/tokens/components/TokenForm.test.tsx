import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { TokenForm } from './TokenForm';

const self = { id: 5, username: 'u', rpm_limit: 100, tpm_limit: 0, concurrency_limit: 0 };

function server() {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === '/api/user/self') return jsonResponse({ success: true, message: '', data: self });
    if (url.startsWith('/api/token/')) return jsonResponse({ success: true, message: '', data: { id: 9 } });
    return jsonResponse({ success: true, message: '', data: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('token form: limits and budget', { timeout: 15_000 }, () => {
  it("shows the account's cap under each limit and refuses a budget without its period", async () => {
    const fetchMock = server();
    renderAt('/token/add', '/token/add', <TokenForm />, ['/token']);
    expect(await screen.findByText('At most 100 (your account’s limit); empty uses that.')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Enter a name for the token'), { target: { value: 'ci' } });
    fireEvent.change(input('Requests per minute'), { target: { value: '60' } });
    fireEvent.change(input('Concurrent requests'), { target: { value: '2' } });
    fireEvent.change(input('Budget per period'), { target: { value: '5000' } });
    fireEvent.click(screen.getByText('Submit'));
    // A budget without its period is refused before anything is sent.
    expect(await screen.findByText('Choose when the budget starts over.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('loads a key with its budget and shows what the period spent', async () => {
    server();
    renderAt(
      '/token/edit/9',
      '/token/edit/:id',
      <TokenForm
        token={{
          id: 9,
          user_id: 5,
          key: 'k',
          status: 1,
          name: 'budgeted',
          created_time: 0,
          accessed_time: 0,
          expired_time: -1,
          remain_quota: 0,
          unlimited_quota: true,
          used_quota: 0,
          models: '',
          subnet: '',
          rpm_limit: 0,
          tpm_limit: 90000,
          concurrency_limit: 0,
          budget_quota: 100000,
          budget_period: 'monthly',
          budget_used: 50000,
          budget_reset_at: 1_900_000_000,
        }}
      />,
    );
    expect(input('Tokens per minute').value).toBe('90000');
    expect(input('Requests per minute').value).toBe('');
    expect(input('Budget per period').value).toBe('100000');
    await waitFor(() =>
      expect(screen.getByTestId('budget-used').textContent).toMatch(
        /^Budget 50\.0k \/ 100\.0k, resets 2030-03-17/,
      ),
    );
  });
});

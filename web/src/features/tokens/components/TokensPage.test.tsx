import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { TokensPage } from './TokensPage';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));

const token = (id: number, patch: Record<string, unknown> = {}) => ({
  id,
  user_id: 1,
  key: `key${id}`,
  status: 1,
  name: `token-${id}`,
  created_time: 1_700_000_000,
  accessed_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 500000,
  unlimited_quota: false,
  used_quota: 0,
  models: '',
  subnet: '',
  ...patch,
});

type Handler = (url: string, init?: RequestInit) => Response | undefined;

function server(handler: Handler) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answer = handler(url, init);
    if (answer) return answer;
    if (url.startsWith('/api/token/?p=0'))
      return jsonResponse({
        success: true,
        message: '',
        data: [token(1), token(2, { unlimited_quota: true, expired_time: 1_900_000_000 })],
      });
    return jsonResponse({ success: true, message: '', data: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const row = async (name: string) => {
  const cell = await screen.findByText(name);
  return cell.closest('tr') as HTMLElement;
};

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
  window.localStorage.setItem('display_in_currency', 'false');
});
afterEach(() => vi.unstubAllGlobals());

describe('token list', () => {
  it('shows status, quotas and expiry the way the spec asks', async () => {
    server(() => undefined);
    renderAt('/token', '/token', <TokensPage />);
    const first = await row('token-1');
    expect(within(first).getByText('Enabled')).toBeTruthy();
    expect(within(first).getByText('500.0k')).toBeTruthy();
    expect(within(first).getByText('Never expires')).toBeTruthy();
    const second = await row('token-2');
    expect(within(second).getByText('Unlimited')).toBeTruthy();
  });

  it("shows a key's limits and its budget with the next reset", async () => {
    server((url) =>
      url.startsWith('/api/token/?p=0')
        ? jsonResponse({
            success: true,
            message: '',
            data: [
              token(3, {
                rpm_limit: 60,
                tpm_limit: 0,
                concurrency_limit: 2,
                budget_quota: 100000,
                budget_period: 'daily',
                budget_used: 2500,
                budget_reset_at: 1_900_000_000,
              }),
              token(4),
            ],
          })
        : undefined,
    );
    renderAt('/token', '/token', <TokensPage />);
    const limited = await row('token-3');
    expect(within(limited).getByText('60 RPM · 2 at once')).toBeTruthy();
    expect(within(limited).getByTestId('token-budget').textContent).toMatch(
      /^Budget 2500 \/ 100\.0kResets 2030-03-17 \d\d:\d\d:\d\d$/,
    );
    expect(within(await row('token-4')).getByTestId('token-limits').textContent).toBe('–');
  });

  it('puts sk-key into the search box when the clipboard refuses', async () => {
    server(() => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    renderAt('/token', '/token', <TokensPage />);
    fireEvent.click(within(await row('token-1')).getByRole('button', { name: 'Copy' }));
    await waitFor(() =>
      expect((screen.getByPlaceholderText('Search tokens by name...') as HTMLInputElement).value).toBe(
        'sk-key1',
      ),
    );
    expect(messages()[0]).toContain('Cannot copy to clipboard, please copy manually');
  });

  it('disables with a status-only update and shows a refusal to enable', async () => {
    const fetchMock = server((url, init) => {
      if (url !== '/api/token/?status_only=true') return undefined;
      const body = JSON.parse(String(init?.body)) as { id: number; status: number };
      if (body.status === 1) return jsonResponse({ success: false, message: 'This token has expired' });
      return jsonResponse({ success: true, message: '', data: token(body.id, { status: 2 }) });
    });
    renderAt('/token', '/token', <TokensPage />);
    fireEvent.click(within(await row('token-1')).getByRole('button', { name: 'Disable' }));
    await within(await row('token-1')).findByText('Disabled');
    const put = fetchMock.mock.calls.find(([url]) => url === '/api/token/?status_only=true');
    expect(put?.[1]?.method).toBe('PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ id: 1, status: 2 });

    fireEvent.click(within(await row('token-1')).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(messages()).toContain('This token has expired'));
    expect(within(await row('token-1')).getByText('Disabled')).toBeTruthy();
  });

  it('deletes after confirmation and hides the row', async () => {
    const fetchMock = server((url, init) =>
      url === '/api/token/2/' && init?.method === 'DELETE'
        ? jsonResponse({ success: true, message: '' })
        : undefined,
    );
    renderAt('/token', '/token', <TokensPage />);
    fireEvent.click(within(await row('token-2')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete token token-2' }));
    await waitFor(() => expect(screen.queryByText('token-2')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/token/2/')).toBe(true);
    expect(screen.getByText('token-1')).toBeTruthy();
  });
});

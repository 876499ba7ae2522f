import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { saveSession } from '../../../lib/session';
import { jsonResponse, renderAt } from '../../../test/render';
import { LogsPage } from './LogsPage';

const log = {
  id: 1,
  user_id: 2,
  created_at: 1_700_000_000,
  type: 2,
  content: 'model ratio 1.00',
  username: 'alice',
  token_name: 'ci-key',
  model_name: 'gpt-4o-mini',
  quota: 1234,
  prompt_tokens: 10,
  completion_tokens: 20,
  channel: 3,
  request_id: 'req-1',
  elapsed_time: 120,
  is_stream: true,
};

function server() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      const path = url.split('?')[0];
      if (path?.endsWith('/stat')) return jsonResponse({ success: true, message: '', data: { quota: 1234 } });
      if (path === '/api/user/dashboard') return jsonResponse({ success: true, message: '', data: [] });
      return jsonResponse({ success: true, message: '', data: [log] });
    }),
  );
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  window.localStorage.setItem('display_in_currency', 'true');
  window.localStorage.setItem('quota_per_unit', '500000');
});
afterEach(() => vi.unstubAllGlobals());

describe('log page', () => {
  it('reads a user’s own logs and shows quota with 6 decimals', async () => {
    saveSession({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    const calls = server();
    renderAt('/log', '/log', <LogsPage />);
    await screen.findByText('ci-key');
    expect(calls.some((url) => url.startsWith('/api/log/self/?'))).toBe(true);
    expect(calls.some((url) => url.startsWith('/api/log/self/stat?'))).toBe(true);
    expect(calls.some((url) => url.startsWith('/api/log/?'))).toBe(false);
    expect(screen.getAllByText('$0.002468').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('columnheader', { name: 'Channel' })).toBeNull();
    const dashboard = calls.find((url) => url.startsWith('/api/user/dashboard'));
    expect(dashboard).not.toContain('scope=all');
  });

  it('reads everyone’s logs for an admin, with channel and user columns', async () => {
    saveSession({ id: 1, username: 'root', display_name: '', role: 100, status: 1 });
    const calls = server();
    renderAt('/log', '/log', <LogsPage />);
    await screen.findByText('ci-key');
    await waitFor(() => expect(calls.some((url) => url.startsWith('/api/log/?'))).toBe(true));
    expect(calls.some((url) => url.startsWith('/api/log/stat?'))).toBe(true);
    expect(screen.getByRole('columnheader', { name: 'Channel' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'User' })).toBeTruthy();
    expect(calls.find((url) => url.startsWith('/api/user/dashboard'))).toContain('scope=all');
  });
});

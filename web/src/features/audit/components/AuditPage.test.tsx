import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { saveSession } from '../../../lib/session';
import { jsonResponse, renderAt } from '../../../test/render';
import { AuditPage } from './AuditPage';

const entry = {
  id: 7,
  created_at: 1_700_000_000,
  actor_id: 1,
  actor_name: 'root',
  actor_role: 100,
  ip: '203.0.113.7',
  action: 'channel.update',
  target_type: 'channel',
  target_id: '3',
  target_name: 'primary',
  before: { name: 'primary', key: '[secret]' },
  after: { name: 'backup', key: '[secret]' },
};

function server() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return jsonResponse({ success: true, message: '', data: [entry] });
    }),
  );
  return calls;
}

beforeEach(() => saveSession({ id: 1, username: 'root', display_name: '', role: 100, status: 1 }));
afterEach(() => vi.unstubAllGlobals());

describe('audit page', () => {
  it('shows who changed what, the secrets as the server masked them', async () => {
    await i18n.changeLanguage('en');
    server();
    renderAt('/audit', '/audit', <AuditPage />);
    await screen.findByText('203.0.113.7');
    expect(screen.getByRole('columnheader', { name: 'Changes' })).toBeTruthy();
    expect(screen.getByText('Changed channel')).toBeTruthy();
    expect(screen.getByText('channel #3 primary')).toBeTruthy();
    expect(screen.getByText('backup')).toBeTruthy();
    expect(screen.getAllByText('[secret]')).toHaveLength(2);
  });

  it('sends the filters and pages from the first', async () => {
    await i18n.changeLanguage('en');
    const calls = server();
    renderAt('/audit', '/audit', <AuditPage />);
    await screen.findByText('203.0.113.7');
    expect(calls[0]).toBe('/api/audit/?p=0');
    fireEvent.change(screen.getByLabelText('Who'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'user.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.at(-1)).toBe('/api/audit/?p=0&actor=alice&action=user.'));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(calls.at(-1)).toBe('/api/audit/?p=0'));
    expect((screen.getByLabelText('Who') as HTMLInputElement).value).toBe('');
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    server();
    renderAt('/audit', '/audit', <AuditPage />);
    await screen.findByText('203.0.113.7');
    expect(screen.getByText('审计日志')).toBeTruthy();
    expect(screen.getByText('修改渠道')).toBeTruthy();
    await i18n.changeLanguage('en');
  });
});

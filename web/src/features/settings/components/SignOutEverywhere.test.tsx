import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { getSessionUser, saveSession } from '../../../lib/session';
import { jsonResponse, renderAt } from '../../../test/render';
import { SignOutEverywhere } from './SignOutEverywhere';

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('sign out everywhere', () => {
  it('asks once more, ends every session on the server, forgets the user and goes to the login page', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ success: true, message: '' }));
    vi.stubGlobal('fetch', fetchMock);
    saveSession({ id: 7, username: 'ann', display_name: 'Ann', role: 1, status: 1 });

    renderAt('/setting', '/setting', <SignOutEverywhere />, ['/login']);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all sessions' }));

    expect(await screen.findByText('at /login')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/self/sessions/revoke');
    expect(init.method).toBe('POST');
    expect(getSessionUser()).toBeNull();
  });

  it('stays on the page, still signed in, when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ success: false, message: 'Refused' })),
    );
    saveSession({ id: 7, username: 'ann', display_name: 'Ann', role: 1, status: 1 });

    renderAt('/setting', '/setting', <SignOutEverywhere />, ['/login']);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all sessions' }));

    await waitFor(() =>
      expect(notificationsStore.getState().notifications.map((n) => String(n.message))).toContain('Refused'),
    );
    expect(screen.queryByText('at /login')).toBeNull();
    expect(getSessionUser()?.username).toBe('ann');
  });
});

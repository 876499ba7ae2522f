import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { ResetConfirmPage } from './ResetConfirmPage';

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('password reset confirmation', () => {
  it('confirms, shows and copies the new password, then reads "Password reset done"', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ success: true, message: '', data: 'a1b2c3d4e5f6' }));
    vi.stubGlobal('fetch', fetchMock);
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });

    renderAt('/user/reset?email=ann%40example.com&token=tok', '/user/reset', <ResetConfirmPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset password' }));

    const done = await screen.findByRole('button', { name: 'Password reset done' });
    expect((done as HTMLButtonElement).disabled).toBe(true);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ email: 'ann@example.com', token: 'tok' });
    expect(writeText).toHaveBeenCalledWith('a1b2c3d4e5f6');
    expect((screen.getByTestId('new-password') as HTMLInputElement).value).toBe('a1b2c3d4e5f6');
    await waitFor(() =>
      expect(notificationsStore.getState().notifications.map((n) => String(n.message))).toContain(
        'New password copied to clipboard: a1b2c3d4e5f6',
      ),
    );
  });
});

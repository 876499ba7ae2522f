import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { LoginPage } from './LoginPage';

beforeEach(async () => {
  await i18n.changeLanguage('en');
  window.localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('login page', () => {
  it('asks for the two-factor code after the password, then signs in with it', async () => {
    const user = { id: 7, username: 'bob', display_name: '', role: 1, status: 1 };
    const fetchMock = vi
      .fn(async (_url: string, _init?: RequestInit) =>
        jsonResponse({ success: true, message: 'two_factor', data: { two_factor: true } }),
      )
      .mockImplementationOnce(async () =>
        jsonResponse({ success: true, message: 'two_factor', data: { two_factor: true } }),
      )
      .mockImplementationOnce(async () => jsonResponse({ success: true, message: '', data: user }));
    vi.stubGlobal('fetch', fetchMock);
    const router = renderAt('/login', '/login', <LoginPage />, ['/token']);

    fireEvent.change(await screen.findByLabelText(/Username or email/), { target: { value: 'bob' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'password123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const code = await screen.findByLabelText(/^Code/);
    expect(window.localStorage.getItem('user')).toBeNull();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('/api/user/login/2fa');
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBe('{"code":"123456"}');
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'bob' });
  });
});

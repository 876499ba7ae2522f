import { notifications, notificationsStore } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { OAuthCallback } from './OAuthCallback';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));

function serverAnswers(response: Response) {
  const fetchMock = vi.fn(async (_url: string) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const open = () =>
  renderAt(
    '/oauth/github?code=the-code&state=the-state',
    '/oauth/github',
    <OAuthCallback provider="github" />,
    ['/', '/setting', '/login'],
  );

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('OAuth callback', () => {
  it('sends code and state, saves the user and goes home', async () => {
    const fetchMock = serverAnswers(
      jsonResponse({ success: true, message: '', data: { id: 3, username: 'github_3', role: 1, status: 1 } }),
    );
    const router = open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/oauth/github?code=the-code&state=the-state');
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'github_3' });
    expect(messages()).toContain('Login successful!');
  });

  it('goes to settings after binding an account', async () => {
    serverAnswers(jsonResponse({ success: true, message: 'bind' }));
    const router = open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(messages()).toContain('Bound successfully!');
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('sends a user with two-factor sign-in to the login page for the code, signed in not yet', async () => {
    serverAnswers(
      jsonResponse({ success: true, message: 'two_factor', data: { two_factor: true, passkey: true } }),
    );
    const router = open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ twoFactor: true, passkey: true });
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(messages()).not.toContain('Login successful!');
  });

  it('shows the server message, then "operation failed, redirecting" and goes to settings', async () => {
    serverAnswers(jsonResponse({ success: false, message: 'this GitHub account is already bound' }));
    const router = open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(messages()).toContain('this GitHub account is already bound');
    await screen.findByText('at /setting');
  });
});

describe('OpenID Connect callback', () => {
  it('passes on a refusal from the provider for the server to word', async () => {
    const fetchMock = serverAnswers(
      jsonResponse({ success: false, message: 'The identity provider refused the sign-in: User said no' }),
    );
    const router = renderAt(
      '/oauth/oidc?error=access_denied&error_description=User+said+no&state=s1',
      '/oauth/oidc',
      <OAuthCallback provider="oidc" />,
      ['/', '/setting'],
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    const sent = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://console');
    expect(sent.pathname).toBe('/api/oauth/oidc');
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      code: '',
      state: 's1',
      error: 'access_denied',
      error_description: 'User said no',
    });
    expect(messages()).toContain('The identity provider refused the sign-in: User said no');
  });
});

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type OAuthProvider, startOAuth } from '../../../lib/oauth';
import type { SessionUser } from '../../../lib/session';
import { signInResult } from './login';

/** Fetch a state, then leave for the provider's authorise page. */
export function useStartOAuth() {
  return useMutation({
    mutationFn: ({ provider, clientId }: { provider: OAuthProvider; clientId: string }) =>
      startOAuth(provider, clientId),
  });
}

/**
 * GET /api/oauth/{provider}?code&state: message "bind" for a binding, else data is the user. A provider
 * that refused the sign-in sends error and error_description instead of a code: passed on for the server to word.
 */
export function sendOAuthCode(provider: OAuthProvider, query: URLSearchParams) {
  const sent: Record<string, string> = { code: query.get('code') ?? '', state: query.get('state') ?? '' };
  for (const name of ['error', 'error_description']) {
    const value = query.get(name);
    if (value) sent[name] = value;
  }
  return api.get<SessionUser>(`/api/oauth/${provider}`, { query: sent });
}

/** GET /api/oauth/wechat?code: log in with the code from the official account. */
export function useWeChatLogin() {
  return useMutation({
    mutationFn: async (code: string) =>
      signInResult(await api.get<SessionUser>('/api/oauth/wechat', { query: { code } })),
  });
}

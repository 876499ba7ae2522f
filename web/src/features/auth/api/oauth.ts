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

/** GET /api/oauth/{provider}?code&state: message "bind" for a binding, else data is the user. */
export const sendOAuthCode = (provider: OAuthProvider, code: string, state: string) =>
  api.get<SessionUser>(`/api/oauth/${provider}`, { query: { code, state } });

/** GET /api/oauth/wechat?code: log in with the code from the official account. */
export function useWeChatLogin() {
  return useMutation({
    mutationFn: async (code: string) =>
      signInResult(await api.get<SessionUser>('/api/oauth/wechat', { query: { code } })),
  });
}

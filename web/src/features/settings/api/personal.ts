import type { User } from '@switchyard/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData, leavingFailed } from '../../../lib/api-client';
import { type OAuthProvider, startOAuth } from '../../../lib/oauth';
import { beginLeaving } from '../../../lib/session';
import { settingsKeys } from './options';

/** GET /api/user/self: the accounts already bound. */
export function useSelf() {
  return useQuery({
    queryKey: settingsKeys.self,
    queryFn: () => fetchData<User>('/api/user/self'),
    staleTime: 0,
  });
}

/** GET /api/user/token: a new system access token (the old one stops working). */
export function useGenerateAccessToken() {
  return useMutation({
    mutationFn: async () => (await fetchData<string>('/api/user/token')) ?? '',
  });
}

/** GET /api/user/aff: the caller's invitation code (made on first use). */
export function useAffCode() {
  return useMutation({
    mutationFn: async () => (await fetchData<string>('/api/user/aff')) ?? '',
  });
}

/** The calls that end this browser's session: while one runs, a raced call's 401 is no expiry. */
const leavingSession = { onMutate: beginLeaving, onError: leavingFailed };

/** DELETE /api/user/self: the server also ends the session. */
export function useDeleteSelf() {
  return useMutation({ mutationFn: () => api.delete('/api/user/self'), ...leavingSession });
}

/** POST /api/user/self/sessions/revoke: every session of the user ends, this one included. */
export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => api.post('/api/user/self/sessions/revoke'), ...leavingSession });
}

/** GitHub and Lark: the same authorise trip as login; the callback answers "bind" for a signed-in user. */
export function useBindOAuth() {
  return useMutation({
    mutationFn: ({ provider, clientId }: { provider: OAuthProvider; clientId: string }) =>
      startOAuth(provider, clientId),
  });
}

/** GET /api/oauth/wechat/bind?code=: the code the official account sent. */
export function useBindWeChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.get('/api/oauth/wechat/bind', { query: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.self }),
  });
}

/** GET /api/verification?email=&turnstile=: mail a code to the address to bind. */
export function useSendBindCode() {
  return useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      api.get('/api/verification', { query: { email, turnstile } }),
  });
}

/** GET /api/oauth/email/bind?email=&code=. */
export function useBindEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, code }: { email: string; code: string }) =>
      api.get('/api/oauth/email/bind', { query: { email, code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.self }),
  });
}

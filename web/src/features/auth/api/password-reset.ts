import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/reset_password: mail a reset link. */
export function useSendResetMail() {
  return useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      api.get('/api/reset_password', { query: { email, turnstile } }),
  });
}

/** POST /api/user/reset: the answer's data is the new password. */
export function useConfirmReset() {
  return useMutation({
    mutationFn: async (input: { email: string; token: string }) => {
      const { data } = await api.post<string>('/api/user/reset', input);
      return data ?? '';
    },
  });
}

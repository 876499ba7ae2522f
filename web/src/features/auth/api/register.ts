import type { RegisterInput } from '@switchyard/contract/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/user/register?turnstile=…; success carries no data. */
export function useRegister() {
  return useMutation({
    mutationFn: ({ input, turnstile }: { input: RegisterInput; turnstile: string }) =>
      api.post('/api/user/register', input, { query: { turnstile } }),
  });
}

/** GET /api/verification: mail a code to the address. */
export function useSendVerificationCode() {
  return useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      api.get('/api/verification', { query: { email, turnstile } }),
  });
}

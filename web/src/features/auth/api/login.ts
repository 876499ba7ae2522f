import type { LoginInput } from '@switchyard/contract/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/session';

/** POST /api/user/login; the answer's data is the signed-in user. */
export function useLogin() {
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      const { data } = await api.post<SessionUser>('/api/user/login', input);
      if (!data) throw new Error('login answer without user');
      return data;
    },
  });
}

/** The first-start account: it must change its password at once. */
export const isDefaultRootLogin = (input: LoginInput): boolean =>
  input.username === 'root' && input.password === '123456';

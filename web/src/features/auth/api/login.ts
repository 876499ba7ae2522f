import { TWO_FACTOR_MESSAGE } from '@switchyard/contract/two-factor';
import type { LoginInput } from '@switchyard/contract/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/session';

/** A sign-in's answer: the signed-in user, or the second step still to come (two-factor sign-in). */
export type SignInResult = { user: SessionUser } | { twoFactor: true };

/** Reads a sign-in answer (password or OAuth): `two_factor` means the code is still wanted. */
export function signInResult(answer: { message: string; data?: unknown }): SignInResult {
  if (answer.message === TWO_FACTOR_MESSAGE) return { twoFactor: true };
  if (!answer.data) throw new Error('login answer without user');
  return { user: answer.data as SessionUser };
}

/** POST /api/user/login. */
export function useLogin() {
  return useMutation({
    mutationFn: async (input: LoginInput) =>
      signInResult(await api.post<SessionUser>('/api/user/login', input)),
  });
}

/** POST /api/user/login/2fa: the second step; the answer's data is the signed-in user. */
export function useSecondStep() {
  return useMutation({
    mutationFn: async (code: string) => {
      const { data } = await api.post<SessionUser>('/api/user/login/2fa', { code });
      if (!data) throw new Error('login answer without user');
      return data;
    },
  });
}

/** The first-start account: it must change its password at once. */
export const isDefaultRootLogin = (input: LoginInput): boolean =>
  input.username === 'root' && input.password === '123456';

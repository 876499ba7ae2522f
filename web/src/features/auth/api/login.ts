import { TWO_FACTOR_MESSAGE, type TwoFactorPending } from '@switchyard/contract/two-factor-answer';
import type { LoginInput } from '@switchyard/contract/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/session';

/** A sign-in's answer: the signed-in user, or the second step still to come (two-factor sign-in). */
export type SignInResult = { user: SessionUser } | { twoFactor: true; passkey: boolean };

/** Reads a sign-in answer (password or OAuth): `two_factor` means the code is still wanted. */
export function signInResult(answer: { message: string; data?: unknown }): SignInResult {
  if (answer.message === TWO_FACTOR_MESSAGE) {
    return { twoFactor: true, passkey: (answer.data as TwoFactorPending | undefined)?.passkey === true };
  }
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

/** The second step with a passkey: the server's challenge, the browser's passkey dialog, its answer checked. */
export function usePasskeyStep() {
  return useMutation({
    mutationFn: async () => {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { data: optionsJSON } = await api.post<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
        '/api/user/login/2fa/passkey/options',
      );
      if (!optionsJSON) throw new Error('passkey options missing');
      const credential = await startAuthentication({ optionsJSON });
      const { data } = await api.post<SessionUser>('/api/user/login/2fa/passkey', { credential });
      if (!data) throw new Error('login answer without user');
      return data;
    },
  });
}

/** The first-start account: it must change its password at once. */
export const isDefaultRootLogin = (input: LoginInput): boolean =>
  input.username === 'root' && input.password === '123456';

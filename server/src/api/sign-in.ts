import { TWO_FACTOR_MESSAGE } from '@switchyard/contract/two-factor-answer';
import type { FastifyReply } from 'fastify';
import type { UserRow } from '../db/schema';
import type { TwoFactorService } from '../domain/two-factor';
import type { PasskeyService } from '../domain/two-factor/passkeys';
import { toApiUser } from '../domain/users/api-user';
import { sessionFor, writeSession } from './access';
import type { SessionCodec } from './session';
import { VISITOR } from './visitor-session';

/** How long the second step waits for its code after the password or OAuth step. */
const SECOND_STEP_MS = 5 * 60 * 1000;

/**
 * The end of a password or OAuth sign-in: the session is the user's, unless the user has two-factor
 * sign-in on; then the session only waits for the code (POST /api/user/login/2fa) or a passkey, and the
 * answer says so (and whether the user has a passkey).
 */
export async function finishSignIn(
  reply: FastifyReply,
  {
    sessions,
    twoFactor,
    passkeys,
  }: { sessions: SessionCodec; twoFactor: TwoFactorService; passkeys: PasskeyService },
  user: UserRow,
) {
  if (await twoFactor.isEnabled(user.id)) {
    const pending = { id: user.id, username: user.username, epoch: user.session_epoch };
    writeSession(reply, sessions, {
      ...VISITOR,
      twoFactor: { ...pending, until: Date.now() + SECOND_STEP_MS },
    });
    const data = { two_factor: true, passkey: await passkeys.has(user.id) };
    return { success: true, message: TWO_FACTOR_MESSAGE, data };
  }
  return signInNow(reply, sessions, user);
}

export function signInNow(reply: FastifyReply, sessions: SessionCodec, user: UserRow) {
  writeSession(reply, sessions, sessionFor(user));
  return { success: true, message: '', data: toApiUser(user) };
}

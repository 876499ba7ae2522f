import { Role, UserStatus } from '@switchyard/contract/roles';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../db/connect';
import { findUserByAccessToken, findUserById, type SignedInSession, sessionHolds } from '../db/repos/users';
import type { UserRow } from '../db/schema';
import { DomainError } from '../domain/errors';
import type { Actor } from '../domain/permissions';
import { languageOf, refusal } from './envelope';
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, type SessionCodec, type SessionData } from './session';

export type AccessLevel = 'public' | 'user' | 'admin' | 'root';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessLevel;
    /**
     * Open to an administrator whom root requires to enrol in two-factor sign-in and who has not yet
     * (their enrolment, their own profile, signing out); every other session route refuses them.
     */
    beforeTwoFactor?: boolean;
  }
  interface FastifyRequest {
    session: SessionData | undefined;
    caller: Actor;
  }
}

/**
 * Who this session says is signed in, if anyone, and at which epoch. Whether that still holds is the
 * database's to say (`findSessionUser`).
 */
export const signedInSession = (request: FastifyRequest): SignedInSession | undefined =>
  request.session && request.session.id > 0
    ? { id: request.session.id, epoch: request.session.epoch }
    : undefined;

const MINIMUM_ROLE: Record<Exclude<AccessLevel, 'public'>, number> = {
  user: Role.common,
  admin: Role.admin,
  root: Role.root,
};

export function writeSession(reply: FastifyReply, codec: SessionCodec, data: SessionData): void {
  reply.setCookie(SESSION_COOKIE, codec.seal(data), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.request.protocol === 'https',
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export function clearSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export const sessionFor = (user: UserRow): SessionData => ({
  id: user.id,
  username: user.username,
  role: user.role,
  status: user.status,
  epoch: user.session_epoch,
});

/** The system access token travels as `Authorization: <token>` or `Authorization: Bearer <token>`. */
function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  return header.replace(/^Bearer\s+/i, '').trim() || undefined;
}

/**
 * The guard of every /api route: who is calling (session first, then access token), read live from
 * the database so a ban, a role change or the end of the user's sessions takes effect at once in
 * every process. A session that no longer holds is cleared and treated as none.
 */
export function accessGuard(
  db: Sql,
  hooks: {
    onAccessToken?: (user: Actor, ip: string) => Promise<void>;
    /** Whether root's rule sends this user to enrol in two-factor sign-in before anything else. */
    mustEnrol?: (user: UserRow) => Promise<boolean>;
  } = {},
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const level = request.routeOptions.config.access ?? 'public';
    if (level === 'public') return;
    const refuse = (
      code:
        | 'not_logged_in'
        | 'access_token_invalid'
        | 'user_banned'
        | 'role_too_low'
        | 'two_factor_enrolment_required',
      status = 200,
    ) => reply.code(status).send(refusal(new DomainError(code), languageOf(request)));
    let user: UserRow | undefined;
    const session = signedInSession(request);
    if (session) {
      user = await findUserById(db, session.id);
      // A banned user is told so below, whichever session they hold; re-enabling revives none.
      const ended = user?.status === UserStatus.enabled && !sessionHolds(user, session);
      if (!user || user.status === UserStatus.deleted || ended) {
        clearSession(reply);
        request.session = undefined;
        user = undefined;
      }
    }
    if (!user) {
      const token = accessTokenOf(request);
      if (!token) {
        await refuse('not_logged_in', 401);
        return;
      }
      user = token.length <= 64 ? await findUserByAccessToken(db, token) : undefined;
      if (!user || user.status === UserStatus.deleted) {
        await refuse('access_token_invalid');
        return;
      }
      if (user.status === UserStatus.enabled) {
        const caller = { id: user.id, username: user.username, role: user.role };
        await hooks
          .onAccessToken?.(caller, request.ip)
          .catch((error: unknown) => request.log.error({ err: error }, 'audit entry not written'));
      }
    }
    if (user.status !== UserStatus.enabled) {
      clearSession(reply);
      await refuse('user_banned');
      return;
    }
    if (user.role < MINIMUM_ROLE[level]) {
      await refuse('role_too_low');
      return;
    }
    // Sessions only: access tokens are unaffected by design (docs/decisions.md).
    const bySession = request.session?.id === user.id;
    if (bySession && !request.routeOptions.config.beforeTwoFactor && (await hooks.mustEnrol?.(user))) {
      await refuse('two_factor_enrolment_required', 403);
      return;
    }
    request.caller = { id: user.id, username: user.username, role: user.role };
    request.bodyOwner = user.id;
  };
}

import { OAUTH_BIND_MESSAGE, OAUTH_STATE_LENGTH } from '@switchyard/contract/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, InputError } from '../../domain/errors';
import type { ExternalProvider } from '../../domain/oauth/accounts';
import { randomAlphanumeric } from '../../domain/random';
import { signedInSession } from '../access';
import { ok, queryText } from '../envelope';
import type { Services } from '../services';
import { finishSignIn } from '../sign-in';
import { updateSession } from '../visitor-session';

/** Each of these GETs signs in, binds or keeps a state: refused from another site. */
const critical = { rateLimit: 'critical' as const, changesState: true };

function requireCode(request: FastifyRequest): string {
  const code = queryText(request.query, 'code').trim();
  if (!code) throw new InputError('oauth_code_missing');
  return code;
}

/** Sign-in with GitHub, Lark and WeChat, and linking those accounts to the signed-in user. */
export function oauthRoutes(app: FastifyInstance, services: Services): void {
  const { sessions, oauth, externalIdentities } = services;
  const signIn = async (reply: FastifyReply, provider: ExternalProvider, code: string) =>
    finishSignIn(
      reply,
      services,
      await oauth.signIn(provider, await externalIdentities.fetch(provider, code)),
    );

  app.get('/api/oauth/state', { config: critical }, async (request, reply) => {
    const state = randomAlphanumeric(OAUTH_STATE_LENGTH);
    updateSession(request, reply, sessions, { oauthState: state });
    return ok(state);
  });

  /** GitHub and Lark: the state must match the session's; a signed-in caller binds, anyone else signs in. */
  const callback = (provider: ExternalProvider) => async (request: FastifyRequest, reply: FastifyReply) => {
    const state = queryText(request.query, 'state');
    if (!state || state !== request.session?.oauthState) {
      throw new DomainError('oauth_state_mismatch', {}, 403);
    }
    const code = requireCode(request);
    const current = await oauth.sessionUser(signedInSession(request));
    if (!current) return signIn(reply, provider, code);
    const identity = await externalIdentities.fetch(provider, code);
    await oauth.bind(current.id, provider, identity.id);
    updateSession(request, reply, sessions, { oauthState: undefined });
    return { success: true, message: OAUTH_BIND_MESSAGE };
  };
  app.get('/api/oauth/github', { config: critical }, callback('github'));
  app.get('/api/oauth/lark', { config: critical }, callback('lark'));

  app.get('/api/oauth/wechat', { config: critical }, async (request, reply) =>
    signIn(reply, 'wechat', requireCode(request)),
  );

  app.get('/api/oauth/wechat/bind', { config: { ...critical, access: 'user' } }, async (request) => {
    const identity = await externalIdentities.fetch('wechat', requireCode(request));
    await oauth.bind(request.caller.id, 'wechat', identity.id);
    return ok();
  });
}

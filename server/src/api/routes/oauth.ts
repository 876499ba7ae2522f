import { OAUTH_BIND_MESSAGE, OAUTH_STATE_LENGTH } from '@switchyard/contract/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, InputError } from '../../domain/errors';
import type { ExternalIdentity, ExternalProvider } from '../../domain/oauth/accounts';
import type { CodeProvider } from '../../domain/oauth/identities';
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

/** Sign-in with GitHub, Lark, WeChat and OpenID Connect, and linking those accounts to the signed-in user. */
export function oauthRoutes(app: FastifyInstance, services: Services): void {
  const { sessions, oauth, externalIdentities, oidc } = services;
  // A user with two-factor sign-in on is not signed in yet: finishSignIn asks for the second step.
  const signIn = async (reply: FastifyReply, provider: ExternalProvider, identity: ExternalIdentity) =>
    finishSignIn(reply, services, await oauth.signIn(provider, identity));

  app.get('/api/oauth/state', { config: critical }, async (request, reply) => {
    const state = randomAlphanumeric(OAUTH_STATE_LENGTH);
    updateSession(request, reply, sessions, { oauthState: state });
    return ok(state);
  });

  /** GitHub and Lark: the state must match the session's; a signed-in caller binds, anyone else signs in. */
  const callback = (provider: CodeProvider) => async (request: FastifyRequest, reply: FastifyReply) => {
    const state = queryText(request.query, 'state');
    if (!state || state !== request.session?.oauthState) {
      throw new DomainError('oauth_state_mismatch', {}, 403);
    }
    const code = requireCode(request);
    const current = await oauth.sessionUser(signedInSession(request));
    if (!current) return signIn(reply, provider, await externalIdentities.fetch(provider, code));
    const identity = await externalIdentities.fetch(provider, code);
    await oauth.bind(current.id, provider, identity.id);
    updateSession(request, reply, sessions, { oauthState: undefined });
    return { success: true, message: OAUTH_BIND_MESSAGE };
  };
  app.get('/api/oauth/github', { config: critical }, callback('github'));
  app.get('/api/oauth/lark', { config: critical }, callback('lark'));

  app.get('/api/oauth/wechat', { config: critical }, async (request, reply) =>
    signIn(reply, 'wechat', await externalIdentities.fetch('wechat', requireCode(request))),
  );

  /** OpenID Connect: the provider's authorisation URL, its state, nonce and PKCE verifier kept in the session. */
  app.get('/api/oauth/oidc/start', { config: critical }, async (request, reply) => {
    const { url, pending } = await oidc.start();
    updateSession(request, reply, sessions, { oidc: pending });
    return ok(url);
  });

  /** The sign-in under way ends here, whatever the outcome; a signed-in caller binds, anyone else signs in. */
  app.get('/api/oauth/oidc', { config: critical }, async (request, reply) => {
    const pending = request.session?.oidc;
    if (pending) updateSession(request, reply, sessions, { oidc: undefined });
    const identity = await oidc.finish(pending, {
      state: queryText(request.query, 'state'),
      code: queryText(request.query, 'code').trim(),
      error: queryText(request.query, 'error'),
      errorDescription: queryText(request.query, 'error_description'),
    });
    const current = await oauth.sessionUser(signedInSession(request));
    if (!current) return signIn(reply, 'oidc', identity);
    await oauth.bind(current.id, 'oidc', identity.id);
    return { success: true, message: OAUTH_BIND_MESSAGE };
  });

  app.get('/api/oauth/wechat/bind', { config: { ...critical, access: 'user' } }, async (request) => {
    const identity = await externalIdentities.fetch('wechat', requireCode(request));
    await oauth.bind(request.caller.id, 'wechat', identity.id);
    return ok();
  });
}

import { passkeyRegistrationInput, passkeySignInInput } from '@switchyard/contract/two-factor';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors';
import type { OptionsStore } from '../../domain/options';
import type { RelyingParty } from '../../domain/two-factor/passkeys';
import { ok, parseBody } from '../envelope';
import type { Services } from '../services';
import { signInNow } from '../sign-in';
import { updateSession } from '../visitor-session';

/** The site passkeys are bound to: the server address root set, else the address this call came to. */
function relyingParty(request: FastifyRequest, options: OptionsStore): RelyingParty {
  const address = options.get('ServerAddress');
  if (address && URL.canParse(address)) {
    const url = new URL(address);
    return { id: url.hostname, origin: url.origin };
  }
  return { id: request.hostname, origin: `${request.protocol}://${request.host}` };
}

/** Passkeys: registering and removing one's own, and the second sign-in step with one. */
export function passkeyRoutes(app: FastifyInstance, { options, sessions, passkeys }: Services): void {
  const user = { config: { access: 'user' as const } };
  app.get('/api/user/2fa/passkeys', user, async (request) => ok(await passkeys.list(request.caller)));
  app.post('/api/user/2fa/passkeys/options', user, async (request, reply) => {
    const answer = await passkeys.registrationOptions(request.caller, relyingParty(request, options));
    updateSession(request, reply, sessions, { passkeyChallenge: answer.challenge });
    return ok(answer);
  });
  app.post('/api/user/2fa/passkeys', user, async (request, reply) => {
    const input = parseBody(passkeyRegistrationInput, request.body);
    const challenge = request.session?.passkeyChallenge;
    if (!challenge) throw new DomainError('passkey_challenge_missing');
    // A challenge is signed once, whatever the outcome.
    updateSession(request, reply, sessions, { passkeyChallenge: undefined });
    return ok(
      await passkeys.register(request.caller, input, challenge, relyingParty(request, options), request.ip),
    );
  });
  app.delete<{ Params: { id: string } }>('/api/user/2fa/passkeys/:id', user, async (request) => {
    await passkeys.remove(request.caller, request.params.id.slice(0, 255), request.ip);
    return ok();
  });

  const critical = { config: { rateLimit: 'critical' as const } };
  const waiting = (request: FastifyRequest) => {
    const pending = request.session?.twoFactor;
    if (!pending || pending.until < Date.now()) throw new DomainError('two_factor_not_pending');
    return pending;
  };
  app.post('/api/user/login/2fa/passkey/options', critical, async (request, reply) => {
    const pending = waiting(request);
    const answer = await passkeys.signInOptions(pending, relyingParty(request, options));
    updateSession(request, reply, sessions, { twoFactor: { ...pending, challenge: answer.challenge } });
    return ok(answer);
  });
  app.post('/api/user/login/2fa/passkey', critical, async (request, reply) => {
    const { credential } = parseBody(passkeySignInInput, request.body);
    const pending = waiting(request);
    if (!pending.challenge) throw new DomainError('passkey_challenge_missing');
    updateSession(request, reply, sessions, { twoFactor: { ...pending, challenge: undefined } });
    const signedIn = await passkeys.verifySignIn(
      pending,
      credential,
      pending.challenge,
      relyingParty(request, options),
    );
    return signInNow(reply, sessions, signedIn);
  });
}

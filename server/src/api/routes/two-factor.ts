import { twoFactorCodeInput } from '@switchyard/contract/two-factor';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors';
import { ok, parseBody, parseId } from '../envelope';
import type { Services } from '../services';
import { signInNow } from '../sign-in';

/**
 * Two-factor sign-in: the second step of a sign-in, the caller's own enrolment and removal, and
 * root's removal for a user who lost the device. The enrolment routes stay open to an administrator
 * whom root requires to enrol (`beforeTwoFactor`).
 */
export function twoFactorRoutes(app: FastifyInstance, { sessions, twoFactor }: Services): void {
  app.post('/api/user/login/2fa', { config: { rateLimit: 'critical' } }, async (request, reply) => {
    const { code } = parseBody(twoFactorCodeInput, request.body);
    const pending = request.session?.twoFactor;
    if (!pending || pending.until < Date.now()) throw new DomainError('two_factor_not_pending');
    return signInNow(reply, sessions, await twoFactor.verifySignIn(pending, code, request.ip));
  });

  const enrolment = { config: { access: 'user' as const, beforeTwoFactor: true } };
  app.get('/api/user/2fa', enrolment, async (request) => ok(await twoFactor.status(request.caller)));
  app.post('/api/user/2fa/setup', enrolment, async (request) => ok(await twoFactor.setup(request.caller)));
  app.post('/api/user/2fa/enable', enrolment, async (request) => {
    const { code } = parseBody(twoFactorCodeInput, request.body);
    return ok(await twoFactor.enable(request.caller, code, request.ip));
  });
  app.post('/api/user/2fa/recovery_codes', { config: { access: 'user' } }, async (request) => {
    const { code } = parseBody(twoFactorCodeInput, request.body);
    return ok(await twoFactor.renewRecoveryCodes(request.caller, code, request.ip));
  });
  app.post('/api/user/2fa/disable', { config: { access: 'user' } }, async (request) => {
    const { code } = parseBody(twoFactorCodeInput, request.body);
    await twoFactor.disable(request.caller, code, request.ip);
    return ok();
  });

  const root = { config: { access: 'root' as const } };
  app.get<{ Params: { id: string } }>('/api/user/:id/2fa', root, async (request) =>
    ok({ enabled: await twoFactor.isEnabled(parseId(request.params.id)) }),
  );
  app.delete<{ Params: { id: string } }>('/api/user/:id/2fa', root, async (request) => {
    await twoFactor.reset(request.caller, parseId(request.params.id), request.ip);
    return ok();
  });
}

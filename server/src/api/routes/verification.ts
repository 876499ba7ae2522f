import { emailAddress, passwordResetInput } from '@switchyard/contract/auth';
import type { FastifyInstance } from 'fastify';
import { InputError } from '../../domain/errors';
import { ok, parseBody, queryText, schemaRefusal } from '../envelope';
import type { Services } from '../services';

/** The email address in the query, checked like every address the server mails to. */
function queryEmail(query: unknown): string {
  const result = emailAddress.safeParse(queryText(query, 'email'));
  if (!result.success) throw schemaRefusal(result.error);
  return result.data;
}

/** Mail codes and links: verifying an address, binding it, and resetting a forgotten password. */
export function verificationRoutes(
  app: FastifyInstance,
  { emailVerification, passwordReset }: Services,
): void {
  const guarded = { config: { rateLimit: 'critical' as const, botCheck: true, changesState: true } };

  app.get('/api/verification', guarded, async (request) => {
    await emailVerification.sendCode(queryEmail(request.query));
    return ok();
  });

  app.get('/api/reset_password', guarded, async (request) => {
    await passwordReset.sendLink(queryEmail(request.query));
    return ok();
  });

  app.post('/api/user/reset', { config: { rateLimit: 'critical' } }, async (request) => {
    const input = parseBody(passwordResetInput, request.body);
    return ok(await passwordReset.reset(input.email, input.token));
  });

  app.get(
    '/api/oauth/email/bind',
    { config: { rateLimit: 'critical', access: 'user', changesState: true } },
    async (request) => {
      const code = queryText(request.query, 'code').trim();
      if (!code) throw new InputError('verification_code_missing');
      await emailVerification.bind(request.caller.id, queryEmail(request.query), code);
      return ok();
    },
  );
}

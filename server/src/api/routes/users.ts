import {
  adminTopupInput,
  createUserInput,
  loginInput,
  manageUserInput,
  registerInput,
  updateSelfInput,
  updateUserInput,
} from '@switchyard/contract/users';
import type { FastifyInstance } from 'fastify';
import { toOwnApiUser } from '../../domain/users/api-user';
import { clearSession, sessionFor, signedInSession, writeSession } from '../access';
import { ok, parseBody, parseId, parsePage, queryText, searchKeyword } from '../envelope';
import type { Services } from '../services';
import { finishSignIn } from '../sign-in';

export function userRoutes(app: FastifyInstance, services: Services): void {
  const { users, sessions } = services;
  app.post('/api/user/register', { config: { rateLimit: 'critical', botCheck: true } }, async (request) => {
    await users.register(parseBody(registerInput, request.body));
    return ok();
  });

  app.post('/api/user/login', { config: { rateLimit: 'critical' } }, async (request, reply) => {
    const input = parseBody(loginInput, request.body);
    return finishSignIn(reply, services, await users.verifyLogin(input.username, input.password));
  });

  app.get('/api/user/logout', { config: { changesState: true } }, async (request, reply) => {
    await users.logout(signedInSession(request));
    clearSession(reply);
    return ok();
  });

  const user = { config: { access: 'user' as const } };
  const beforeTwoFactor = { config: { ...user.config, beforeTwoFactor: true } };
  app.get('/api/user/self', beforeTwoFactor, async (request) =>
    ok(toOwnApiUser(await users.getRow(request.caller.id))),
  );
  app.put('/api/user/self', user, async (request, reply) => {
    const input = parseBody(updateSelfInput, request.body);
    await users.updateSelf(request.caller, input);
    // A new password ended every session; the browser that changed it stays signed in.
    if (input.password && request.session?.id === request.caller.id) {
      writeSession(reply, sessions, {
        ...request.session,
        ...sessionFor(await users.getRow(request.caller.id)),
      });
    }
    return ok();
  });
  app.post(
    '/api/user/self/sessions/revoke',
    { config: { ...beforeTwoFactor.config, changesState: true } },
    async (request, reply) => {
      await users.endSessions(request.caller);
      clearSession(reply);
      return ok();
    },
  );
  app.delete('/api/user/self', user, async (request, reply) => {
    await users.deleteSelf(request.caller);
    clearSession(reply);
    return ok();
  });
  app.get('/api/user/token', { config: { ...user.config, changesState: true } }, async (request) =>
    ok(await users.regenerateAccessToken(request.caller)),
  );
  app.get('/api/user/aff', user, async (request) => ok(await users.affCode(request.caller)));
  app.get('/api/user/available_models', user, async (request) =>
    ok(await users.availableModels(request.caller)),
  );

  const admin = { config: { access: 'admin' as const } };
  app.get('/api/user/', admin, async (request) => {
    const query = request.query;
    return ok(await users.list(request.caller, parsePage(queryText(query, 'p')), queryText(query, 'order')));
  });
  app.get('/api/user/search', admin, async (request) =>
    ok(await users.search(request.caller, searchKeyword(request.query))),
  );
  app.get<{ Params: { id: string } }>('/api/user/:id', admin, async (request) =>
    ok(await users.getForAdmin(request.caller, parseId(request.params.id))),
  );
  app.post('/api/user/', admin, async (request) => {
    await users.createByAdmin(request.caller, parseBody(createUserInput, request.body));
    return ok();
  });
  app.put('/api/user/', admin, async (request) =>
    ok(await users.updateByAdmin(request.caller, parseBody(updateUserInput, request.body))),
  );
  app.post('/api/user/manage', admin, async (request) => {
    const input = parseBody(manageUserInput, request.body);
    return ok(await users.manage(request.caller, input.username, input.action));
  });
  app.delete<{ Params: { id: string } }>('/api/user/:id', admin, async (request) => {
    await users.deleteByAdmin(request.caller, parseId(request.params.id));
    return ok();
  });
  app.post('/api/topup', admin, async (request) => {
    const input = parseBody(adminTopupInput, request.body);
    await users.topUp(request.caller, input.user_id, input.quota, input.remark);
    return ok();
  });
}

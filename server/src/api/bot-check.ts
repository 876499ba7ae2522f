import type { FastifyInstance } from 'fastify';
import type { TurnstileCheck } from '../domain/turnstile';
import { queryText } from './envelope';
import { addRouteHook } from './route-hooks';
import type { SessionCodec } from './session';
import { updateSession } from './visitor-session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Needs a passed Turnstile check (`?turnstile=<token>`) when TurnstileCheckEnabled. */
    botCheck?: boolean;
  }
}

/** The Turnstile gate: checked once per session, then remembered in it (as one-api does). */
export function installBotCheck(
  app: FastifyInstance,
  turnstile: TurnstileCheck,
  sessions: SessionCodec,
): void {
  addRouteHook(
    app,
    'preHandler',
    (route) => route.config?.botCheck === true,
    async (request, reply) => {
      if (!turnstile.enabled() || request.session?.turnstile) return;
      await turnstile.verify(queryText(request.query, 'turnstile'), request.ip);
      updateSession(request, reply, sessions, { turnstile: true });
    },
  );
}

import type {
  FastifyInstance,
  onRequestHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  preSerializationAsyncHookHandler,
  RouteOptions,
} from 'fastify';

type RouteHooks = {
  onRequest: onRequestHookHandler;
  preHandler: preHandlerHookHandler;
  onSend: onSendHookHandler;
  preSerialization: preSerializationAsyncHookHandler;
};

/**
 * Attaches a hook, at registration, only to the routes it concerns (decided from the route's
 * options): the others, the relay's hot path among them, never run it. Must be called before the
 * routes are registered.
 */
export function addRouteHook<P extends keyof RouteHooks>(
  app: FastifyInstance,
  phase: P,
  concerns: (route: RouteOptions) => boolean,
  hook: RouteHooks[P],
): void {
  app.addHook('onRoute', (route) => {
    if (!concerns(route)) return;
    const existing = route[phase];
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
    (route as Record<P, unknown>)[phase] = [...hooks, hook];
  });
}

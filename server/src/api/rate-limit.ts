import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import type { RateLimiter } from '../cluster/rate-limiter';
import { DomainError } from '../domain/errors';
import { RelayError } from '../relay/errors';
import { CORS_HEADERS } from '../relay/front/reply-sink';
import { languageOf, refusal } from './envelope';
import { addRouteHook } from './route-hooks';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'critical': sign-in, registration, mail and OAuth routes, counted per client IP. */
    rateLimit?: 'critical';
  }
}

const tooManyRequests = new DomainError('too_many_requests');
const TOO_MANY_REQUESTS = tooManyRequests.message;

/**
 * one-api's marks, which start every limiter key (`<mark><client IP>`), so keys read the same in a
 * shared Redis: CT the critical routes, GA every /api route and the dashboard billing routes, GW the
 * console's files.
 */
type Mark = 'CT' | 'GA' | 'GW';

/** A refused call is answered 429 in the shape its route speaks. */
type Shape = 'envelope' | 'openai' | 'text';

function sendRefusal(request: FastifyRequest, reply: FastifyReply, shape: Shape): FastifyReply {
  reply.code(429);
  if (shape === 'envelope') return reply.send(refusal(tooManyRequests, languageOf(request)));
  if (shape === 'openai') {
    return reply
      .headers(CORS_HEADERS)
      .send(RelayError.gateway(429, TOO_MANY_REQUESTS, 'rate_limit_exceeded').body(''));
  }
  return reply.type('text/plain; charset=utf-8').send(TOO_MANY_REQUESTS);
}

/**
 * The one rule of every limiter: the call counts against its client IP under the limiter's mark;
 * once the client has used up its calls in the window the call is answered 429. Answers whether it was.
 */
async function refused(
  limiter: RateLimiter,
  mark: Mark,
  shape: Shape,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  if (await limiter.allow(mark + request.ip)) return false;
  await sendRefusal(request, reply, shape);
  return true;
}

/** Attaches the rule, at registration, to the routes it concerns: the others never run it. */
function limitRoutes(
  app: FastifyInstance,
  limiter: RateLimiter,
  mark: Mark,
  shapes: Array<[concerns: (route: RouteOptions) => boolean, shape: Shape]>,
): void {
  for (const [concerns, shape] of shapes) {
    addRouteHook(app, 'onRequest', concerns, async (request, reply) => {
      await refused(limiter, mark, shape, request, reply);
    });
  }
  app.addHook('onClose', () => limiter.close());
}

/** Answers 429 once a client IP has used up its calls to the critical routes in the window. */
export function installCriticalRateLimit(app: FastifyInstance, limiter: RateLimiter | undefined): void {
  if (!limiter) return;
  limitRoutes(app, limiter, 'CT', [[(route) => route.config?.rateLimit === 'critical', 'envelope']]);
}

const isApi = (route: RouteOptions) => route.url === '/api' || route.url.startsWith('/api/');
const isBillingDashboard = (route: RouteOptions) =>
  route.url.startsWith('/dashboard/billing/') || route.url.startsWith('/v1/dashboard/billing/');

/**
 * GLOBAL_API_RATE_LIMIT: answers 429 once a client IP has used up its calls to /api and the billing
 * dashboard in the window; in the envelope on /api, in OpenAI's shape on the billing routes.
 * Must be installed before those routes are registered.
 */
export function installApiRateLimit(app: FastifyInstance, limiter: RateLimiter | undefined): void {
  if (!limiter) return;
  limitRoutes(app, limiter, 'GA', [
    [isApi, 'envelope'],
    [isBillingDashboard, 'openai'],
  ]);
}

/** GLOBAL_WEB_RATE_LIMIT, for the console's files (a route hook) and its index.html fallback. */
export interface WebRateLimit {
  /** For the routes of the console's files. */
  hook: onRequestHookHandler;
  /** For the index.html fallback: counts the call and, when over the limit, answers 429 and says so. */
  refused(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

export function webRateLimit(
  app: FastifyInstance,
  limiter: RateLimiter | undefined,
): WebRateLimit | undefined {
  if (!limiter) return undefined;
  app.addHook('onClose', () => limiter.close());
  const check = (request: FastifyRequest, reply: FastifyReply) =>
    refused(limiter, 'GW', 'text', request, reply);
  return {
    hook: async (request, reply) => {
      await check(request, reply);
    },
    refused: check,
  };
}

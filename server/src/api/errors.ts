import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnreachable } from '../db/connect';
import { DomainError } from '../domain/errors';
import { describeFrameworkError } from '../http/body-errors';
import { hasBody } from '../http/body-limits';
import { isConsolePage } from './console';
import { languageOf, refusal } from './envelope';

/** HTTP statuses a refusal of the management API keeps; one-api answers every other one with 200. */
const KEPT_API_STATUSES = new Set([401, 403, 404, 429]);

/**
 * The status of a refused /api call, as one-api answers it: 200 with `success: false` for what it
 * cannot decode or accept (schema, validation, domain, malformed or oversized body), while a missing
 * session (401), a forbidden call (403), an unknown route (404), a rate limit (429) and our own
 * failures (5xx) keep theirs. The relay (/v1) has its own handlers and statuses.
 */
const managementStatus = (status: number): number =>
  status >= 500 || KEPT_API_STATUSES.has(status) ? status : 200;

/** `/api` and below (the router also takes `//api/…`, ignoring duplicate slashes). */
const isApiPath = (url: string): boolean => /^\/+api(?:[/?]|$)/.test(url);

/** Every failure of an /api call leaves as the envelope; a 500 only for our own bugs, never for input. */
export function installErrorHandlers(
  app: FastifyInstance,
  /** Whether the built console is served here (its index.html answers deep links). */
  consoleServed: boolean,
  /** GLOBAL_WEB_RATE_LIMIT for the index.html fallback: answers 429 itself and says so. */
  webLimitRefused?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
  /** FRONTEND_BASE_URL: page requests go there (the path and query kept) instead of 404. */
  frontendBaseUrl?: string,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const refused = (answer: DomainError) => {
      const status = isApiPath(request.url) ? managementStatus(answer.httpStatus) : answer.httpStatus;
      return reply.code(status).send(refusal(answer, languageOf(request)));
    };
    if (error instanceof DomainError) return refused(error);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return refused(describeFrameworkError(error, status, request.routeOptions.bodyLimit));
    // Not a bug of ours: the relay answers the same (relay/errors.ts).
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ reason: error.message, url: request.url }, 'the database cannot be reached');
      return refused(new DomainError('database_unavailable', {}, 503));
    }
    request.log.error({ err: error, url: request.url }, 'unhandled error');
    return refused(new DomainError('internal_error', {}, 500));
  });

  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    if (isApiPath(path)) {
      const notFound = new DomainError('api_route_not_found', { method: request.method, path });
      return reply.code(404).send(refusal(notFound, languageOf(request)));
    }
    if (isConsolePage(request)) {
      if (frontendBaseUrl)
        return reply.redirect(`${frontendBaseUrl}${request.url.replace(/^\/+/, '/')}`, 302);
      if (consoleServed) {
        if (webLimitRefused && (await webLimitRefused(request, reply))) return reply;
        return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
      }
    }
    // The relay's error shape (one-api's), for /v1, the other APIs and anything else.
    return reply.code(404).send({
      error: {
        message: `Invalid URL (${request.method} ${path})`,
        type: 'invalid_request_error',
        param: '',
        code: '',
      },
    });
  };
  app.setNotFoundHandler(notFound);
  // An unknown route is answered from its headers: its body is never read (nor counted in the budget).
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 && hasBody(request)) return notFound(request, reply);
  });
}

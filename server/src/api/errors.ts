import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors';
import { refusal } from './envelope';

/** Fastify's own errors for malformed requests, said in words a person understands. */
function describeFrameworkError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type: send JSON with Content-Type: application/json';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body';
    default:
      return error.message || 'Bad request';
  }
}

/** Every failure of an /api call leaves as the envelope; a 500 only for our own bugs, never for input. */
export function installErrorHandlers(
  app: FastifyInstance,
  serveConsole: (url: string) => boolean,
  /** GLOBAL_WEB_RATE_LIMIT for the index.html fallback: answers 429 itself and says so. */
  webLimitRefused?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) return reply.code(error.httpStatus).send(refusal(error.message));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(refusal(describeFrameworkError(error)));
    request.log.error({ err: error, url: request.url }, 'unhandled error');
    return reply
      .code(500)
      .send(refusal('Internal server error; the administrator can find details in the server log'));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/v1' || path.startsWith('/v1/')) {
      return reply.code(404).send({
        error: {
          message: `Invalid URL (${request.method} ${path})`,
          type: 'invalid_request_error',
          param: '',
          code: '',
        },
      });
    }
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.code(404).send(refusal(`No such API route: ${request.method} ${path}`));
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && serveConsole(path)) {
      if (webLimitRefused && (await webLimitRefused(request, reply))) return reply;
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).type('text/plain').send('Not found');
  });
}

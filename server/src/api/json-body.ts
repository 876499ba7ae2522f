import type { FastifyInstance } from 'fastify';

/**
 * The console API's JSON bodies, read as Fastify does (prototype poisoning refused), except that an
 * empty body with `Content-Type: application/json` is no body, as one-api takes it (a DELETE from a
 * script, a POST that needs nothing): routes that need a body still refuse it for what it lacks.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

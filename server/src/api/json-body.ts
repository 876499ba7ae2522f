import type { FastifyInstance } from 'fastify';
import { bodyTooDeep, jsonNestsDeeperThan } from '../json-depth';

/**
 * The console API's JSON bodies, read as Fastify does (prototype poisoning refused), except that an
 * empty body with `Content-Type: application/json` is no body, as one-api takes it (a DELETE from a
 * script, a POST that needs nothing): routes that need a body still refuse it for what it lacks.
 * A body nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    const text = bytes.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(bytes)) {
      done(bodyTooDeep(), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

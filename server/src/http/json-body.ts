import type { FastifyInstance, FastifyRequest } from 'fastify';
import { chargeParsedBody } from './body-budget';
import { checkJsonShape } from './json-shape';

/**
 * Admits a JSON body to be parsed: refused when its shape is beyond JSON_SHAPE_LIMITS, and what its
 * parsed form will add to the heap is counted in the body budget.
 */
export function admitJsonBody(request: FastifyRequest, body: Buffer): void {
  chargeParsedBody(request, checkJsonShape(body));
}

/**
 * The console API's JSON bodies, read as Fastify does (prototype poisoning refused), except that an
 * empty body with `Content-Type: application/json` is no body, as one-api takes it (a DELETE from a
 * script, a POST that needs nothing): routes that need a body still refuse it for what it lacks.
 * A body is admitted by its shape before it is parsed.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      admitJsonBody(request, body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

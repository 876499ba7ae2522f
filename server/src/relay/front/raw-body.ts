import type { FastifyInstance } from 'fastify';
import { admitJsonBody } from '../../http/json-body';

/**
 * Relay bodies are kept as bytes, so what is not ours passes through untouched. Those the relay will
 * parse as JSON (all but multipart uploads) are first admitted by their shape (see json-shape).
 */
export function keepRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      if (!String(request.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
        admitJsonBody(request, body as Buffer);
      }
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, body);
  });
}

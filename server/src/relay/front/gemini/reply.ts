import type { FastifyRequest } from 'fastify';

/** Google's clients send the key as `x-goog-api-key` or `?key=`; a Bearer header is taken too. */
export function googleApiKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-goog-api-key'];
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.key === 'string' && query.key) return query.key;
  return request.headers.authorization;
}

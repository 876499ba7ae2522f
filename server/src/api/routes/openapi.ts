import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document';
import type { Services } from '../services';

/** The OpenAPI document, public; built on first request and kept. */
export function openApiRoutes(app: FastifyInstance, { config }: Services): void {
  let document: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', async () => {
    document ??= buildOpenApiDocument(config.version);
    return document;
  });
}

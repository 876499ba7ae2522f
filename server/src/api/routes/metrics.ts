import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PrimaryLink } from '../../cluster/workers/primary-link';
import type { GatewayMetrics } from '../../metrics/gateway-metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus's text format, for `Authorization: Bearer <METRICS_TOKEN>` only (401
 * otherwise). In a cluster any worker answers with every worker's metrics added up, which it gets
 * from the primary (prom-client's AggregatorRegistry).
 */
export function metricsRoutes(
  app: FastifyInstance,
  { metrics, token, primary }: { metrics: GatewayMetrics; token: string; primary?: PrimaryLink },
): void {
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    const given = request.headers.authorization ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .type('text/plain')
        .send('401 Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
    }
    const text = primary ? await primary.call<string>({ op: 'metrics' }) : await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}

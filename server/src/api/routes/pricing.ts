import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope';
import type { Services } from '../services';

/** The price list: `/api/pricing` the caller's group, `/api/pricing/public` visitors' (when root allows it). */
export function pricingRoutes(app: FastifyInstance, { priceSheets }: Services): void {
  const user = { config: { access: 'user' as const } };
  app.get('/api/pricing', user, async (request) => ok(await priceSheets.forUser(request.caller)));
  app.get('/api/pricing/public', async () => ok(await priceSheets.forVisitors()));
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { OPTION_BODY_LIMIT } from '../../http/body-limits';
import { ok, parseBody } from '../envelope';
import type { Services } from '../services';

export const optionInput = z.object({
  key: z.string({ error: 'key must be a string' }).min(1, 'key is required'),
  value: z.string({ error: 'value must be a string (booleans as "true" or "false")' }).max(1_000_000),
});

export function optionRoutes(app: FastifyInstance, { options }: Services): void {
  const root = { config: { access: 'root' as const } };
  app.get('/api/option/', root, async () => ok(options.publicEntries()));
  app.put('/api/option/', { ...root, bodyLimit: OPTION_BODY_LIMIT }, async (request) => {
    const input = parseBody(optionInput, request.body);
    await options.update(input.key, input.value);
    return ok();
  });
  app.get('/api/group/', { config: { access: 'admin' } }, async () => ok(options.groups()));
}

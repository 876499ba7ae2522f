import {
  createRedemptionInput,
  redeemInput,
  redemptionStatusInput,
  updateRedemptionInput,
} from '@switchyard/contract/redemptions';
import type { FastifyInstance } from 'fastify';
import { ok, parseBody, parseId, parsePage, queryText, searchKeyword } from '../envelope';
import type { Services } from '../services';

export function redemptionRoutes(app: FastifyInstance, { redemptions }: Services): void {
  const admin = { config: { access: 'admin' as const } };
  app.get('/api/redemption/', admin, async (request) =>
    ok(await redemptions.list(parsePage(queryText(request.query, 'p')))),
  );
  app.get('/api/redemption/search', admin, async (request) =>
    ok(await redemptions.search(searchKeyword(request.query))),
  );
  app.get<{ Params: { id: string } }>('/api/redemption/:id', admin, async (request) =>
    ok(await redemptions.get(parseId(request.params.id))),
  );
  app.post('/api/redemption/', admin, async (request) =>
    ok(await redemptions.create(request.caller, parseBody(createRedemptionInput, request.body))),
  );
  app.put('/api/redemption/', admin, async (request) => {
    if (queryText(request.query, 'status_only')) {
      const input = parseBody(redemptionStatusInput, request.body);
      return ok(await redemptions.setStatus(input.id, input.status));
    }
    return ok(await redemptions.update(parseBody(updateRedemptionInput, request.body)));
  });
  app.delete<{ Params: { id: string } }>('/api/redemption/:id', admin, async (request) => {
    await redemptions.delete(parseId(request.params.id));
    return ok();
  });

  app.post('/api/user/topup', { config: { access: 'user' } }, async (request) =>
    ok(await redemptions.redeem(request.caller, parseBody(redeemInput, request.body).key)),
  );
}

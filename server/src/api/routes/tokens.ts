import { createTokenInput, tokenStatusInput, updateTokenInput } from '@switchyard/contract/tokens';
import type { FastifyInstance } from 'fastify';
import { ok, parseBody, parseId, parsePage, queryText, searchKeyword } from '../envelope';
import type { Services } from '../services';

export function tokenRoutes(app: FastifyInstance, { tokens }: Services): void {
  const user = { config: { access: 'user' as const } };
  app.get('/api/token/', user, async (request) =>
    ok(
      await tokens.list(
        request.caller,
        parsePage(queryText(request.query, 'p')),
        queryText(request.query, 'order'),
      ),
    ),
  );
  app.get('/api/token/search', user, async (request) =>
    ok(await tokens.search(request.caller, searchKeyword(request.query))),
  );
  app.get<{ Params: { id: string } }>('/api/token/:id', user, async (request) =>
    ok(await tokens.get(request.caller, parseId(request.params.id))),
  );
  app.post('/api/token/', user, async (request) =>
    ok(await tokens.create(request.caller, parseBody(createTokenInput, request.body))),
  );
  app.put('/api/token/', user, async (request) => {
    if (queryText(request.query, 'status_only')) {
      const input = parseBody(tokenStatusInput, request.body);
      return ok(await tokens.setStatus(request.caller, input.id, input.status));
    }
    return ok(await tokens.update(request.caller, parseBody(updateTokenInput, request.body)));
  });
  app.delete<{ Params: { id: string } }>('/api/token/:id', user, async (request) => {
    await tokens.delete(request.caller, parseId(request.params.id));
    return ok();
  });
}

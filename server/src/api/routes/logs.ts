import { wholeNumberText } from '@switchyard/contract/envelope';
import type { LogFilter } from '@switchyard/contract/logs';
import { isAdminRole } from '@switchyard/contract/roles';
import type { FastifyInstance } from 'fastify';
import { InputError } from '../../domain/errors';
import { ok, parsePage, queryText, searchKeyword } from '../envelope';
import type { Services } from '../services';

function number(query: unknown, name: string): number {
  const text = queryText(query, name).trim();
  if (text === '') return 0;
  const value = wholeNumberText(text);
  if (value === undefined) throw new InputError('query_not_whole_number', { name });
  return value;
}

/** The log filters of a query string; `admin` adds username and channel. */
function filterOf(query: unknown, admin: boolean): Partial<LogFilter> {
  return {
    type: number(query, 'type'),
    startTimestamp: number(query, 'start_timestamp'),
    endTimestamp: number(query, 'end_timestamp'),
    modelName: queryText(query, 'model_name').trim(),
    tokenName: queryText(query, 'token_name').trim(),
    ...(admin ? { username: queryText(query, 'username').trim(), channel: number(query, 'channel') } : {}),
  };
}

export function logRoutes(app: FastifyInstance, { logs }: Services): void {
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };

  app.get('/api/log/', admin, async (request) =>
    ok(
      await logs.list(
        filterOf(request.query, true),
        { visibleTo: request.caller },
        parsePage(queryText(request.query, 'p')),
      ),
    ),
  );
  app.get('/api/log/stat', admin, async (request) =>
    ok({ quota: await logs.stat(filterOf(request.query, true), { visibleTo: request.caller }) }),
  );
  app.get('/api/log/search', admin, async (request) =>
    ok(await logs.search(searchKeyword(request.query), { visibleTo: request.caller })),
  );
  app.delete('/api/log/', admin, async (request) =>
    ok(await logs.deleteBefore(number(request.query, 'target_timestamp'))),
  );

  app.get('/api/log/self', user, async (request) =>
    ok(
      await logs.list(
        filterOf(request.query, false),
        { own: request.caller.id },
        parsePage(queryText(request.query, 'p')),
      ),
    ),
  );
  app.get('/api/log/self/stat', user, async (request) =>
    ok({ quota: await logs.stat(filterOf(request.query, false), { own: request.caller.id }) }),
  );
  app.get('/api/log/self/search', user, async (request) =>
    ok(await logs.search(searchKeyword(request.query), { own: request.caller.id })),
  );

  app.get('/api/user/dashboard', user, async (request) => {
    const query = request.query;
    const range = { start: number(query, 'start_timestamp'), end: number(query, 'end_timestamp') };
    const username = queryText(query, 'username').trim();
    const everyone = queryText(query, 'scope') === 'all';
    const who =
      isAdminRole(request.caller.role) && (username || everyone)
        ? { visibleTo: request.caller, username }
        : { own: request.caller.id };
    return ok(await logs.dashboard(range, who));
  });
}

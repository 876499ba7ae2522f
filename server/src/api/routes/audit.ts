import { wholeNumberText } from '@switchyard/contract/envelope';
import type { FastifyInstance } from 'fastify';
import { InputError } from '../../domain/errors';
import { ok, parsePage, queryText } from '../envelope';
import type { Services } from '../services';

function optionalNumber(query: unknown, name: string): number | undefined {
  const text = queryText(query, name).trim();
  if (text === '') return undefined;
  const value = wholeNumberText(text);
  if (value === undefined) throw new InputError('query_not_whole_number', { name });
  return value;
}

/** The audit log, read only: there is no route that changes or removes an entry. */
export function auditRoutes(app: FastifyInstance, { audit }: Services): void {
  app.get('/api/audit/', { config: { access: 'admin' } }, async (request) => {
    const query = request.query;
    const filter = {
      actor: queryText(query, 'actor').trim(),
      action: queryText(query, 'action').trim(),
      target: queryText(query, 'target').trim(),
      start: optionalNumber(query, 'start_timestamp'),
      end: optionalNumber(query, 'end_timestamp'),
    };
    return ok(await audit.list(request.caller, filter, parsePage(queryText(query, 'p'))));
  });
}

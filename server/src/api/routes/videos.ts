import type { FastifyInstance } from 'fastify';
import { ok, parsePage, queryText } from '../envelope';
import type { Services } from '../services';

/** The console's video jobs: `/api/video/self` a user's own, `/api/video/` everyone's (administrators). */
export function videoRoutes(app: FastifyInstance, { videoJobList }: Services): void {
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };
  app.get('/api/video/', admin, async (request) =>
    ok(await videoJobList.page({ all: true }, parsePage(queryText(request.query, 'p')))),
  );
  app.get('/api/video/self', user, async (request) =>
    ok(await videoJobList.page({ own: request.caller.id }, parsePage(queryText(request.query, 'p')))),
  );
}

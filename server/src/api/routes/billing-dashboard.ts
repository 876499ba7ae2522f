import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardKey } from '../../domain/billing-dashboard';
import { asRelayError, RelayError } from '../../relay/errors';
import { CORS_HEADERS } from '../../relay/front/reply-sink';
import { newRequestId } from '../../relay/front/request-id';
import { authenticate } from '../../relay/pipeline/authenticate';
import type { Services } from '../services';

function sendError(reply: FastifyReply, requestId: string, error: unknown): FastifyReply {
  const relayError = asRelayError(error);
  if (!(error instanceof RelayError)) reply.log.error({ err: error, requestId }, 'billing dashboard failed');
  return reply.code(relayError.status).send(relayError.body(requestId));
}

/**
 * GET /dashboard/billing/subscription and /dashboard/billing/usage, also under /v1, with the key
 * authenticated as the relay does and errors in OpenAI's shape.
 */
export function billingDashboardRoutes(
  app: FastifyInstance,
  { identities, billingDashboard }: Pick<Services, 'identities' | 'billingDashboard'>,
): void {
  const answer =
    (build: (caller: DashboardKey) => Promise<Record<string, unknown> | undefined>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const requestId = newRequestId();
      reply.headers(CORS_HEADERS).header('x-oneapi-request-id', requestId);
      try {
        const caller = await authenticate(identities, request.headers.authorization, request.ip);
        const body = await build({ key: caller.token.row.key, userId: caller.user.id });
        if (!body) throw RelayError.gateway(401, 'Invalid API key', 'invalid_api_key');
        return reply.send(body);
      } catch (error) {
        return sendError(reply, requestId, error);
      }
    };

  const subscription = answer((caller) => billingDashboard.subscription(caller));
  const usage = answer((caller) => billingDashboard.usage(caller));
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, subscription);
    app.get(`${prefix}/dashboard/billing/usage`, usage);
  }
  app.options('/dashboard/*', async (_request, reply) => reply.headers(CORS_HEADERS).code(204).send());
}

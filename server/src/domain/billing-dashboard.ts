import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../db/connect';
import { findTokenByKey } from '../db/repos/tokens';
import { findUserById } from '../db/repos/users';
import { RelayError } from '../relay/errors';
import { CORS_HEADERS } from '../relay/front/reply-sink';
import { newRequestId } from '../relay/front/request-id';
import { authenticate } from '../relay/pipeline/authenticate';
import type { IdentityCache } from '../relay/pipeline/identity-cache';
import type { OptionsStore } from './options';

export interface BillingDashboardDeps {
  db: Sql;
  options: OptionsStore;
  identities: IdentityCache;
}

/** Quota as the dashboard shows it: US dollars when DisplayInCurrencyEnabled, else quota units. */
function amountOf(options: OptionsStore, quota: number): number {
  if (!options.bool('DisplayInCurrencyEnabled')) return quota;
  return quota / (options.number('QuotaPerUnit') || 1);
}

interface Spending {
  /** What the key may spend in all: what is left plus what it has spent. */
  granted: number;
  used: number;
  /** Unix seconds; 0 when the key never expires. */
  expiresAt: number;
}

/**
 * The numbers behind both endpoints, read fresh from the database (the identity cache may be
 * seconds old). With DisplayTokenStatEnabled (the default) they are the key's own; otherwise its
 * owner's. A key without a limit is bounded by its owner's quota: that plus what the key has spent,
 * so that a client's "limit − usage" is what the key can still spend.
 */
async function spendingOf(deps: BillingDashboardDeps, key: string, userId: number): Promise<Spending> {
  const [token, user] = await Promise.all([findTokenByKey(deps.db, key), findUserById(deps.db, userId)]);
  if (!token || !user) throw new RelayError(401, 'Invalid API key', 'one_api_error', 'invalid_api_key');
  const userQuota = Number(user.quota);
  if (!deps.options.bool('DisplayTokenStatEnabled')) {
    const used = Number(user.used_quota);
    return { granted: userQuota + used, used, expiresAt: 0 };
  }
  const used = Number(token.used_quota);
  return {
    granted: (token.unlimited_quota ? userQuota : Number(token.remain_quota)) + used,
    used,
    expiresAt: Math.max(0, Number(token.expired_time)),
  };
}

function sendError(reply: FastifyReply, requestId: string, error: unknown): FastifyReply {
  const relayError =
    error instanceof RelayError
      ? error
      : new RelayError(500, 'Internal error in the gateway', 'one_api_panic', 'internal_error');
  if (!(error instanceof RelayError)) reply.log.error({ err: error, requestId }, 'billing dashboard failed');
  return reply.code(relayError.status).send(relayError.body(requestId));
}

/**
 * one-api's billing dashboard for API-key clients (ChatGPT-style apps read a key's balance from
 * it): GET /dashboard/billing/subscription and /dashboard/billing/usage, also under /v1, with the
 * key authenticated as the relay does and errors in OpenAI's shape.
 */
export function billingDashboardRoutes(app: FastifyInstance, deps: BillingDashboardDeps): void {
  const answer =
    (build: (spending: Spending) => Record<string, unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const requestId = newRequestId();
      reply.headers(CORS_HEADERS).header('x-oneapi-request-id', requestId);
      try {
        const caller = await authenticate(deps.identities, request.headers.authorization, request.ip);
        return reply.send(build(await spendingOf(deps, caller.token.row.key, caller.user.id)));
      } catch (error) {
        return sendError(reply, requestId, error);
      }
    };

  const subscription = answer(({ granted, expiresAt }) => {
    const amount = amountOf(deps.options, granted);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: expiresAt,
    };
  });
  const usage = answer(({ used }) => ({ object: 'list', total_usage: amountOf(deps.options, used) * 100 }));

  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, subscription);
    app.get(`${prefix}/dashboard/billing/usage`, usage);
  }
  app.options('/dashboard/*', async (_request, reply) => reply.headers(CORS_HEADERS).code(204).send());
}

import { playgroundChatSchema } from '@switchyard/contract/playground';
import { TokenStatus } from '@switchyard/contract/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenRow } from '../../db/schema';
import { DomainError } from '../../domain/errors';
import type { Actor } from '../../domain/permissions';
import { CONSOLE_ANSWER, hijackedSink } from '../../relay/front/reply-sink';
import { newRequestId } from '../../relay/front/request-id';
import { sendError } from '../../relay/front/send-error';
import { authenticate, type RelayCaller } from '../../relay/pipeline/authenticate';
import { ok, parseBody } from '../envelope';
import type { Services } from '../services';

/** The temporary key's name in usage logs. */
const TEMPORARY_KEY_NAME = 'playground';

/**
 * The temporary key: the user's own quota with no key's limits (no quota, models, subnet, rate
 * limits or budget of its own). Id 0 is no token's, so the ledger charges the user alone.
 */
function temporaryKey(userId: number): TokenRow {
  return {
    id: 0,
    user_id: userId,
    // No key is written so (keys are alphanumeric): the user's limits are counted under it, apart from other users'.
    key: `playground:${userId}`,
    status: TokenStatus.enabled,
    name: TEMPORARY_KEY_NAME,
    created_time: 0,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: true,
    used_quota: 0,
    models: null,
    subnet: null,
    held_quota: 0,
    rpm_limit: null,
    tpm_limit: null,
    concurrency_limit: null,
    budget_quota: null,
    budget_period: null,
    budget_used: null,
    budget_start: null,
  };
}

/**
 * The console's playground: a chat relayed as a streamed /v1/chat/completions call with one of the
 * caller's keys (or the temporary one), read server-side so the browser never holds it. The call
 * goes through the relay's pipeline: routed, billed, logged and cut short on disconnect as any call.
 */
export function playgroundRoutes(app: FastifyInstance, { tokens, identities, relay }: Services): void {
  const user = { config: { access: 'user' as const } };

  app.get('/api/playground/keys', user, async (request) => ok(await tokens.playgroundKeys(request.caller)));

  const callerOf = async (request: FastifyRequest, tokenId: number | undefined): Promise<RelayCaller> => {
    const actor: Actor = request.caller;
    if (tokenId !== undefined) {
      const key = await tokens.ownKey(actor, tokenId);
      return authenticate(identities, key, request.ip);
    }
    const owner = await identities.user(actor.id);
    if (!owner) throw new DomainError('not_logged_in', {}, 401);
    return {
      token: { row: temporaryKey(actor.id), models: undefined, subnets: [] },
      user: owner,
      pinnedChannelId: undefined,
    };
  };

  app.post('/api/playground/chat/completions', { ...user, compress: false }, async (request, reply) => {
    const chat = parseBody(playgroundChatSchema, request.body);
    const requestId = newRequestId();
    let caller: RelayCaller;
    try {
      caller = await callerOf(request, chat.token_id);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      return sendError(reply.hijack(), requestId, error, request.log, 'openai', CONSOLE_ANSWER);
    }
    const { token_id: _tokenId, ...fields } = chat;
    const body = { ...fields, stream: true };
    const sink = hijackedSink(reply, requestId, CONSOLE_ANSWER);
    try {
      await relay.handle(
        caller,
        {
          requestId,
          mode: 'chat',
          path: '/v1/chat/completions',
          query: '',
          rawBody: Buffer.from(JSON.stringify(body)),
          body,
          contentType: 'application/json',
        },
        sink,
      );
    } catch (error) {
      sendError(reply, requestId, error, request.log, 'openai', CONSOLE_ANSWER);
    }
  });
}

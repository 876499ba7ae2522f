import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { nowSeconds } from '../../../clock';
import { responsesNative } from '../../adaptors/openai/responses-native';
import type { Relay } from '../../pipeline/relay';
import { parseJsonObject } from '../json-body';
import { bearerKey, type JsonRelayRoute } from '../json-route';
import { nativeChatCall } from '../native-chat-call';
import { responseNotStored } from './errors';
import { chatForPipeline } from './passthrough-only';
import { ResponsesSink } from './sink';

export interface ResponsesRouteDeps {
  /** The relay's route options: the key checked from the headers before the body is read, the body limit. */
  routeOptions: RouteShorthandOptions;
  /** Answers a failure in OpenAI's error shape (or ends a stream that has begun). */
  sendError: (reply: FastifyReply, requestId: string, error: unknown, log: FastifyRequest['log']) => void;
}

/** What a stored response would serve: this gateway keeps none, so each answers 404 (`responses_not_stored`). */
export const STORED_RESPONSE_ROUTES = [
  ['GET', '/v1/responses/:id'],
  ['DELETE', '/v1/responses/:id'],
  ['POST', '/v1/responses/:id/cancel'],
  ['GET', '/v1/responses/:id/input_items'],
] as const;

/**
 * OpenAI's Responses API. On an OpenAI or Azure channel the call passes through untouched
 * (pipeline/native.ts); on any other it is translated to chat and its answer back.
 */
export const responsesRoute = (relay: Relay): JsonRelayRoute => ({
  path: '/v1/responses',
  format: 'openai',
  keyOf: bearerKey,
  async serve({ requestId, caller, rawBody, headers }, sink) {
    const native = parseJsonObject(rawBody);
    const { chat, tools, untranslatable } = chatForPipeline(native);
    const context = {
      requestId,
      model: String(native.model),
      createdAt: nowSeconds(),
      request: native,
      tools,
    };
    await relay.handle(
      caller,
      nativeChatCall(requestId, chat, {
        format: responsesNative(context),
        rawBody,
        body: native,
        headers,
        untranslatable,
      }),
      new ResponsesSink(sink, context),
    );
  },
});

/** What a stored response would serve: each answers 404, this gateway keeps none. */
export function storedResponseRoutes(scope: FastifyInstance, deps: ResponsesRouteDeps): void {
  for (const [method, url] of STORED_RESPONSE_ROUTES) {
    scope.route<{ Params: { id: string } }>({
      method,
      url,
      ...deps.routeOptions,
      handler: async (request, reply) => {
        const { requestId } = request.relayCall;
        deps.sendError(reply.hijack(), requestId, responseNotStored(request.params.id), request.log);
      },
    });
  }
}

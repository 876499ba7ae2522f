import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { anthropicNative } from '../../adaptors/anthropic/native';
import type { Relay } from '../../pipeline/relay';
import { parseJsonObject } from '../json-body';
import { nativeChatCall } from '../native-chat-call';
import { ReplySink } from '../reply-sink';
import { sendError } from '../send-error';
import { countTokensCall } from './count-tokens';
import { anthropicToOpenAi } from './request';
import { AnthropicSink } from './sink';

/** Anthropic's clients send their key as `x-api-key`; a Bearer key works too. */
export function anthropicAuthorization(request: FastifyRequest): string | undefined {
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey ? `Bearer ${apiKey}` : request.headers.authorization;
}

/** Paths answered in Anthropic's error shape. */
export const ANTHROPIC_PATHS = new Set(['/v1/messages', '/v1/messages/count_tokens']);

const bodyOf = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));

/**
 * Anthropic's Messages API for Claude-native clients. On an Anthropic channel the call passes through
 * untouched (pipeline/native.ts); on any other it is converted to the OpenAI pipeline and back.
 */
export function anthropicRoutes(scope: FastifyInstance, relay: Relay, options: RouteShorthandOptions): void {
  scope.post('/v1/messages', options, async (request, reply) => {
    const { requestId, caller } = request.relayCall;
    const sink = new ReplySink(reply, requestId);
    try {
      const rawBody = bodyOf(request);
      const body = parseJsonObject(rawBody);
      await relay.handle(
        caller,
        nativeChatCall(requestId, anthropicToOpenAi(body), {
          format: anthropicNative,
          rawBody,
          body,
          headers: request.headers,
        }),
        new AnthropicSink(sink, String(body.model), requestId),
      );
    } catch (error) {
      sendError(reply, requestId, error, request.log, 'anthropic');
    }
  });

  scope.post('/v1/messages/count_tokens', options, async (request, reply) => {
    const { requestId, caller } = request.relayCall;
    const sink = new ReplySink(reply, requestId);
    try {
      const rawBody = bodyOf(request);
      const call = countTokensCall({
        requestId,
        rawBody,
        body: parseJsonObject(rawBody),
        headers: request.headers,
      });
      await relay.unbilled(caller, call, sink);
    } catch (error) {
      sendError(reply, requestId, error, request.log, 'anthropic');
    }
  });
}

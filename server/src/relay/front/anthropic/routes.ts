import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { anthropicNative } from '../../adaptors/anthropic/native';
import type { Relay } from '../../pipeline/relay';
import { parseJsonObject } from '../json-body';
import { nativeChatCall } from '../native-chat-call';
import { CORS_HEADERS, ReplySink } from '../reply-sink';
import { sendError } from '../send-error';
import { countTokens } from './count-tokens';
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

  scope.post('/v1/messages/count_tokens', options, async (request, reply: FastifyReply) => {
    const { requestId, caller } = request.relayCall;
    try {
      const rawBody = bodyOf(request);
      const answer = await countTokens(relay, caller, {
        rawBody,
        body: parseJsonObject(rawBody),
        headers: request.headers,
        signal: closedSignal(reply),
      });
      reply.hijack();
      reply.raw.writeHead(answer.status, {
        ...CORS_HEADERS,
        'content-type': 'application/json',
        'x-oneapi-request-id': requestId,
      });
      reply.raw.end(answer.body);
    } catch (error) {
      sendError(reply.hijack(), requestId, error, request.log, 'anthropic');
    }
  });
}

/** Aborted when the client goes away before its answer. */
function closedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

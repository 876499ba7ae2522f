import type { IncomingHttpHeaders } from 'node:http';
import { anthropicNative } from '../../adaptors/anthropic/native';
import type { Relay } from '../../pipeline/relay';
import { parseJsonObject } from '../json-body';
import type { JsonRelayRoute } from '../json-route';
import { nativeChatCall } from '../native-chat-call';
import { countTokensCall } from './count-tokens';
import { anthropicToOpenAi } from './request';
import { AnthropicSink } from './sink';

/** Anthropic's clients send their key as `x-api-key`; a Bearer key works too. */
export function anthropicAuthorization(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey ? `Bearer ${apiKey}` : headers.authorization;
}

/**
 * Anthropic's Messages API for Claude-native clients. On an Anthropic channel the call passes through
 * untouched (pipeline/native.ts); on any other it is converted to the OpenAI pipeline and back.
 */
export function anthropicRoutes(relay: Relay): JsonRelayRoute[] {
  const route = (path: string, serve: JsonRelayRoute['serve']): JsonRelayRoute => ({
    path,
    format: 'anthropic',
    keyOf: anthropicAuthorization,
    serve,
  });
  return [
    route('/v1/messages', async ({ requestId, caller, rawBody, headers }, sink) => {
      const body = parseJsonObject(rawBody);
      await relay.handle(
        caller,
        nativeChatCall(requestId, anthropicToOpenAi(body), {
          format: anthropicNative,
          rawBody,
          body,
          headers,
        }),
        new AnthropicSink(sink, String(body.model), requestId),
      );
    }),
    route('/v1/messages/count_tokens', async ({ requestId, caller, rawBody, headers }, sink) => {
      const call = countTokensCall({ requestId, rawBody, body: parseJsonObject(rawBody), headers });
      await relay.unbilled(caller, call, sink);
    }),
  ];
}

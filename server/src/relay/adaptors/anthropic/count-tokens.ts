import { countAnswer } from '../count-answer';
import { withTopLevelFields } from '../native-body';
import type { NativeFormat, NativeRequest, RelayCall, UpstreamRequest } from '../types';
import { authHeaders } from './auth';
import { anthropicNative, forwardedHeaders } from './native';

/** `{base}/v1/messages/count_tokens`: the client's body with the mapped model, its version and beta flags. */
function buildRequest(call: RelayCall, native: NativeRequest): UpstreamRequest {
  const body =
    call.upstreamModel === native.body.model
      ? native.rawBody
      : withTopLevelFields(native.rawBody, { model: call.upstreamModel });
  return {
    url: `${call.baseUrl}/v1/messages/count_tokens`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...authHeaders(call.apiKey),
      ...forwardedHeaders(native.headers),
    },
    body,
  };
}

/**
 * Anthropic's `/v1/messages/count_tokens` as a native format: an Anthropic channel counts (Claude in a
 * cloud is counted by the gateway); its answer, or its error, goes back as it sent it, unbilled.
 */
export const anthropicCountTokens: NativeFormat = {
  // The apiStyle of Anthropic channels alone, and Anthropic's error shape.
  name: 'anthropic',
  buildRequest,
  usage: countAnswer,
  streamError: anthropicNative.streamError,
};

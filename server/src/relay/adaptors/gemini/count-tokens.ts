import { asObject } from '../../json-value';
import { countAnswer } from '../count-answer';
import { withFieldAt } from '../native-body';
import type { NativeFormat, NativeRequest, RelayCall, UpstreamRequest } from '../types';
import { authHeaders } from './auth';
import { apiVersion } from './endpoint';
import { geminiNative } from './native';

/**
 * The client's body; a whole `generateContentRequest` names its model too (`models/…`), mapped as the
 * path's is.
 */
function countBody(call: RelayCall, native: NativeRequest): Buffer {
  const inner = asObject(native.body.generateContentRequest);
  if (call.upstreamModel === call.requestedModel || typeof inner?.model !== 'string') return native.rawBody;
  return withFieldAt(native.rawBody, ['generateContentRequest', 'model'], `models/${call.upstreamModel}`);
}

/** `{base}/{version}/models/{upstream model}:countTokens`, the channel's key in x-goog-api-key. */
function buildRequest(call: RelayCall, native: NativeRequest): UpstreamRequest {
  return {
    url: `${call.baseUrl}/${apiVersion(call)}/models/${call.upstreamModel}:countTokens`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(call.apiKey) },
    body: countBody(call, native),
  };
}

/**
 * Gemini's `models/{model}:countTokens` as a native format: a Gemini channel counts; its answer, or
 * its error, goes back as it sent it, unbilled.
 */
export const geminiCountTokens: NativeFormat = {
  name: 'gemini',
  buildRequest,
  usage: countAnswer,
  streamError: geminiNative.streamError,
};

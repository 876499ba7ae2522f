import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import { credentialsOf, regionOf } from './credentials';
import { tc3Authorization } from './sign';
import { API_VERSION, type HunyuanChatRequest, type HunyuanEmbeddingRequest } from './wire';

const CONTENT_TYPE = 'application/json';

export function chatBody(call: RelayCall): HunyuanChatRequest {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const request: HunyuanChatRequest = {
    Model: call.upstreamModel,
    Messages: messages.map((message) => ({
      Role: String(message.role ?? 'user'),
      Content: messageText(message.content),
    })),
    Stream: call.isStream,
  };
  if (typeof body.top_p === 'number') request.TopP = body.top_p;
  if (typeof body.temperature === 'number') request.Temperature = body.temperature;
  return request;
}

export function embeddingBody(call: RelayCall): HunyuanEmbeddingRequest {
  const input = call.body?.input;
  return Array.isArray(input) ? { InputList: input.map(String) } : { Input: String(input ?? '') };
}

function actionAndBody(call: RelayCall): [string, unknown] {
  if (call.mode === 'chat') return ['ChatCompletions', chatBody(call)];
  if (call.mode === 'embeddings') return ['GetEmbedding', embeddingBody(call)];
  throw RelayError.invalid(
    `Tencent Hunyuan channels relay chat and embeddings, not ${call.mode}`,
    'unsupported_mode',
  );
}

/** Every call is a POST to the API root naming its action, signed anew (the signature covers the body and time). */
export function buildRequest(call: RelayCall): UpstreamRequest {
  const { secretId, secretKey } = credentialsOf(call);
  const [action, body] = actionAndBody(call);
  const url = `${call.baseUrl}/`;
  const payload = JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const region = regionOf(call);
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPE,
    authorization: tc3Authorization({
      secretId,
      secretKey,
      url,
      action,
      contentType: CONTENT_TYPE,
      payload,
      timestamp,
    }),
    'x-tc-action': action,
    'x-tc-version': API_VERSION,
    'x-tc-timestamp': String(timestamp),
    ...(region ? { 'x-tc-region': region } : {}),
  };
  return { url, method: 'POST', headers, body: payload };
}

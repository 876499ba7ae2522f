import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import { tokenFor } from './credentials';
import type { ZhipuEmbeddingRequest, ZhipuImageRequest, ZhipuV3Request } from './wire';

/**
 * The legacy chatglm_* models (chatglm_turbo, _pro, _std, _lite, …) live on the v3 model API; every
 * other chat model (glm-4*, glm-3-turbo, codegeex-4, emohaa, …) on the OpenAI-shaped v4 API. one-api
 * sends everything not named glm-* to v3, where Zhipu's newer non-glm models do not exist.
 */
export const usesV3 = (call: RelayCall): boolean =>
  call.mode === 'chat' && call.upstreamModel.startsWith('chatglm_');

const invalid = (message: string, code: string) => RelayError.invalid(message, code);

/** Zhipu accepts temperature and top_p in [0, 1] only; wider OpenAI values are brought inside. */
function clamped(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined;
}

/** v4 chat is OpenAI's body: the client's fields, the upstream model, sampling brought into range. */
export function v4ChatBody(call: RelayCall): Json {
  const body: Json = { ...call.body, model: call.upstreamModel, stream: call.isStream };
  for (const field of ['temperature', 'top_p'] as const) {
    if (body[field] === undefined || body[field] === null) continue;
    const value = clamped(body[field]);
    if (value === undefined) delete body[field];
    else body[field] = value;
  }
  return body;
}

export function v3ChatBody(call: RelayCall): ZhipuV3Request {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const request: ZhipuV3Request = {
    prompt: messages.map((message) => ({
      role: String(message.role ?? 'user'),
      content: messageText(message.content),
    })),
  };
  const temperature = clamped(body.temperature);
  const topP = clamped(body.top_p);
  if (temperature !== undefined) request.temperature = temperature;
  if (topP !== undefined) request.top_p = topP;
  if (call.isStream) request.incremental = true;
  return request;
}

export function embeddingBody(call: RelayCall): ZhipuEmbeddingRequest {
  const input = call.body?.input;
  const texts = Array.isArray(input) ? input : [input];
  if (texts.length === 0 || texts.some((text) => typeof text !== 'string')) {
    throw invalid('Zhipu embeddings take a string or an array of strings as input', 'invalid_input');
  }
  const request: ZhipuEmbeddingRequest = {
    model: call.upstreamModel,
    input: Array.isArray(input) ? (texts as string[]) : String(input),
  };
  if (typeof call.body?.dimensions === 'number') request.dimensions = call.body.dimensions;
  return request;
}

/** Zhipu draws one picture a call; more would be billed and never delivered. */
export function imageBody(call: RelayCall): ZhipuImageRequest {
  const body = call.body ?? {};
  if (body.n !== undefined && body.n !== null && Number(body.n) !== 1) {
    throw invalid('Zhipu draws one image per request; n must be 1', 'n_not_within_range');
  }
  const request: ZhipuImageRequest = { model: call.upstreamModel, prompt: String(body.prompt ?? '') };
  if (typeof body.size === 'string') request.size = body.size;
  if (typeof body.user === 'string' && body.user) request.user_id = body.user;
  return request;
}

function urlAndBody(call: RelayCall): [string, unknown] {
  const api = `${call.baseUrl}/api/paas`;
  switch (call.mode) {
    case 'chat':
      if (usesV3(call)) {
        const method = call.isStream ? 'sse-invoke' : 'invoke';
        return [`${api}/v3/model-api/${encodeURIComponent(call.upstreamModel)}/${method}`, v3ChatBody(call)];
      }
      return [`${api}/v4/chat/completions`, v4ChatBody(call)];
    case 'embeddings':
      return [`${api}/v4/embeddings`, embeddingBody(call)];
    case 'images':
      return [`${api}/v4/images/generations`, imageBody(call)];
    default:
      throw invalid(`Zhipu channels relay chat, embeddings and images, not ${call.mode}`, 'unsupported_mode');
  }
}

/** Every call is a JSON POST carrying the key's signed token as the bare `Authorization` value. */
export function buildRequest(call: RelayCall): UpstreamRequest {
  const [url, body] = urlAndBody(call);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: call.isStream ? 'text/event-stream' : 'application/json',
    authorization: tokenFor(call),
  };
  return { url, method: 'POST', headers, body: JSON.stringify(body) };
}

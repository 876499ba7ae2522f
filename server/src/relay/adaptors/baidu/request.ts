import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import { accessTokens } from './credentials';
import { serviceUrl } from './endpoints';
import type { BaiduChatRequest, BaiduEmbeddingRequest, BaiduMessage } from './wire';

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * OpenAI chat → ERNIE chat. System messages go to `system` (joined when there are several); sampling
 * values are brought into Baidu's ranges, which refuses what OpenAI accepts: temperature in (0, 1],
 * penalty_score in [1, 2] (from frequency_penalty 0…2), max_output_tokens at least 2.
 */
export function chatBody(call: RelayCall): BaiduChatRequest {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const system: string[] = [];
  const turns: BaiduMessage[] = [];
  for (const message of messages) {
    const content = messageText(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(content);
    else turns.push({ role: String(message.role ?? 'user'), content });
  }
  const request: BaiduChatRequest = { messages: turns };
  if (system.length > 0) request.system = system.join('\n');
  if (call.isStream) request.stream = true;
  const temperature = num(body.temperature);
  if (temperature !== undefined && temperature > 0) request.temperature = Math.min(temperature, 1);
  const topP = num(body.top_p);
  if (topP !== undefined) request.top_p = Math.min(Math.max(topP, 0), 1);
  const frequencyPenalty = num(body.frequency_penalty);
  if (frequencyPenalty !== undefined && frequencyPenalty > 0)
    request.penalty_score = Math.min(1 + frequencyPenalty / 2, 2);
  const maxTokens = num(body.max_tokens) ?? num(body.max_completion_tokens);
  if (maxTokens !== undefined && maxTokens > 0)
    request.max_output_tokens = Math.max(Math.floor(maxTokens), 2);
  if (typeof body.stop === 'string') request.stop = [body.stop];
  else if (Array.isArray(body.stop)) request.stop = body.stop.map(String);
  if (typeof body.user === 'string' && body.user) request.user_id = body.user;
  const format = (body.response_format as Json | undefined)?.type;
  if (format === 'json_object') request.response_format = 'json_object';
  return request;
}

export function embeddingBody(call: RelayCall): BaiduEmbeddingRequest {
  const input = call.body?.input;
  const request: BaiduEmbeddingRequest = {
    input: Array.isArray(input) ? input.map(String) : [String(input ?? '')],
  };
  if (typeof call.body?.user === 'string' && call.body.user) request.user_id = call.body.user;
  return request;
}

function kindAndBody(call: RelayCall): ['chat' | 'embeddings', unknown] {
  if (call.mode === 'chat') return ['chat', chatBody(call)];
  if (call.mode === 'embeddings') return ['embeddings', embeddingBody(call)];
  throw RelayError.invalid(
    `Baidu Wenxin channels relay chat and embeddings, not ${call.mode}`,
    'unsupported_mode',
  );
}

/** POST to the model's service with the key's access token (exchanged and cached) in the query. */
export async function buildRequest(call: RelayCall): Promise<UpstreamRequest> {
  const [kind, body] = kindAndBody(call);
  const token = await accessTokens.get(call.baseUrl, call.apiKey);
  const url = `${serviceUrl(call.baseUrl, kind, call.upstreamModel)}?access_token=${encodeURIComponent(token)}`;
  return {
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  };
}

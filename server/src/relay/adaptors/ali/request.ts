import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { configTextOrOther } from '../channel-config';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import {
  type DashScopeChatRequest,
  type DashScopeEmbeddingRequest,
  type DashScopeMessage,
  type DashScopeParameters,
  EMBEDDING_PATH,
  GENERATION_PATH,
  SEARCH_SUFFIX,
} from './wire';

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** The plugin header's value: `plugin` in the channel's config JSON, else the channel's `other` field. */
export const pluginOf = (call: RelayCall): string | undefined => configTextOrOther(call, 'plugin');

/** `qwen-max-internet` → model `qwen-max` with web search on. */
export function searchModel(model: string): { model: string; search: boolean } {
  return model.endsWith(SEARCH_SUFFIX)
    ? { model: model.slice(0, -SEARCH_SUFFIX.length), search: true }
    : { model, search: false };
}

function toMessage(message: Json): DashScopeMessage {
  const role = String(message.role ?? 'user').toLowerCase();
  return defined<DashScopeMessage>({
    // DashScope knows no `developer` role; it is OpenAI's newer name for the system prompt.
    role: role === 'developer' ? 'system' : role,
    content: messageText(message.content),
    name: typeof message.name === 'string' ? message.name : undefined,
    tool_calls: Array.isArray(message.tool_calls) ? message.tool_calls : undefined,
    tool_call_id: typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined,
  });
}

function stopOf(stop: unknown): string | string[] | undefined {
  if (typeof stop === 'string') return stop || undefined;
  if (!Array.isArray(stop)) return undefined;
  const list = stop.filter((item): item is string => typeof item === 'string' && item !== '');
  return list.length > 0 ? list : undefined;
}

function parametersOf(body: Json, search: boolean, stream: boolean): DashScopeParameters {
  const topP = numberOf(body.top_p);
  const seed = numberOf(body.seed);
  return defined<DashScopeParameters>({
    result_format: 'message',
    // Without it a DashScope stream repeats the whole text so far in every event.
    incremental_output: stream || undefined,
    max_tokens: numberOf(body.max_tokens) || numberOf(body.max_completion_tokens) || undefined,
    temperature: numberOf(body.temperature),
    // DashScope wants top_p below 1.
    top_p: topP === undefined ? undefined : Math.min(topP, 0.9999),
    top_k: numberOf(body.top_k),
    seed: seed !== undefined && Number.isInteger(seed) && seed >= 0 ? seed : undefined,
    stop: stopOf(body.stop),
    presence_penalty: numberOf(body.presence_penalty),
    repetition_penalty: numberOf(body.repetition_penalty),
    enable_search: search || body.enable_search === true || undefined,
    tools: Array.isArray(body.tools) && body.tools.length > 0 ? body.tools : undefined,
    tool_choice: body.tool_choice ?? undefined,
    parallel_tool_calls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    response_format: asObject(body.response_format),
  });
}

export function chatBody(call: RelayCall): DashScopeChatRequest {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const { model, search } = searchModel(call.upstreamModel);
  return {
    model,
    input: { messages: messages.map(toMessage) },
    parameters: parametersOf(body, search, call.isStream),
  };
}

export function embeddingBody(call: RelayCall): DashScopeEmbeddingRequest {
  const input = call.body?.input;
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
  const dimension = numberOf(call.body?.dimensions);
  return {
    model: call.upstreamModel,
    input: { texts },
    ...(dimension ? { parameters: { dimension } } : {}),
  };
}

function pathAndBody(call: RelayCall): [string, unknown] {
  if (call.mode === 'chat') return [GENERATION_PATH, chatBody(call)];
  if (call.mode === 'embeddings') return [EMBEDDING_PATH, embeddingBody(call)];
  throw RelayError.invalid(
    `Alibaba Tongyi Qianwen channels relay chat and embeddings, not ${call.mode}`,
    'unsupported_mode',
  );
}

/** A POST with the key as a Bearer token; streams ask for SSE with `X-DashScope-SSE`. */
export function buildRequest(call: RelayCall): UpstreamRequest {
  const [path, body] = pathAndBody(call);
  const stream = call.isStream && call.mode === 'chat';
  const plugin = pluginOf(call);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${call.apiKey}`,
    accept: stream ? 'text/event-stream' : 'application/json',
    ...(stream ? { 'x-dashscope-sse': 'enable' } : {}),
    ...(plugin ? { 'x-dashscope-plugin': plugin } : {}),
  };
  return { url: `${call.baseUrl}${path}`, method: 'POST', headers, body: JSON.stringify(body) };
}

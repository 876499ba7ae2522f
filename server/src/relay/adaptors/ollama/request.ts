import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall } from '../types';
import type {
  OllamaChatRequest,
  OllamaEmbedRequest,
  OllamaMessage,
  OllamaOptions,
  OllamaToolCall,
} from './wire';

/** Sampling settings that Ollama takes under `options`; unset ones stay out. */
function optionsOf(body: Json): OllamaOptions | undefined {
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop : undefined;
  const options: OllamaOptions = {
    temperature: numberOf(body.temperature),
    top_p: numberOf(body.top_p),
    top_k: numberOf(body.top_k),
    seed: numberOf(body.seed),
    frequency_penalty: numberOf(body.frequency_penalty),
    presence_penalty: numberOf(body.presence_penalty),
    num_predict: numberOf(body.max_tokens) ?? numberOf(body.max_completion_tokens),
    stop: stop?.filter((item): item is string => typeof item === 'string'),
  };
  const set = Object.entries(options).filter(([, value]) => value !== undefined);
  return set.length > 0 ? (Object.fromEntries(set) as OllamaOptions) : undefined;
}

/** Ollama takes images as bare base64; only inline data URLs are passed (we never fetch for the client). */
function imagesOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const url = asObject(asObject(part)?.image_url)?.url;
    const match = typeof url === 'string' ? /^data:[^;]+;base64,(.*)$/s.exec(url) : null;
    return match?.[1] ? [match[1]] : [];
  });
}

function toolCallsOf(value: unknown): OllamaToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((call) => {
    const fn = asObject(asObject(call)?.function);
    if (typeof fn?.name !== 'string') return [];
    let args: Json = {};
    try {
      args = asObject(JSON.parse(String(fn.arguments ?? '{}'))) ?? {};
    } catch {
      // arguments that are not JSON cannot be given to Ollama as an object
    }
    return [{ function: { name: fn.name, arguments: args } }];
  });
}

function messageOf(value: unknown): OllamaMessage {
  const message = asObject(value) ?? {};
  const converted: OllamaMessage = {
    role: String(message.role ?? 'user'),
    content: messageText(message.content),
  };
  const images = imagesOf(message.content);
  if (images.length > 0) converted.images = images;
  const toolCalls = toolCallsOf(message.tool_calls);
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  return converted;
}

/** `response_format` as Ollama's `format`: "json", or the JSON schema itself. */
function formatOf(body: Json): unknown {
  const format = asObject(body.response_format);
  if (format?.type === 'json_object') return 'json';
  if (format?.type === 'json_schema') return asObject(format.json_schema)?.schema;
  return undefined;
}

export function chatRequest(call: RelayCall): OllamaChatRequest {
  const body = call.body ?? {};
  const request: OllamaChatRequest = {
    model: call.upstreamModel,
    messages: (Array.isArray(body.messages) ? body.messages : []).map(messageOf),
    stream: call.isStream,
  };
  const options = optionsOf(body);
  if (options) request.options = options;
  if (Array.isArray(body.tools) && body.tools.length > 0) request.tools = body.tools;
  const format = formatOf(body);
  if (format !== undefined) request.format = format;
  return request;
}

export function embedRequest(call: RelayCall): OllamaEmbedRequest {
  const input = call.body?.input;
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
  return { model: call.upstreamModel, input: texts };
}

export const unsupported = (call: RelayCall) =>
  RelayError.invalid(`Ollama channels relay chat and embeddings, not ${call.mode}`, 'unsupported_mode');

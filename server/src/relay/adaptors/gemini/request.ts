import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import type { RelayCall, UpstreamRequest } from '../types';
import { authHeaders } from './auth';
import { toGeminiContents } from './contents';
import { endpointUrl } from './endpoint';
import { geminiSafetySettings } from './settings';
import { geminiSchema, toGeminiToolConfig, toGeminiTools } from './tools';
import type { GeminiChatRequest, GeminiEmbedRequest, GeminiGenerationConfig } from './wire';

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

function stopSequences(stop: unknown): string[] | undefined {
  const list = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : [];
  const sequences = list.filter((item): item is string => typeof item === 'string' && item !== '');
  return sequences.length > 0 ? sequences : undefined;
}

/** `response_format`: JSON mode, with the schema when the client gives one. */
function responseFormat(value: unknown): Pick<GeminiGenerationConfig, 'responseMimeType' | 'responseSchema'> {
  const format = asObject(value);
  if (format?.type === 'json_object') return { responseMimeType: 'application/json' };
  if (format?.type !== 'json_schema') return {};
  const schema = asObject(geminiSchema(asObject(format.json_schema)?.schema));
  return { responseMimeType: 'application/json', ...(schema ? { responseSchema: schema } : {}) };
}

function generationConfig(body: Json): GeminiGenerationConfig | undefined {
  const config = defined<GeminiGenerationConfig>({
    temperature: numberOf(body.temperature),
    topP: numberOf(body.top_p),
    topK: numberOf(body.top_k),
    maxOutputTokens: numberOf(body.max_tokens) || numberOf(body.max_completion_tokens) || undefined,
    stopSequences: stopSequences(body.stop),
    presencePenalty: numberOf(body.presence_penalty),
    frequencyPenalty: numberOf(body.frequency_penalty),
    seed: numberOf(body.seed),
    ...responseFormat(body.response_format),
  });
  return Object.keys(config).length > 0 ? config : undefined;
}

/** An OpenAI chat completion request → a Gemini generateContent request for `model`. */
export function toGeminiChatRequest(body: Json, model: string): GeminiChatRequest {
  const tools = toGeminiTools(body.tools);
  return defined<GeminiChatRequest>({
    ...toGeminiContents(body.messages, model),
    safetySettings: geminiSafetySettings(),
    generationConfig: generationConfig(body),
    tools,
    toolConfig: tools ? toGeminiToolConfig(body.tool_choice) : undefined,
  });
}

/** OpenAI embedding input (a string or strings) → one batchEmbedContents request per text. */
export function toGeminiEmbedRequest(body: Json, model: string): GeminiEmbedRequest {
  const texts = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
  const dimensions = numberOf(body.dimensions);
  return {
    requests: texts.map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...(dimensions ? { outputDimensionality: dimensions } : {}),
    })),
  };
}

function requestBody(call: RelayCall): unknown {
  const body = call.body ?? {};
  if (call.mode === 'chat') return toGeminiChatRequest(body, call.upstreamModel);
  if (call.mode === 'embeddings') return toGeminiEmbedRequest(body, call.upstreamModel);
  throw RelayError.invalid(
    `Gemini channels relay chat completions and embeddings, not ${call.mode}`,
    'unsupported_mode',
  );
}

export function buildRequest(call: RelayCall): UpstreamRequest {
  return {
    url: endpointUrl(call),
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(call.apiKey) },
    body: JSON.stringify(requestBody(call)),
  };
}

import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { toOpenAiMessages } from './contents';
import { toOpenAiSampling } from './generation-config';
import { toOpenAiToolChoice, toOpenAiTools } from './tools';

export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'countTokens';

const ACTIONS: GeminiAction[] = ['generateContent', 'streamGenerateContent', 'countTokens'];

/** A Gemini-native call as the client sent it: kept whole, so a pass-through can send it on as is. */
export interface GeminiCall {
  model: string;
  action: GeminiAction;
  /** `alt=sse`: a stream of `data:` events; otherwise a stream answers one JSON array. */
  sse: boolean;
  /** The parsed native body (GenerateContentRequest or CountTokensRequest). */
  body: Json;
  rawBody: Buffer;
}

/**
 * `models/{model}:{action}` (the part of the path after the API version's `models/`) split at the
 * colon that names the action; a model name may hold colons and slashes of its own.
 */
export function parseModelAction(target: string): { model: string; action: GeminiAction } {
  const colon = target.lastIndexOf(':');
  const model = colon === -1 ? '' : target.slice(0, colon);
  const action = target.slice(colon + 1);
  if (!model || !ACTIONS.includes(action as GeminiAction)) {
    throw RelayError.invalid(
      `Unknown method: the path must be models/{model}:generateContent, :streamGenerateContent or :countTokens`,
      'unknown_method',
      { status: 404 },
    );
  }
  return { model, action: action as GeminiAction };
}

/** A GenerateContentRequest as the equivalent OpenAI chat request (what every adaptor speaks). */
export function geminiToOpenAi(call: GeminiCall): Json {
  const { body } = call;
  const { tools, toolChoice } = toOpenAiToolChoice(body.toolConfig, toOpenAiTools(body.tools));
  const request: Json = {
    model: call.model,
    messages: toOpenAiMessages(body.contents, body.systemInstruction),
    ...toOpenAiSampling(body.generationConfig),
  };
  if (tools) request.tools = tools;
  if (toolChoice !== undefined) request.tool_choice = toolChoice;
  if (call.action === 'streamGenerateContent') request.stream = true;
  return request;
}

/**
 * The OpenAI-shaped copy the pipeline routes, reserves and counts with. A request the translation
 * refuses (Google's built-in tools, …) may still pass through to a Gemini channel: its copy keeps the
 * messages and the limit, and an attempt on a channel of another format fails with the refusal.
 */
export function pipelineCopy(call: GeminiCall): { body: Json; untranslatable?: RelayError } {
  try {
    return { body: geminiToOpenAi(call) };
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    const body: Json = {
      model: call.model,
      messages: toOpenAiMessages(call.body.contents, call.body.systemInstruction),
    };
    const limit = numberOf(asObject(call.body.generationConfig)?.maxOutputTokens);
    if (limit !== undefined) body.max_tokens = limit;
    if (call.action === 'streamGenerateContent') body.stream = true;
    return { body, untranslatable: error };
  }
}

/** countTokens takes `contents` (with `systemInstruction`, `tools`) or a whole `generateContentRequest`. */
export function countTokensRequest(call: GeminiCall): GeminiCall {
  const inner = call.body.generateContentRequest;
  if (inner && typeof inner === 'object' && !Array.isArray(inner)) return { ...call, body: inner as Json };
  return call;
}

/** The request body: a JSON object, or a clear INVALID_ARGUMENT. */
export function parseGeminiBody(raw: Buffer): Json {
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // answered below
  }
  throw RelayError.invalid('Invalid JSON payload: the request body must be a JSON object', 'invalid_json');
}

/** thinkingConfig.includeThoughts: whether the answer carries the model's thoughts as thought parts. */
export const wantsThoughts = (call: GeminiCall): boolean =>
  asObject(asObject(call.body.generationConfig)?.thinkingConfig)?.includeThoughts === true;

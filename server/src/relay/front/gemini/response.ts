import { asObject, type Json, numberOf } from '../../json-value';

const FINISH_REASONS: Record<string, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  // Gemini ends a turn that calls functions with STOP.
  tool_calls: 'STOP',
  function_call: 'STOP',
};

export const geminiFinishReason = (reason: unknown): string =>
  typeof reason === 'string' ? (FINISH_REASONS[reason] ?? 'OTHER') : 'STOP';

/**
 * OpenAI usage as Gemini's usageMetadata. OpenAI's completion_tokens include the reasoning tokens;
 * Gemini's candidatesTokenCount does not (thoughtsTokenCount holds them), so they are taken out.
 */
export function usageMetadataOf(value: unknown): Json | undefined {
  const usage = asObject(value);
  if (!usage) return undefined;
  const prompt = numberOf(usage.prompt_tokens) ?? 0;
  const completion = numberOf(usage.completion_tokens) ?? 0;
  const cached = numberOf(asObject(usage.prompt_tokens_details)?.cached_tokens) ?? 0;
  const reasoning = numberOf(asObject(usage.completion_tokens_details)?.reasoning_tokens) ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(completion - reasoning, 0),
    totalTokenCount: numberOf(usage.total_tokens) ?? prompt + completion,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(reasoning > 0 ? { thoughtsTokenCount: reasoning } : {}),
  };
}

/** A tool call's JSON arguments as functionCall args (an object; anything else as `{}`). */
export function functionArgs(text: unknown): unknown {
  try {
    const args: unknown = JSON.parse(String(text || '{}'));
    return asObject(args) ?? {};
  } catch {
    return {};
  }
}

/** OpenAI tool calls as Gemini functionCall parts (the OpenAI id kept, for the functionResponse). */
export const functionCallParts = (toolCalls: unknown): Json[] =>
  (Array.isArray(toolCalls) ? toolCalls : []).map((raw) => {
    const call = asObject(raw) ?? {};
    const fn = asObject(call.function) ?? {};
    return {
      functionCall: {
        ...(typeof call.id === 'string' && call.id ? { id: call.id } : {}),
        name: String(fn.name ?? ''),
        args: functionArgs(fn.arguments),
      },
    };
  });

/** The reasoning text OpenAI-compatible providers send beside the answer (`reasoning_content`). */
export const reasoningOf = (message: Json): string =>
  typeof message.reasoning_content === 'string'
    ? message.reasoning_content
    : typeof message.reasoning === 'string'
      ? message.reasoning
      : '';

/** The answer's id as Gemini's responseId: OpenAI's `chatcmpl-` prefix dropped. */
export const responseIdOf = (id: unknown, fallback: string): string =>
  (typeof id === 'string' ? id : '').replace(/^chatcmpl-/, '') || fallback;

/** What a Gemini answer takes from the request besides the OpenAI answer itself. */
export interface AnswerShape {
  /** The model the client named: the answer's modelVersion. */
  model: string;
  /** The responseId when the answer has no id of its own. */
  fallbackId: string;
  /** thinkingConfig.includeThoughts: Gemini answers thought parts only when asked for them. */
  includeThoughts: boolean;
}

/** An OpenAI chat completion as a Gemini GenerateContentResponse. */
export function openAiToGemini(completion: Json, shape: AnswerShape): Json {
  const choice = asObject(Array.isArray(completion.choices) ? completion.choices[0] : undefined);
  const message = asObject(choice?.message) ?? {};
  const parts: Json[] = [];
  const reasoning = shape.includeThoughts ? reasoningOf(message) : '';
  if (reasoning) parts.push({ text: reasoning, thought: true });
  if (typeof message.content === 'string' && message.content) parts.push({ text: message.content });
  parts.push(...functionCallParts(message.tool_calls));
  const usageMetadata = usageMetadataOf(completion.usage);
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: geminiFinishReason(choice?.finish_reason ?? 'stop'),
        index: 0,
      },
    ],
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion: shape.model,
    responseId: responseIdOf(completion.id, shape.fallbackId),
  };
}

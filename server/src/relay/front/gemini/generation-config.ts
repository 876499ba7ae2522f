import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { jsonSchemaOf } from './schema';

const invalid = (message: string) => RelayError.invalid(message, 'invalid_request');

/** responseMimeType and the schema as OpenAI's response_format. */
function responseFormat(config: Json): Json | undefined {
  const mimeType = typeof config.responseMimeType === 'string' ? config.responseMimeType : '';
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? jsonSchemaOf(config.responseSchema) : undefined);
  if (mimeType === 'application/json' || (schema && !mimeType)) {
    return schema
      ? { type: 'json_schema', json_schema: { name: 'response', schema } }
      : { type: 'json_object' };
  }
  if (mimeType && mimeType !== 'text/plain')
    throw invalid(`generationConfig.responseMimeType ${mimeType} is not supported by this gateway`);
  return undefined;
}

const EFFORTS: Record<string, string> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

/**
 * thinkingConfig as reasoning_effort: a thinkingLevel by its name; a thinking budget by its size
 * (up to 1024 tokens low, up to 8192 medium, more high). A dynamic (-1) or zero budget says nothing
 * OpenAI-format channels can honour, so it sets nothing.
 */
function reasoningEffort(value: unknown): string | undefined {
  const thinking = asObject(value);
  if (!thinking) return undefined;
  const level =
    typeof thinking.thinkingLevel === 'string' ? EFFORTS[thinking.thinkingLevel.toUpperCase()] : undefined;
  if (level) return level;
  const budget = numberOf(thinking.thinkingBudget);
  if (budget === undefined || budget <= 0) return undefined;
  return budget <= 1024 ? 'low' : budget <= 8192 ? 'medium' : 'high';
}

/** Gemini's generationConfig as the fields of an OpenAI chat request. */
export function toOpenAiSampling(value: unknown): Json {
  const config = asObject(value) ?? {};
  const candidates = numberOf(config.candidateCount);
  if (candidates !== undefined && candidates !== 1)
    throw invalid('generationConfig.candidateCount: only 1 candidate is supported by this gateway');
  const stop = Array.isArray(config.stopSequences)
    ? config.stopSequences.filter((item): item is string => typeof item === 'string' && item !== '')
    : [];
  const fields: Json = {
    temperature: numberOf(config.temperature),
    top_p: numberOf(config.topP),
    top_k: numberOf(config.topK),
    max_tokens: numberOf(config.maxOutputTokens),
    stop: stop.length > 0 ? stop : undefined,
    presence_penalty: numberOf(config.presencePenalty),
    frequency_penalty: numberOf(config.frequencyPenalty),
    seed: numberOf(config.seed),
    response_format: responseFormat(config),
    reasoning_effort: reasoningEffort(config.thinkingConfig),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, field]) => field !== undefined));
}

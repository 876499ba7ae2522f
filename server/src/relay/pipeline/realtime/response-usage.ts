import type { Usage } from '../../adaptors/types';
import { asObject, type Json, numberOf } from '../../json-value';

const count = (value: unknown): number => Math.max(0, Math.floor(numberOf(value) ?? 0));

/**
 * The tokens of one `response.done` event of the Realtime API: input (text and audio, with the cached
 * part of each) and output (text and audio). Undefined when the event reports no usage (a response
 * that failed before it began).
 */
export function responseUsage(event: Json): Usage | undefined {
  const usage = asObject(asObject(event.response)?.usage);
  if (!usage) return undefined;
  const input = asObject(usage.input_token_details) ?? {};
  const cachedParts = asObject(input.cached_tokens_details) ?? {};
  const output = asObject(usage.output_token_details) ?? {};
  const inputText = count(input.text_tokens);
  const inputAudio = count(input.audio_tokens);
  const outputText = count(output.text_tokens);
  const outputAudio = count(output.audio_tokens);
  // The totals, or the sum of their parts when a provider reports only the parts.
  const prompt = Math.max(count(usage.input_tokens), inputText + inputAudio + count(input.image_tokens));
  const completion = Math.max(count(usage.output_tokens), outputText + outputAudio);
  const parts: Usage = { prompt_tokens: prompt, completion_tokens: completion };
  const cached = count(input.cached_tokens);
  if (cached > 0) parts.cached_tokens = cached;
  const cachedAudio = count(cachedParts.audio_tokens);
  if (cachedAudio > 0) parts.cached_audio_tokens = cachedAudio;
  if (inputAudio > 0) parts.prompt_audio_tokens = inputAudio;
  if (outputAudio > 0) parts.completion_audio_tokens = outputAudio;
  return parts;
}

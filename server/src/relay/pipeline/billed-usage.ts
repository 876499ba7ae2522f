import type { Usage } from '../adaptors/types';
import { imageTokenCeiling } from './image-request';
import type { Outcome } from './outcome';
import { countPromptTokens, type RelayRequest } from './relay-request';
import type { TokenCounter } from './tokenizer';

/**
 * What a call is billed for: the provider's usage, or what we count when it reports none. A stream
 * cut short pays at least for the text it delivered: an early report (Anthropic's message_start
 * says 1 output token) must not stand for an answer that went on. A GPT image answer without usage
 * pays its worst case, as held: there is no text to count.
 */
export function billedUsage(request: RelayRequest, result: Outcome, counter: TokenCounter): Usage {
  const reported = result.usage;
  if (reported && result.complete) return reported;
  const imageCeiling = reported ? undefined : imageTokenCeiling(request);
  if (imageCeiling) return imageCeiling;
  const completion = counter.text(result.text(), request.model);
  if (!reported) {
    return { prompt_tokens: countPromptTokens(request, counter), completion_tokens: completion };
  }
  return {
    ...reported,
    prompt_tokens: reported.prompt_tokens || countPromptTokens(request, counter),
    completion_tokens: Math.max(reported.completion_tokens, completion),
  };
}

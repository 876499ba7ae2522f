import { RelayError } from '../../errors';
import { answerObject } from '../answer-check';
import { geminiError } from '../gemini/errors';
import { chatCompletion, type FinishReason, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall } from '../types';
import type { PalmChatResponse } from './wire';

/** The answer of a generateMessage call: its first candidate, or a filtered empty answer. */
export interface PalmAnswer {
  text: string;
  finishReason: FinishReason;
}

/** A parsed PaLM body → its answer, or the error it carries. PaLM reports no token usage. */
export function palmAnswer(body: Buffer | string): PalmAnswer | RelayError {
  const answer = answerObject<PalmChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.error) return geminiError(answer.error);
  const candidate = answer.candidates?.[0];
  if (candidate) return { text: candidate.content ?? '', finishReason: 'stop' };
  // Without candidates PaLM says why in `filters`: the prompt or the answer was blocked.
  if (answer.filters?.length) return { text: '', finishReason: 'content_filter' };
  return RelayError.upstream(502, 'PaLM answered no candidates', { code: 'no_candidates' });
}

export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = palmAnswer(body);
  if (answer instanceof RelayError) return answer;
  const completion = chatCompletion({
    id: `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    content: answer.text,
    finishReason: answer.finishReason,
  });
  return jsonAnswer(completion, answer.text);
}

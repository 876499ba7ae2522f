import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatAnswer, type FinishReason, JsonStreamTranslator } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { upstreamError } from '../upstream-error';
import type { CohereChatResponse, CohereMeta, CohereStreamEvent } from './wire';

const FINISH_REASONS: Record<string, FinishReason> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  ERROR_TOXIC: 'content_filter',
};

export const finishReasonOf = (reason: string | undefined): FinishReason =>
  (reason && FINISH_REASONS[reason]) || 'stop';

/** What Cohere bills (billed_units), else its full count (tokens, which one-api reads). */
export function usageOf(meta: CohereMeta | undefined): Usage | undefined {
  const counts = meta?.billed_units?.input_tokens !== undefined ? meta.billed_units : meta?.tokens;
  if (typeof counts?.input_tokens !== 'number') return undefined;
  return { prompt_tokens: counts.input_tokens, completion_tokens: counts.output_tokens ?? 0 };
}

export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<CohereChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!answer.response_id) return answer.message ? upstreamError(500, body) : missing('"response_id"');
  return chatAnswer({
    id: `chatcmpl-${answer.response_id}`,
    model: call.upstreamModel,
    text: answer.text ?? '',
    finishReason: finishReasonOf(answer.finish_reason),
    usage: usageOf(answer.meta),
  });
}

/** Cohere's stream lines (re-framed as SSE events by the transport) → OpenAI chunks; stream-end reports usage. */
export class CohereStream extends JsonStreamTranslator<CohereStreamEvent> {
  protected translate(event: CohereStreamEvent): string[] {
    const id = `chatcmpl-${this.call.requestId}`;
    if (event.event_type === 'text-generation') return this.answerDelta(id, event.text ?? '', []);
    if (event.event_type !== 'stream-end') return [];
    this.finished = true;
    this.reported = usageOf(event.response?.meta) ?? this.reported;
    const finishReason = finishReasonOf(event.finish_reason ?? event.response?.finish_reason);
    return [...this.delta(id, ''), this.chunk(id, { finishReason, usage: this.reported })];
  }
}

import { JsonStreamTranslator } from '../openai-format';
import { geminiError } from './errors';
import { candidateOutput, finishReasonOf, openAiId, usageOf } from './response';
import type { GeminiChatResponse } from './wire';

/**
 * Gemini's `alt=sse` events (each a whole GenerateContentResponse holding the next piece) → OpenAI
 * chunks. usageMetadata is a running total: the latest report wins. Function calls arrive whole.
 */
export class GeminiStream extends JsonStreamTranslator<GeminiChatResponse> {
  #toolCount = 0;
  #id: string | undefined;

  protected translate(event: GeminiChatResponse): string[] {
    if (event.error) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(geminiError(event.error).body(this.call.requestId))];
    }
    this.#id ??= openAiId(event, this.call);
    this.reported = usageOf(event.usageMetadata) ?? this.reported;
    const candidate = event.candidates?.[0];
    const { text, toolCalls } = candidateOutput(candidate);
    const chunks = this.answerDelta(this.#id, text, toolCalls, this.#toolCount);
    this.#toolCount += toolCalls.length;
    const blocked = !candidate && event.promptFeedback?.blockReason;
    const finishReason = blocked
      ? 'content_filter'
      : finishReasonOf(candidate?.finishReason, this.#toolCount > 0);
    if (finishReason) {
      this.finished = true;
      chunks.push(this.chunk(this.#id, { finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

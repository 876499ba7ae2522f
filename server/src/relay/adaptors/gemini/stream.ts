import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { geminiError } from './errors';
import { candidateOutput, finishReasonOf, openAiId, toolCallsText, usageOf } from './response';
import type { GeminiChatResponse } from './wire';

/**
 * Gemini's `alt=sse` events (each a whole GenerateContentResponse holding the next piece) → OpenAI
 * chunks. usageMetadata is a running total: the latest report wins. Function calls arrive whole.
 */
export class GeminiStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;
  #toolCount = 0;
  #id: string | undefined;

  constructor(private readonly call: Pick<RelayCall, 'requestId' | 'upstreamModel'>) {
    super();
  }

  push(data: string): string[] {
    let event: GeminiChatResponse;
    try {
      event = JSON.parse(data) as GeminiChatResponse;
    } catch {
      return [];
    }
    if (event.error) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(geminiError(event.error).body(this.call.requestId))];
    }
    this.#id ??= openAiId(event, this.call);
    this.reported = usageOf(event.usageMetadata) ?? this.reported;
    const candidate = event.candidates?.[0];
    const { text, toolCalls } = candidateOutput(candidate);
    const base = { id: this.#id, model: this.call.upstreamModel };
    const chunks: string[] = [];
    if (text || toolCalls.length > 0 || !this.#sentRole) {
      chunks.push(
        chatChunk({
          ...base,
          role: this.#sentRole ? undefined : 'assistant',
          content: text,
          toolCalls: toolCalls.map((toolCall) => ({ ...toolCall, index: this.#toolCount++ })),
        }),
      );
      this.#sentRole = true;
      this.generated += text + toolCallsText(toolCalls);
    }
    const blocked = !candidate && event.promptFeedback?.blockReason;
    const finishReason = blocked
      ? 'content_filter'
      : finishReasonOf(candidate?.finishReason, this.#toolCount > 0);
    if (finishReason) {
      this.finished = true;
      chunks.push(chatChunk({ ...base, finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

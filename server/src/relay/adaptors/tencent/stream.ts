import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { finishReasonOf, usageOf } from './response';
import type { HunyuanChatResponse } from './wire';

/** Hunyuan stream events (`data: {Choices[].Delta, Usage}`) → OpenAI chunks; Usage is a running total. */
export class HunyuanStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;

  constructor(private readonly call: RelayCall) {
    super();
  }

  push(data: string): string[] {
    let event: HunyuanChatResponse;
    try {
      event = JSON.parse(data) as HunyuanChatResponse;
    } catch {
      return [];
    }
    if (event.ErrorMsg || event.Error?.Code) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [];
    }
    this.reported = usageOf(event.Usage) ?? this.reported;
    const base = { id: event.Id || `chatcmpl-${this.call.requestId}`, model: this.call.upstreamModel };
    const choice = event.Choices?.[0];
    const content = choice?.Delta?.Content ?? '';
    const finishReason = finishReasonOf(choice?.FinishReason);
    this.generated += content;
    const chunks: string[] = [];
    if (content || !this.#sentRole) {
      chunks.push(chatChunk({ ...base, role: this.#sentRole ? undefined : 'assistant', content }));
      this.#sentRole = true;
    }
    if (finishReason) {
      this.finished = true;
      chunks.push(chatChunk({ ...base, finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

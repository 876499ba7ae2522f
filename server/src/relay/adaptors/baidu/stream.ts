import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { isBaiduError } from './errors';
import { finishReasonOf, usageOf } from './response';
import type { BaiduChatResponse } from './wire';

/**
 * ERNIE stream events (`data: {result, is_end, usage}`, one sentence each) → OpenAI chunks. Each event
 * carries the usage so far; the one on the `is_end` event is the whole count.
 */
export class BaiduStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;

  constructor(private readonly call: RelayCall) {
    super();
  }

  push(data: string): string[] {
    let event: BaiduChatResponse;
    try {
      event = JSON.parse(data) as BaiduChatResponse;
    } catch {
      return [];
    }
    if (!event || typeof event !== 'object') return [];
    if (isBaiduError(event)) {
      // A failure after the answer started ends the stream early: the usage so far is not final.
      return [];
    }
    this.reported = usageOf(event.usage) ?? this.reported;
    const base = { id: event.id || `chatcmpl-${this.call.requestId}`, model: this.call.upstreamModel };
    const content = event.result ?? '';
    this.generated += content;
    const chunks: string[] = [];
    if (content || !this.#sentRole) {
      chunks.push(chatChunk({ ...base, role: this.#sentRole ? undefined : 'assistant', content }));
      this.#sentRole = true;
    }
    if (event.is_end) {
      this.finished = true;
      chunks.push(chatChunk({ ...base, finishReason: finishReasonOf(event), usage: this.reported }));
    }
    return chunks;
  }
}

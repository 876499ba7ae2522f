import { JsonStreamTranslator } from '../openai-format';
import { baiduError, isBaiduError } from './errors';
import { finishReasonOf, usageOf } from './response';
import type { BaiduChatResponse } from './wire';

/**
 * ERNIE stream events (`data: {result, is_end, usage}`, one sentence each) → OpenAI chunks. Each event
 * carries the usage so far; the one on the `is_end` event is the whole count.
 */
export class BaiduStream extends JsonStreamTranslator<BaiduChatResponse> {
  protected translate(event: BaiduChatResponse): string[] {
    if (!event || typeof event !== 'object') return [];
    if (isBaiduError(event)) {
      // A failure after the answer started ends the stream early: the usage so far is not final.
      return [JSON.stringify(baiduError(event).body(this.call.requestId))];
    }
    this.reported = usageOf(event.usage) ?? this.reported;
    const id = event.id || `chatcmpl-${this.call.requestId}`;
    const content = event.result ?? '';
    this.generated += content;
    const chunks = this.delta(id, content);
    if (event.is_end) {
      this.finished = true;
      chunks.push(this.chunk(id, { finishReason: finishReasonOf(event), usage: this.reported }));
    }
    return chunks;
  }
}

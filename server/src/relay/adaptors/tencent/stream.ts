import { JsonStreamTranslator } from '../openai-format';
import { tencentError } from './errors';
import { finishReasonOf, usageOf } from './response';
import type { HunyuanChatResponse } from './wire';

/** Hunyuan stream events (`data: {Choices[].Delta, Usage}`) → OpenAI chunks; Usage is a running total. */
export class HunyuanStream extends JsonStreamTranslator<HunyuanChatResponse> {
  protected translate(event: HunyuanChatResponse): string[] {
    if (event.ErrorMsg || event.Error?.Code) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      const error = event.Error?.Code
        ? event.Error
        : { Code: String(event.ErrorMsg?.Code ?? 'InternalError'), Message: event.ErrorMsg?.Msg };
      return [JSON.stringify(tencentError(error).body(this.call.requestId))];
    }
    this.reported = usageOf(event.Usage) ?? this.reported;
    const id = event.Id || `chatcmpl-${this.call.requestId}`;
    const choice = event.Choices?.[0];
    const content = choice?.Delta?.Content ?? '';
    const finishReason = finishReasonOf(choice?.FinishReason);
    this.generated += content;
    const chunks = this.delta(id, content);
    if (finishReason) {
      this.finished = true;
      chunks.push(this.chunk(id, { finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

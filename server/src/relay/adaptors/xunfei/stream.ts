import { JsonStreamTranslator } from '../openai-format';
import type { RelayCall } from '../types';
import { parseError } from './errors';
import { toolCallsOf, usageOf } from './response';
import { LAST_FRAME, type SparkFrame } from './wire';

/** Spark answer frames (re-framed as SSE events by the transport) → OpenAI chunks. */
export class SparkStream extends JsonStreamTranslator<SparkFrame, RelayCall> {
  #calledTools = false;

  protected translate(frame: SparkFrame): string[] {
    if ((frame.header?.code ?? 0) !== 0) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(parseError(500, Buffer.from(JSON.stringify(frame))).body(this.call.requestId))];
    }
    const id = `chatcmpl-${this.call.requestId}`;
    const items = frame.payload?.choices?.text ?? [];
    const content = items.map((item) => item.content ?? '').join('');
    const toolCalls = toolCallsOf(this.call, items);
    this.reported = usageOf(frame) ?? this.reported;
    const chunks = this.answerDelta(id, content, toolCalls);
    this.#calledTools ||= toolCalls.length > 0;
    if (frame.header?.status === LAST_FRAME || frame.payload?.choices?.status === LAST_FRAME) {
      this.finished = true;
      const finishReason = this.#calledTools ? 'tool_calls' : 'stop';
      chunks.push(this.chunk(id, { finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

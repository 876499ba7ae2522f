import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { toolCallsOf, usageOf } from './response';
import { LAST_FRAME, type SparkFrame } from './wire';

/** Spark answer frames (re-framed as SSE events by the transport) → OpenAI chunks. */
export class SparkStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;
  #calledTools = false;

  constructor(private readonly call: RelayCall) {
    super();
  }

  push(data: string): string[] {
    let frame: SparkFrame;
    try {
      frame = JSON.parse(data) as SparkFrame;
    } catch {
      return [];
    }
    if ((frame.header?.code ?? 0) !== 0) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [];
    }
    const base = { id: `chatcmpl-${this.call.requestId}`, model: this.call.upstreamModel };
    const items = frame.payload?.choices?.text ?? [];
    const content = items.map((item) => item.content ?? '').join('');
    const toolCalls = toolCallsOf(this.call, items);
    this.reported = usageOf(frame) ?? this.reported;
    const chunks: string[] = [];
    if (content || toolCalls.length > 0 || !this.#sentRole) {
      chunks.push(
        chatChunk({
          ...base,
          role: this.#sentRole ? undefined : 'assistant',
          content,
          toolCalls: toolCalls.map((toolCall, index) => ({ ...toolCall, index })),
        }),
      );
      this.#sentRole = true;
      this.#calledTools ||= toolCalls.length > 0;
      this.generated += content + toolCalls.map((t) => t.function.name + t.function.arguments).join('');
    }
    if (frame.header?.status === LAST_FRAME || frame.payload?.choices?.status === LAST_FRAME) {
      this.finished = true;
      const finishReason = this.#calledTools ? 'tool_calls' : 'stop';
      chunks.push(chatChunk({ ...base, finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

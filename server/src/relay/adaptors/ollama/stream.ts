import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { finishReasonOf, toolCallsOf, usageOf } from './response';
import type { OllamaChatResponse } from './wire';

/** One Ollama stream line (already re-framed as an SSE event by the transport) → OpenAI chunks. */
export class OllamaStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;
  #calledTools = false;

  constructor(private readonly call: RelayCall) {
    super();
  }

  push(data: string): string[] {
    let line: OllamaChatResponse;
    try {
      line = JSON.parse(data) as OllamaChatResponse;
    } catch {
      return [];
    }
    if (line.error) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [];
    }
    const base = { id: `chatcmpl-${this.call.requestId}`, model: this.call.upstreamModel };
    const chunks: string[] = [];
    const content = line.message?.content ?? '';
    const toolCalls = toolCallsOf(this.call, line.message);
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
    if (line.done) {
      this.finished = true;
      this.reported = usageOf(line) ?? this.reported;
      chunks.push(
        chatChunk({ ...base, finishReason: finishReasonOf(line, this.#calledTools), usage: this.reported }),
      );
    }
    return chunks;
  }
}

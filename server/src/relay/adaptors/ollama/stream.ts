import { JsonStreamTranslator } from '../openai-format';
import type { RelayCall } from '../types';
import { upstreamError } from '../upstream-error';
import { finishReasonOf, toolCallsOf, usageOf } from './response';
import type { OllamaChatResponse } from './wire';

/** One Ollama stream line (already re-framed as an SSE event by the transport) → OpenAI chunks. */
export class OllamaStream extends JsonStreamTranslator<OllamaChatResponse, RelayCall> {
  #calledTools = false;

  protected translate(line: OllamaChatResponse): string[] {
    if (line.error) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(upstreamError(500, JSON.stringify(line)).body(this.call.requestId))];
    }
    const id = `chatcmpl-${this.call.requestId}`;
    const content = line.message?.content ?? '';
    const toolCalls = toolCallsOf(this.call, line.message);
    const chunks = this.answerDelta(id, content, toolCalls);
    this.#calledTools ||= toolCalls.length > 0;
    if (line.done) {
      this.finished = true;
      this.reported = usageOf(line) ?? this.reported;
      chunks.push(
        this.chunk(id, { finishReason: finishReasonOf(line, this.#calledTools), usage: this.reported }),
      );
    }
    return chunks;
  }
}

import { JsonStreamTranslator, type ToolCallDelta } from '../openai-format';
import { dashScopeError } from './errors';
import { finishReasonOf, newToolCallId, openAiId, usageOf } from './response';
import type { DashScopeChatResponse, DashScopeToolCall } from './wire';

/**
 * DashScope's SSE events (`id:`, `event:result`, `:HTTP_STATUS/200`, `data:{output, usage, request_id}`)
 * → OpenAI chunks. With incremental output each event holds the next piece of the message; usage is a
 * running total, so the latest report wins. An `event:error` carries `{code, message, request_id}`.
 */
export class DashScopeStream extends JsonStreamTranslator<DashScopeChatResponse> {
  #id: string | undefined;
  #toolIndexes = new Set<number>();

  protected translate(answer: DashScopeChatResponse, event?: string): string[] {
    if (event === 'error' || (answer.code && !answer.output)) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(dashScopeError(answer).body(this.call.requestId))];
    }
    this.#id ??= openAiId(answer.request_id, this.call);
    this.reported = usageOf(answer.usage) ?? this.reported;
    const choice = answer.output?.choices?.[0];
    const content = choice?.message?.content ?? '';
    const toolCalls = this.#toolDeltas(choice?.message?.tool_calls);
    this.generated += content;
    const chunks = this.delta(this.#id, content, toolCalls);
    const reason = finishReasonOf(choice?.finish_reason);
    if (reason) {
      this.finished = true;
      const finishReason = reason === 'stop' && this.#toolIndexes.size > 0 ? 'tool_calls' : reason;
      chunks.push(this.chunk(this.#id, { finishReason, usage: this.reported }));
    }
    return chunks;
  }

  /** The first piece of a call names it (an id made up if DashScope sent none); later ones add arguments. */
  #toolDeltas(calls: DashScopeToolCall[] | undefined): ToolCallDelta[] {
    const deltas: ToolCallDelta[] = [];
    for (const [position, call] of (calls ?? []).entries()) {
      const index = typeof call.index === 'number' ? call.index : position;
      const args = call.function?.arguments ?? '';
      this.generated += (call.function?.name ?? '') + args;
      if (!this.#toolIndexes.has(index)) {
        if (!call.function?.name) continue;
        this.#toolIndexes.add(index);
        deltas.push({
          index,
          id: call.id || newToolCallId(),
          type: 'function',
          function: { name: call.function.name, arguments: args },
        });
      } else if (args) {
        deltas.push({ index, function: { arguments: args } });
      }
    }
    return deltas;
  }
}

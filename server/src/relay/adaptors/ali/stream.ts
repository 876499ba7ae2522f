import { chatChunk, JsonStreamTranslator, type ToolCall } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { dashScopeError } from './errors';
import { finishReasonOf, newToolCallId, openAiId, usageOf } from './response';
import type { DashScopeChatResponse, DashScopeToolCall } from './wire';

type ToolCallDelta = ToolCall & { index: number };

/**
 * Later pieces of a tool call carry only its index and more arguments, as OpenAI streams them; the
 * shared chunk builder types every tool call delta as complete, hence the cast.
 */
const argumentsDelta = (index: number, text: string) =>
  ({ index, function: { arguments: text } }) as unknown as ToolCallDelta;

/**
 * DashScope's SSE events (`id:`, `event:result`, `:HTTP_STATUS/200`, `data:{output, usage, request_id}`)
 * → OpenAI chunks. With incremental output each event holds the next piece of the message; usage is a
 * running total, so the latest report wins. An `event:error` carries `{code, message, request_id}`.
 */
export class DashScopeStream extends JsonStreamTranslator implements StreamTranslator {
  #sentRole = false;
  #id: string | undefined;
  #toolIndexes = new Set<number>();

  constructor(private readonly call: Pick<RelayCall, 'requestId' | 'upstreamModel'>) {
    super();
  }

  push(data: string, event?: string): string[] {
    let answer: DashScopeChatResponse;
    try {
      answer = JSON.parse(data) as DashScopeChatResponse;
    } catch {
      return [];
    }
    if (event === 'error' || (answer.code && !answer.output)) {
      // An error ends the stream early: usage reported so far is not final (not `finished`).
      return [JSON.stringify(dashScopeError(answer).body(this.call.requestId))];
    }
    this.#id ??= openAiId(answer.request_id, this.call);
    this.reported = usageOf(answer.usage) ?? this.reported;
    const base = { id: this.#id, model: this.call.upstreamModel };
    const choice = answer.output?.choices?.[0];
    const content = choice?.message?.content ?? '';
    const toolCalls = this.#toolDeltas(choice?.message?.tool_calls);
    this.generated += content;
    const chunks: string[] = [];
    if (content || toolCalls.length > 0 || !this.#sentRole) {
      chunks.push(chatChunk({ ...base, role: this.#sentRole ? undefined : 'assistant', content, toolCalls }));
      this.#sentRole = true;
    }
    const reason = finishReasonOf(choice?.finish_reason);
    if (reason) {
      this.finished = true;
      const finishReason = reason === 'stop' && this.#toolIndexes.size > 0 ? 'tool_calls' : reason;
      chunks.push(chatChunk({ ...base, finishReason, usage: this.reported }));
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
        deltas.push(argumentsDelta(index, args));
      }
    }
    return deltas;
  }
}

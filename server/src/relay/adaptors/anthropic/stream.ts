import { type ChunkFields, JsonStreamTranslator } from '../openai-format';
import type { RelayCall } from '../types';
import { anthropicError } from './errors';
import { finishReasonOf, openAiId, usageOf } from './response';
import type { AnthropicStreamEvent, AnthropicUsage } from './wire';

/**
 * Anthropic's streamed message events → OpenAI chunks. Usage is reported twice: input tokens in
 * message_start, then running output totals in message_delta; each field keeps its latest value.
 */
export class AnthropicStream extends JsonStreamTranslator<AnthropicStreamEvent> {
  #id: string;
  #usage: AnthropicUsage = {};
  /** Anthropic numbers content blocks; OpenAI numbers tool calls only. */
  #toolIndexByBlock = new Map<number, number>();

  constructor(call: Pick<RelayCall, 'requestId' | 'upstreamModel'>) {
    super(call);
    this.#id = openAiId(undefined, call);
  }

  protected translate(event: AnthropicStreamEvent): string[] {
    switch (event.type) {
      case 'message_start':
        this.#id = openAiId(event.message?.id, this.call);
        this.#report(event.message?.usage);
        return [this.#chunk({ role: 'assistant', content: '' })];
      case 'content_block_start':
        return this.#blockStart(event.index, event.content_block);
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') return this.#text(event.delta.text);
        if (event.delta.type === 'thinking_delta') return this.#reasoning(event.delta.thinking);
        if (event.delta.type === 'input_json_delta')
          return this.#arguments(event.index, event.delta.partial_json);
        return [];
      case 'message_delta': {
        this.#report(event.usage);
        const finishReason = finishReasonOf(event.delta?.stop_reason);
        return finishReason ? [this.#chunk({ finishReason, usage: this.reported })] : [];
      }
      case 'message_stop':
        this.finished = true;
        return [];
      case 'error':
        // An error ends the stream early: usage reported so far is not final (not `finished`).
        return [JSON.stringify(anthropicError(event.error).body(this.call.requestId))];
      default:
        return [];
    }
  }

  #blockStart(
    index: number,
    block: Extract<AnthropicStreamEvent, { type: 'content_block_start' }>['content_block'],
  ) {
    if (block.type === 'text') return block.text ? this.#text(block.text) : [];
    if (block.type === 'thinking') return this.#reasoning(block.thinking ?? '');
    if (block.type !== 'tool_use') return [];
    const toolIndex = this.#toolIndexByBlock.size;
    this.#toolIndexByBlock.set(index, toolIndex);
    this.generated += block.name;
    const toolCall = { index: toolIndex, id: block.id, type: 'function' as const };
    return [this.#chunk({ toolCalls: [{ ...toolCall, function: { name: block.name, arguments: '' } }] })];
  }

  #text(text: string): string[] {
    if (!text) return [];
    this.generated += text;
    return [this.#chunk({ content: text })];
  }

  /** Thinking goes out as `reasoning_content`, as OpenAI-compatible reasoning providers stream it. */
  #reasoning(text: string): string[] {
    if (!text) return [];
    this.generated += text;
    return [this.#chunk({ reasoning: text })];
  }

  #arguments(blockIndex: number, text: string): string[] {
    const toolIndex = this.#toolIndexByBlock.get(blockIndex);
    if (toolIndex === undefined || !text) return [];
    this.generated += text;
    return [this.#chunk({ toolCalls: [{ index: toolIndex, function: { arguments: text } }] })];
  }

  #report(usage: AnthropicUsage | undefined): void {
    if (!usage) return;
    const present = Object.entries(usage).filter(([, value]) => typeof value === 'number');
    this.#usage = { ...this.#usage, ...Object.fromEntries(present) };
    this.reported = usageOf(this.#usage) ?? this.reported;
  }

  #chunk(fields: ChunkFields): string {
    return this.chunk(this.#id, fields);
  }
}

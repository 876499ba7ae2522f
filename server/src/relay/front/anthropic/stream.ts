import { anthropicErrorType } from '../../adaptors/anthropic/errors';
import type { Json } from '../../json-value';
import { anthropicMessageId, anthropicStopReason, anthropicUsage } from './response';

const event = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * Turns OpenAI chat chunks into Anthropic's stream events (message_start … message_stop);
 * `reasoning_content` pieces become a thinking block.
 */
export class AnthropicStreamWriter {
  #started = false;
  #openBlock: { index: number; kind: 'text' | 'thinking' | 'tool' } | undefined;
  #nextIndex = 0;
  #toolBlocks = new Map<number, number>();
  #stopReason: string | null = null;
  #usage: Json = { input_tokens: 0, output_tokens: 0 };
  #finished = false;

  constructor(
    private readonly model: string,
    private readonly id: string,
  ) {}

  /** One OpenAI `data:` payload in, Anthropic events out. */
  chunk(payload: string): string {
    if (payload === '[DONE]') return this.finish();
    let chunk: Json;
    try {
      chunk = JSON.parse(payload) as Json;
    } catch {
      return '';
    }
    if (this.#finished) return '';
    const error = chunk.error as Json | undefined;
    if (error && typeof error === 'object') {
      // An upstream error half-way: Anthropic ends such a stream with an `error` event, no message_stop.
      this.#finished = true;
      return (
        this.#start() +
        event('error', {
          error: { type: anthropicErrorType(error.type), message: String(error.message ?? '') },
        })
      );
    }
    let out = this.#start(chunk.id);
    if (chunk.usage && typeof chunk.usage === 'object') this.#usage = anthropicUsage(chunk.usage);
    const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as Json | undefined;
    const delta = (choice?.delta ?? {}) as Json;
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
      out += this.#open('thinking');
      out += event('content_block_delta', {
        index: this.#openBlock!.index,
        delta: { type: 'thinking_delta', thinking: delta.reasoning_content },
      });
    }
    if (typeof delta.content === 'string' && delta.content) {
      out += this.#open('text');
      out += event('content_block_delta', {
        index: this.#openBlock!.index,
        delta: { type: 'text_delta', text: delta.content },
      });
    }
    for (const call of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []) as Json[]) {
      const callIndex = Number(call.index ?? 0);
      const fn = (call.function ?? {}) as Json;
      if (!this.#toolBlocks.has(callIndex)) {
        out += this.#close();
        const index = this.#nextIndex++;
        this.#toolBlocks.set(callIndex, index);
        this.#openBlock = { index, kind: 'tool' };
        out += event('content_block_start', {
          index,
          content_block: {
            type: 'tool_use',
            id: call.id ?? `toolu_${index}`,
            name: fn.name ?? '',
            input: {},
          },
        });
      }
      if (typeof fn.arguments === 'string' && fn.arguments) {
        out += event('content_block_delta', {
          index: this.#toolBlocks.get(callIndex)!,
          delta: { type: 'input_json_delta', partial_json: fn.arguments },
        });
      }
    }
    if (choice?.finish_reason) this.#stopReason = anthropicStopReason(choice.finish_reason);
    return out;
  }

  /** Closes the message (also when the upstream ended without [DONE]). */
  finish(): string {
    if (this.#finished) return '';
    this.#finished = true;
    return (
      this.#start() +
      this.#close() +
      event('message_delta', {
        delta: { stop_reason: this.#stopReason ?? 'end_turn', stop_sequence: null },
        usage: this.#usage,
      }) +
      event('message_stop', {})
    );
  }

  /** The message's id is the upstream's (an Anthropic channel's own), else ours. */
  #start(upstreamId?: unknown): string {
    if (this.#started) return '';
    this.#started = true;
    return (
      event('message_start', {
        message: {
          id: anthropicMessageId(upstreamId, this.id),
          type: 'message',
          role: 'assistant',
          model: this.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      }) + event('ping', {})
    );
  }

  #open(kind: 'text' | 'thinking'): string {
    if (this.#openBlock?.kind === kind) return '';
    const closed = this.#close();
    const index = this.#nextIndex++;
    this.#openBlock = { index, kind };
    const block =
      kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    return closed + event('content_block_start', { index, content_block: block });
  }

  #close(): string {
    if (!this.#openBlock) return '';
    const { index } = this.#openBlock;
    this.#openBlock = undefined;
    return event('content_block_stop', { index });
  }
}

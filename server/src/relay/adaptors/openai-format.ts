import type { Usage } from './types';

/**
 * Builders of OpenAI's response shapes, for adaptors that convert a provider's answer.
 * Every converted answer goes through these, so the shapes live in one place.
 */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | null;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

const created = () => Math.floor(Date.now() / 1000);

const withTotal = (usage: Usage) => ({
  ...usage,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
});

export function chatCompletion(options: {
  id: string;
  model: string;
  content: string | null;
  finishReason: FinishReason;
  usage?: Usage;
  toolCalls?: ToolCall[];
}) {
  return {
    id: options.id,
    object: 'chat.completion',
    created: created(),
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: options.content,
          ...(options.toolCalls?.length ? { tool_calls: options.toolCalls } : {}),
        },
        finish_reason: options.finishReason,
      },
    ],
    ...(options.usage ? { usage: withTotal(options.usage) } : {}),
  };
}

/** One streamed chunk: a text delta, tool call deltas, a finish reason, or (with no choices) usage. */
export function chatChunk(options: {
  id: string;
  model: string;
  content?: string;
  role?: 'assistant';
  toolCalls?: Array<ToolCall & { index: number }>;
  finishReason?: FinishReason;
  usage?: Usage;
}): string {
  const delta: Record<string, unknown> = {};
  if (options.role) delta.role = options.role;
  if (options.content !== undefined) delta.content = options.content;
  if (options.toolCalls?.length) delta.tool_calls = options.toolCalls;
  const choices =
    options.usage && options.content === undefined && !options.finishReason
      ? []
      : [{ index: 0, delta, finish_reason: options.finishReason ?? null }];
  return JSON.stringify({
    id: options.id,
    object: 'chat.completion.chunk',
    created: created(),
    model: options.model,
    choices,
    ...(options.usage ? { usage: withTotal(options.usage) } : {}),
  });
}

export function embeddingList(model: string, vectors: number[][], usage: Usage) {
  return {
    object: 'list',
    model,
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    usage: {
      prompt_tokens: usage.prompt_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
    },
  };
}

/** The text of an OpenAI message content (a string, or text parts). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && (part as { type?: string }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '',
    )
    .join('');
}

/** A simple translator base: providers that send one JSON object per event extend this. */
export abstract class JsonStreamTranslator {
  protected reported: Usage | undefined;
  protected generated = '';
  protected finished = false;

  usage(): Usage | undefined {
    return this.reported;
  }

  text(): string {
    return this.generated;
  }

  done(): boolean {
    return this.finished;
  }
}

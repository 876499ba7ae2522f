import { RelayError } from '../errors';
import type { Json } from '../json-value';
import { answerObject } from './answer-check';
import type { ConvertedResponse, RelayCall, StreamTranslator, Usage } from './types';

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

/**
 * A streamed tool call piece: the first names the call (id, type, name); later ones carry only its
 * index and more arguments, as OpenAI streams them.
 */
export type ToolCallDelta =
  | (ToolCall & { index: number })
  | { index: number; function: { arguments: string } };

/** What tool calls add to the generated text, counted when a provider reports no usage. */
export const toolCallsText = (toolCalls: ToolCall[]): string =>
  toolCalls.map((toolCall) => toolCall.function.name + toolCall.function.arguments).join('');

const created = () => Math.floor(Date.now() / 1000);

/** Details objects with only the parts that are known (non-zero); undefined when none is. */
function details(parts: Record<string, number | undefined>): Record<string, number> | undefined {
  const known = Object.entries(parts).filter((entry): entry is [string, number] => Boolean(entry[1]));
  return known.length > 0 ? Object.fromEntries(known) : undefined;
}

/**
 * Usage in OpenAI's shape: totals, and the prompt and completion details the provider reported.
 * Cache writes have no field of OpenAI's; they stay counted in prompt_tokens.
 */
const withTotal = (usage: Usage) => {
  const prompt = details({
    cached_tokens: usage.cached_tokens,
    audio_tokens: usage.prompt_audio_tokens,
    image_tokens: usage.prompt_image_tokens,
  });
  const completion = details({
    reasoning_tokens: usage.reasoning_tokens,
    audio_tokens: usage.completion_audio_tokens,
  });
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    ...(prompt ? { prompt_tokens_details: prompt } : {}),
    ...(completion ? { completion_tokens_details: completion } : {}),
  };
};

export function chatCompletion(options: {
  id: string;
  model: string;
  content: string | null;
  finishReason: FinishReason;
  usage?: Usage;
  toolCalls?: ToolCall[];
  /** The model's thinking, as OpenAI-compatible reasoning providers (DeepSeek) name it. */
  reasoning?: string;
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
          ...(options.reasoning ? { reasoning_content: options.reasoning } : {}),
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
  /** A piece of the model's thinking (`reasoning_content`). */
  reasoning?: string;
  role?: 'assistant';
  toolCalls?: ToolCallDelta[];
  finishReason?: FinishReason;
  usage?: Usage;
}): string {
  const delta: Record<string, unknown> = {};
  if (options.role) delta.role = options.role;
  if (options.content !== undefined) delta.content = options.content;
  if (options.reasoning !== undefined) delta.reasoning_content = options.reasoning;
  if (options.toolCalls?.length) delta.tool_calls = options.toolCalls;
  const choices =
    options.usage && options.content === undefined && options.reasoning === undefined && !options.finishReason
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

/** A converted JSON answer: its usage when the provider reported some, its text for counting otherwise. */
export const jsonAnswer = (value: Json, text: string, usage?: Usage): ConvertedResponse => ({
  body: JSON.stringify(value),
  json: value,
  contentType: 'application/json',
  usage,
  text,
});

/** An embeddings answer from the provider's vectors (float arrays; the pipeline encodes base64 when asked). */
export const embeddingsAnswer = (model: string, vectors: number[][], usage?: Usage): ConvertedResponse =>
  jsonAnswer(embeddingList(model, vectors, usage ?? { prompt_tokens: 0, completion_tokens: 0 }), '', usage);

/**
 * A converted chat answer. `content` is null when the model only called tools (as OpenAI answers);
 * the text to count when usage is missing includes the calls' names and arguments.
 */
export function chatAnswer(
  options: Omit<Parameters<typeof chatCompletion>[0], 'content'> & { text: string },
): ConvertedResponse {
  const { text, ...fields } = options;
  const toolCalls = fields.toolCalls ?? [];
  const completion = chatCompletion({ ...fields, content: text || (toolCalls.length > 0 ? null : '') });
  return jsonAnswer(completion, text + toolCallsText(toolCalls), fields.usage);
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

/**
 * The base of translators for providers that send one JSON object per event: it parses each event
 * (data that is not a JSON object is a bad answer: it throws), keeps usage, text and the end, and
 * sends the assistant role once.
 */
export abstract class JsonStreamTranslator<Event, Call extends TranslatedCall = TranslatedCall>
  implements StreamTranslator
{
  protected reported: Usage | undefined;
  protected generated = '';
  protected finished = false;
  #sentRole = false;

  constructor(protected readonly call: Call) {}

  push(data: string, name?: string): string[] {
    // Some providers close with OpenAI's end marker; what a provider says is over comes in its events.
    if (data === '[DONE]') return [];
    const event = answerObject<Event & object>(data);
    if (event instanceof RelayError) throw event;
    return this.translate(event, name);
  }

  /** One parsed event (`name` is the SSE event name, when the provider sends one) → chunk payloads. */
  protected abstract translate(event: Event, name?: string): string[];

  /** A chunk of the answer with the given id. */
  protected chunk(id: string, fields: ChunkFields): string {
    return chatChunk({ id, model: this.call.upstreamModel, ...fields });
  }

  /** A chunk that carries the assistant role if none has yet. */
  protected assistantChunk(id: string, fields: Omit<ChunkFields, 'role'>): string {
    const role = this.#sentRole ? undefined : ('assistant' as const);
    this.#sentRole = true;
    return chatChunk({ id, model: this.call.upstreamModel, role, ...fields });
  }

  /** Text and tool call pieces; nothing when there are none, except the first chunk that says who speaks. */
  protected delta(id: string, content: string, toolCalls: ToolCallDelta[] = []): string[] {
    if (!content && toolCalls.length === 0 && this.#sentRole) return [];
    return [this.assistantChunk(id, { content, toolCalls })];
  }

  /** Text and whole tool calls (numbered from `first`), counted into the generated text. */
  protected answerDelta(id: string, content: string, toolCalls: ToolCall[], first = 0): string[] {
    this.generated += content + toolCallsText(toolCalls);
    return this.delta(
      id,
      content,
      toolCalls.map((toolCall, index) => ({ ...toolCall, index: first + index })),
    );
  }

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

type TranslatedCall = Pick<RelayCall, 'requestId' | 'upstreamModel'>;
/** What a chunk says, its id and model aside. */
export type ChunkFields = Omit<Parameters<typeof chatChunk>[0], 'id' | 'model'>;

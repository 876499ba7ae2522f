import { googleStreamError } from '../../adaptors/gemini/errors';
import { asObject, type Json } from '../../json-value';
import {
  type AnswerShape,
  functionArgs,
  geminiFinishReason,
  reasoningOf,
  responseIdOf,
  usageMetadataOf,
} from './response';

interface ToolCallDraft {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turns OpenAI chat chunks into Gemini GenerateContentResponse chunks. Text and thoughts leave as
 * they come; function calls leave whole (Gemini never splits one) in the last chunk, which carries
 * the finishReason and the usageMetadata (OpenAI sends its usage after the finish chunk).
 */
export class GeminiStreamWriter {
  #responseId: string | undefined;
  #toolCalls = new Map<number, ToolCallDraft>();
  #finishReason: unknown;
  #usage: unknown;
  #finished = false;

  constructor(private readonly shape: AnswerShape) {}

  /** One OpenAI `data:` payload in, Gemini chunks out. */
  chunk(payload: string): Json[] {
    if (payload === '[DONE]') return this.finish();
    let chunk: Json;
    try {
      chunk = JSON.parse(payload) as Json;
    } catch {
      return [];
    }
    if (this.#finished) return [];
    const error = asObject(chunk.error);
    if (error) {
      // An error half-way ends the stream: Google sends the error as the last element.
      this.#finished = true;
      return [googleStreamError(error)];
    }
    this.#responseId ??= responseIdOf(chunk.id, this.shape.fallbackId);
    if (chunk.usage) this.#usage = chunk.usage;
    const choice = asObject(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
    const delta = asObject(choice?.delta) ?? {};
    const parts: Json[] = [];
    const reasoning = this.shape.includeThoughts ? reasoningOf(delta) : '';
    if (reasoning) parts.push({ text: reasoning, thought: true });
    if (typeof delta.content === 'string' && delta.content) parts.push({ text: delta.content });
    this.#collectToolCalls(delta.tool_calls);
    if (choice?.finish_reason) this.#finishReason = choice.finish_reason;
    return parts.length > 0 ? [this.#response(parts)] : [];
  }

  /** The last chunk: function calls, finishReason and usage (also when the upstream ended without [DONE]). */
  finish(): Json[] {
    if (this.#finished) return [];
    this.#finished = true;
    const calls = [...this.#toolCalls.values()].map((call) => ({
      functionCall: {
        ...(call.id ? { id: call.id } : {}),
        name: call.name,
        args: functionArgs(call.arguments),
      },
    }));
    const usageMetadata = usageMetadataOf(this.#usage);
    return [
      {
        ...this.#response(calls.length > 0 ? calls : [{ text: '' }], geminiFinishReason(this.#finishReason)),
        ...(usageMetadata ? { usageMetadata } : {}),
      },
    ];
  }

  #collectToolCalls(value: unknown): void {
    for (const raw of Array.isArray(value) ? value : []) {
      const call = asObject(raw) ?? {};
      const fn = asObject(call.function) ?? {};
      const index = typeof call.index === 'number' ? call.index : this.#toolCalls.size;
      const draft = this.#toolCalls.get(index) ?? { id: '', name: '', arguments: '' };
      if (typeof call.id === 'string' && call.id) draft.id = call.id;
      if (typeof fn.name === 'string' && fn.name) draft.name = fn.name;
      if (typeof fn.arguments === 'string') draft.arguments += fn.arguments;
      this.#toolCalls.set(index, draft);
    }
  }

  #response(parts: Json[], finishReason?: string): Json {
    return {
      candidates: [
        { content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 },
      ],
      modelVersion: this.shape.model,
      responseId: this.#responseId ?? this.shape.fallbackId,
    };
  }
}

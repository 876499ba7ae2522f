import { randomUUID } from 'node:crypto';
import { RelayError } from '../../errors';
import { type Json, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import { anthropicError } from '../anthropic/errors';
import { chatAnswer, type FinishReason, JsonStreamTranslator, messageText } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';

/** Used when the client sets no limit, as one-api does. */
const DEFAULT_MAX_GEN_LEN = 2048;

/** Meta's Llama 3 chat template: each message in a header block, ending with the assistant's header. */
export function llamaPrompt(messages: unknown): string {
  const list = Array.isArray(messages) ? (messages as Json[]) : [];
  const turns = list.map(
    (message) =>
      `<|start_header_id|>${String(message.role)}<|end_header_id|>${messageText(message.content)}<|eot_id|>`,
  );
  return `<|begin_of_text|>${turns.join('')}<|start_header_id|>assistant<|end_header_id|>\n`;
}

export function llamaBody(body: Json): Json {
  return {
    prompt: llamaPrompt(body.messages),
    max_gen_len: numberOf(body.max_tokens) || numberOf(body.max_completion_tokens) || DEFAULT_MAX_GEN_LEN,
    ...(numberOf(body.temperature) !== undefined ? { temperature: numberOf(body.temperature) } : {}),
    ...(numberOf(body.top_p) !== undefined ? { top_p: numberOf(body.top_p) } : {}),
  };
}

interface LlamaAnswer {
  generation?: string;
  prompt_token_count?: number | null;
  generation_token_count?: number | null;
  stop_reason?: string | null;
  /** An exception frame, as the event-stream transport re-frames it. */
  type?: string;
  error?: { type?: unknown; message?: unknown };
}

const finishReasonOf = (reason: string | null | undefined): FinishReason =>
  reason === 'length' ? 'length' : reason ? 'stop' : null;

const usageOf = (prompt: number, completion: number): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
});

export function convertLlamaResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<LlamaAnswer>(body);
  if (answer instanceof RelayError) return answer;
  if (typeof answer.generation !== 'string') return missing('"generation"');
  return chatAnswer({
    id: `chatcmpl-${randomUUID()}`,
    model: call.upstreamModel,
    text: answer.generation,
    finishReason: finishReasonOf(answer.stop_reason) ?? 'stop',
    usage: usageOf(answer.prompt_token_count ?? 0, answer.generation_token_count ?? 0),
  });
}

/** Llama's streamed pieces → OpenAI chunks; the prompt count comes first, the completion count last. */
export class LlamaStream extends JsonStreamTranslator<LlamaAnswer> {
  #id = `chatcmpl-${randomUUID()}`;
  #prompt = 0;
  #completion = 0;

  protected translate(event: LlamaAnswer): string[] {
    if (event.type === 'error')
      return [JSON.stringify(anthropicError(event.error).body(this.call.requestId))];
    if (!this.#prompt && (event.prompt_token_count ?? 0) > 0) this.#prompt = event.prompt_token_count ?? 0;
    this.#completion = Math.max(this.#completion, event.generation_token_count ?? 0);
    this.reported = usageOf(this.#prompt, this.#completion);
    const chunks = this.answerDelta(this.#id, event.generation ?? '', []);
    const finishReason = finishReasonOf(event.stop_reason);
    if (finishReason) {
      this.finished = true;
      chunks.push(this.chunk(this.#id, { finishReason, usage: this.reported }));
    }
    return chunks;
  }
}

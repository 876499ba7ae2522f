import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import {
  chatCompletion,
  type FinishReason,
  jsonAnswer,
  type ToolCall,
  toolCallsText,
} from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { anthropicError } from './errors';
import type { AnthropicErrorBody, AnthropicResponse, AnthropicStopReason, AnthropicUsage } from './wire';

/**
 * Anthropic counts cache reads and cache writes apart from `input_tokens`; all of them were sent, so
 * the prompt is their sum, of which the reads are cached and the writes cache writes.
 */
export function usageOf(usage: AnthropicUsage | undefined): Usage | undefined {
  if (!usage || (usage.input_tokens === undefined && usage.output_tokens === undefined)) return undefined;
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return {
    prompt_tokens: (usage.input_tokens ?? 0) + written + read,
    completion_tokens: usage.output_tokens ?? 0,
    ...(read > 0 ? { cached_tokens: read } : {}),
    ...(written > 0 ? { cache_write_tokens: written } : {}),
  };
}

export function finishReasonOf(reason: AnthropicStopReason | null | undefined): FinishReason {
  if (!reason) return null;
  if (reason === 'max_tokens') return 'length';
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'refusal') return 'content_filter';
  return 'stop';
}

export const openAiId = (messageId: string | undefined, call: Pick<RelayCall, 'requestId'>) =>
  `chatcmpl-${messageId || call.requestId}`;

/**
 * An Anthropic message → an OpenAI chat completion (text blocks joined, tool_use blocks as tool_calls,
 * thinking blocks as `reasoning_content`).
 */
export function toOpenAiCompletion(answer: AnthropicResponse, model: string, id: string) {
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  for (const block of answer.content ?? []) {
    if (block.type === 'text') text += block.text;
    if (block.type === 'thinking') reasoning += block.thinking ?? '';
    if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  return chatCompletion({
    id,
    model,
    content: text || (toolCalls.length > 0 ? null : ''),
    finishReason: finishReasonOf(answer.stop_reason) ?? 'stop',
    usage: usageOf(answer.usage),
    toolCalls,
    reasoning,
  });
}

/** The text to count tokens of when usage is missing: content, tool names and arguments. */
export function generatedText(completion: ReturnType<typeof toOpenAiCompletion>): string {
  const message = completion.choices[0]?.message;
  const calls = message?.tool_calls ?? [];
  const reasoning = message && 'reasoning_content' in message ? message.reasoning_content : '';
  return reasoning + (message?.content ?? '') + toolCallsText(calls);
}

export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<AnthropicResponse | AnthropicErrorBody>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.type === 'error') return anthropicError(answer.error);
  if (answer.type !== 'message') return missing('"type": "message"');
  const completion = toOpenAiCompletion(answer, call.upstreamModel, openAiId(answer.id, call));
  return jsonAnswer(completion, generatedText(completion), usageOf(answer.usage));
}

import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatAnswer, embeddingsAnswer, type FinishReason, type ToolCall } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { upstreamError } from '../upstream-error';
import type { OllamaChatResponse, OllamaEmbedResponse, OllamaMessage } from './wire';

/** Ollama leaves `prompt_eval_count` out when the prompt came from its cache: then we count ourselves. */
export function usageOf(answer: OllamaChatResponse): Usage | undefined {
  if (typeof answer.prompt_eval_count !== 'number' || typeof answer.eval_count !== 'number') return undefined;
  return { prompt_tokens: answer.prompt_eval_count, completion_tokens: answer.eval_count };
}

export function finishReasonOf(answer: OllamaChatResponse, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  return answer.done_reason === 'length' ? 'length' : 'stop';
}

export function toolCallsOf(call: RelayCall, message: Partial<OllamaMessage> | undefined): ToolCall[] {
  return (message?.tool_calls ?? []).map((toolCall, index) => ({
    id: `call_${call.requestId}_${index}`,
    type: 'function',
    function: { name: toolCall.function.name, arguments: JSON.stringify(toolCall.function.arguments ?? {}) },
  }));
}

export function convertChat(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<OllamaChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.error) return upstreamError(500, body);
  if (!answer.message || typeof answer.message !== 'object') return missing('"message"');
  const content = answer.message.content ?? '';
  const toolCalls = toolCallsOf(call, answer.message);
  const usage = usageOf(answer);
  return chatAnswer({
    id: `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    text: content,
    finishReason: finishReasonOf(answer, toolCalls.length > 0),
    usage,
    toolCalls,
  });
}

export function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<OllamaEmbedResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.error) return upstreamError(500, body);
  if (!Array.isArray(answer.embeddings)) return missing('"embeddings" list');
  const usage =
    typeof answer.prompt_eval_count === 'number'
      ? { prompt_tokens: answer.prompt_eval_count, completion_tokens: 0 }
      : undefined;
  return embeddingsAnswer(call.upstreamModel, answer.embeddings, usage);
}

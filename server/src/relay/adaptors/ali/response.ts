import { randomUUID } from 'node:crypto';
import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatAnswer, embeddingsAnswer, type FinishReason, type ToolCall } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { dashScopeError } from './errors';
import type {
  DashScopeChatResponse,
  DashScopeEmbeddingResponse,
  DashScopeToolCall,
  DashScopeUsage,
} from './wire';

export function usageOf(usage: DashScopeUsage | undefined): Usage | undefined {
  if (!usage || (usage.input_tokens === undefined && usage.output_tokens === undefined)) return undefined;
  return { prompt_tokens: usage.input_tokens ?? 0, completion_tokens: usage.output_tokens ?? 0 };
}

/** DashScope says "null" (a string) until the last event. */
export function finishReasonOf(reason: string | null | undefined): FinishReason {
  if (!reason || reason === 'null') return null;
  if (reason === 'length' || reason === 'tool_calls' || reason === 'content_filter') return reason;
  return 'stop';
}

export const newToolCallId = () => `call_${randomUUID().replaceAll('-', '')}`;

export function toolCallsOf(calls: DashScopeToolCall[] | undefined): ToolCall[] {
  return (calls ?? [])
    .filter((call) => call.function?.name)
    .map((call) => ({
      id: call.id || newToolCallId(),
      type: 'function' as const,
      function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
    }));
}

export const openAiId = (requestId: string | undefined, call: Pick<RelayCall, 'requestId'>) =>
  `chatcmpl-${requestId || call.requestId}`;

/** The parsed body, or the error to give the client: DashScope may put `{code, message}` in a 200. */
function answerOf<T extends { code?: string; output?: unknown }>(body: Buffer): T | RelayError {
  const answer = answerObject<T>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.code && !answer.output) return dashScopeError(answer);
  return answer.output && typeof answer.output === 'object' ? answer : missing('"output"');
}

function convertChat(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerOf<DashScopeChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  const choice = answer.output?.choices?.[0];
  // The older `result_format: "text"` shape, should a proxy in between answer with it.
  const content = choice?.message?.content ?? answer.output?.text ?? '';
  const toolCalls = toolCallsOf(choice?.message?.tool_calls);
  const reason = finishReasonOf(choice?.finish_reason ?? answer.output?.finish_reason);
  const usage = usageOf(answer.usage);
  return chatAnswer({
    id: openAiId(answer.request_id, call),
    model: call.upstreamModel,
    text: content,
    finishReason: toolCalls.length > 0 && reason === 'stop' ? 'tool_calls' : (reason ?? 'stop'),
    usage,
    toolCalls,
  });
}

/** Vectors in input order; DashScope reports only total_tokens, all of them prompt. */
function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerOf<DashScopeEmbeddingResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.output?.embeddings)) return missing('"output.embeddings" list');
  const vectors = [...answer.output.embeddings]
    .sort((a, b) => (a.text_index ?? 0) - (b.text_index ?? 0))
    .map((item) => item.embedding ?? []);
  const tokens = answer.usage?.total_tokens ?? answer.usage?.input_tokens;
  const usage = tokens === undefined ? undefined : { prompt_tokens: tokens, completion_tokens: 0 };
  return embeddingsAnswer(call.upstreamModel, vectors, usage);
}

export const convertResponse = (call: RelayCall, body: Buffer): ConvertedResponse | RelayError =>
  call.mode === 'embeddings' ? convertEmbeddings(call, body) : convertChat(call, body);

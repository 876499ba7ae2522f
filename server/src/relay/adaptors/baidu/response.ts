import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatCompletion, embeddingsAnswer, type FinishReason, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { baiduError, isBaiduError } from './errors';
import type { BaiduChatResponse, BaiduEmbeddingResponse, BaiduUsage } from './wire';

/** Baidu's usage; when only the total is given, the completion is what the prompt leaves of it. */
export function usageOf(usage: BaiduUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens || Math.max((usage.total_tokens ?? 0) - prompt, 0);
  if (!prompt && !completion) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion };
}

/** `finish_reason` (normal, stop, length, content_filter, function_call) and the older flags. */
export function finishReasonOf(answer: BaiduChatResponse): Exclude<FinishReason, null> {
  if (answer.finish_reason === 'length' || answer.is_truncated) return 'length';
  if (answer.finish_reason === 'content_filter' || answer.need_clear_history) return 'content_filter';
  return 'stop';
}

/** The parsed body, or the error to give the client (Baidu's errors come with HTTP 200). */
function answerOf<T extends object>(body: Buffer): T | RelayError {
  const parsed = answerObject<T>(body);
  if (parsed instanceof RelayError) return parsed;
  if (isBaiduError(parsed)) return baiduError(parsed);
  return parsed;
}

function convertChat(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerOf<BaiduChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (typeof answer.result !== 'string') return missing('"result"');
  const content = answer.result;
  const usage = usageOf(answer.usage);
  const completion = chatCompletion({
    id: answer.id || `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    content,
    finishReason: finishReasonOf(answer),
    usage,
  });
  return jsonAnswer(completion, content, usage);
}

function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerOf<BaiduEmbeddingResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.data)) return missing('"data" list');
  const vectors = [...answer.data]
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map((item) => item.embedding ?? []);
  // Embeddings have no completion: everything Baidu counts is input.
  const prompt = answer.usage?.prompt_tokens || answer.usage?.total_tokens || 0;
  const usage = prompt ? { prompt_tokens: prompt, completion_tokens: 0 } : undefined;
  return embeddingsAnswer(call.upstreamModel, vectors, usage);
}

export const convertResponse = (call: RelayCall, body: Buffer): ConvertedResponse | RelayError =>
  call.mode === 'embeddings' ? convertEmbeddings(call, body) : convertChat(call, body);

import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatCompletion, embeddingsAnswer, type FinishReason, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { tencentError } from './errors';
import type { HunyuanChatResponse, HunyuanEmbeddingResponse, HunyuanUsage } from './wire';

export function usageOf(usage: HunyuanUsage | undefined): Usage | undefined {
  if (!usage || (usage.PromptTokens === undefined && usage.CompletionTokens === undefined)) return undefined;
  return { prompt_tokens: usage.PromptTokens ?? 0, completion_tokens: usage.CompletionTokens ?? 0 };
}

export function finishReasonOf(reason: string | undefined): FinishReason {
  if (reason === 'length' || reason === 'tool_calls') return reason;
  if (reason === 'sensitive') return 'content_filter';
  return reason ? 'stop' : null;
}

/** The `Response` object of a Tencent Cloud API answer, or the error to give the client. */
function responseOf<T extends { Error?: { Code?: string } }>(body: Buffer): T | RelayError {
  const parsed = answerObject<{ Response?: T }>(body);
  if (parsed instanceof RelayError) return parsed;
  const response = parsed.Response;
  if (!response || typeof response !== 'object') return missing('"Response"');
  if (response.Error?.Code) return tencentError(response.Error);
  return response;
}

function convertChat(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = responseOf<HunyuanChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.Choices)) return missing('"Choices" list');
  const choice = answer.Choices[0];
  const content = choice?.Message?.Content ?? '';
  const usage = usageOf(answer.Usage);
  const completion = chatCompletion({
    id: answer.Id || `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    content,
    finishReason: finishReasonOf(choice?.FinishReason) ?? 'stop',
    usage,
  });
  return jsonAnswer(completion, content, usage);
}

function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = responseOf<HunyuanEmbeddingResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.Data)) return missing('"Data" list');
  const vectors = [...answer.Data]
    .sort((a, b) => (a.Index ?? 0) - (b.Index ?? 0))
    .map((item) => item.Embedding ?? []);
  const usage = usageOf(answer.Usage);
  return embeddingsAnswer(call.upstreamModel, vectors, usage);
}

export const convertResponse = (call: RelayCall, body: Buffer): ConvertedResponse | RelayError =>
  call.mode === 'embeddings' ? convertEmbeddings(call, body) : convertChat(call, body);

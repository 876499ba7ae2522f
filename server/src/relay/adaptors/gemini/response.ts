import { randomUUID } from 'node:crypto';
import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatAnswer, embeddingsAnswer, type FinishReason, type ToolCall } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { geminiError } from './errors';
import type {
  GeminiCandidate,
  GeminiChatResponse,
  GeminiEmbedResponse,
  GeminiModalityTokenCount,
  GeminiUsageMetadata,
} from './wire';

/** The tokens of one modality in a usage breakdown (0 when it is not listed). */
function modalityTokens(details: GeminiModalityTokenCount[] | undefined, modality: string): number {
  const entry = Array.isArray(details) ? details.find((detail) => detail?.modality === modality) : undefined;
  const count = entry?.tokenCount;
  return typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : 0;
}

/**
 * Thinking tokens are generated and billed as output, so they count as completion tokens (Gemini
 * reports them apart from the candidates'). Cached content is already part of the prompt count.
 */
export function usageOf(metadata: GeminiUsageMetadata | undefined): Usage | undefined {
  if (!metadata || metadata.promptTokenCount === undefined) return undefined;
  const thoughts = metadata.thoughtsTokenCount ?? 0;
  const parts: Partial<Usage> = {
    cached_tokens: metadata.cachedContentTokenCount ?? 0,
    reasoning_tokens: thoughts,
    prompt_audio_tokens: modalityTokens(metadata.promptTokensDetails, 'AUDIO'),
    prompt_image_tokens: modalityTokens(metadata.promptTokensDetails, 'IMAGE'),
    completion_audio_tokens: modalityTokens(metadata.candidatesTokensDetails, 'AUDIO'),
  };
  return {
    prompt_tokens: metadata.promptTokenCount,
    completion_tokens: (metadata.candidatesTokenCount ?? 0) + thoughts,
    ...Object.fromEntries(Object.entries(parts).filter(([, count]) => count)),
  };
}

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

export function finishReasonOf(reason: string | undefined, calledTools: boolean): FinishReason {
  if (!reason || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

/** The answer text of a candidate (thinking parts left out) and its function calls as OpenAI tool calls. */
export function candidateOutput(candidate: GeminiCandidate | undefined): {
  text: string;
  toolCalls: ToolCall[];
} {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if (typeof part.text === 'string' && !part.thought) text += part.text;
    if (part.functionCall?.name) {
      toolCalls.push({
        id: part.functionCall.id || `call_${randomUUID().replaceAll('-', '')}`,
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    }
  }
  return { text, toolCalls };
}

export const openAiId = (answer: GeminiChatResponse, call: Pick<RelayCall, 'requestId'>) =>
  `chatcmpl-${answer.responseId || call.requestId}`;

function convertChat(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<GeminiChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.error) return geminiError(answer.error);
  const candidate = answer.candidates?.[0];
  if (!candidate && !answer.promptFeedback?.blockReason) {
    return RelayError.upstream(502, 'Gemini answered no candidates', { code: 'no_candidates' });
  }
  const { text, toolCalls } = candidateOutput(candidate);
  const usage = usageOf(answer.usageMetadata);
  return chatAnswer({
    id: openAiId(answer, call),
    model: call.upstreamModel,
    text,
    // A prompt blocked before any candidate is a filtered answer.
    finishReason: candidate
      ? (finishReasonOf(candidate.finishReason, toolCalls.length > 0) ?? 'stop')
      : 'content_filter',
    usage,
    toolCalls,
  });
}

/** Gemini reports no usage for embeddings: the relay counts the input itself. */
function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<GeminiEmbedResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.error) return geminiError(answer.error);
  if (!Array.isArray(answer.embeddings)) return missing('"embeddings" list');
  const vectors = answer.embeddings.map((embedding) => embedding.values ?? []);
  return embeddingsAnswer(call.upstreamModel, vectors);
}

export const convertResponse = (call: RelayCall, body: Buffer): ConvertedResponse | RelayError =>
  call.mode === 'embeddings' ? convertEmbeddings(call, body) : convertChat(call, body);

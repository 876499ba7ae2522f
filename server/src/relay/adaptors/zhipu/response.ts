import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { openAiAdaptor } from '../openai';
import { chatCompletion, embeddingsAnswer, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { errorInBody } from './errors';
import { usesV3 } from './request';
import type { ZhipuEmbeddingResponse, ZhipuUsage, ZhipuV3Response } from './wire';

/** v4 chat and images are OpenAI's own shapes: passed on as they came, usage and text read from them. */
const openAiShaped = openAiAdaptor();

export function usageOf(usage: ZhipuUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  const prompt = usage.prompt_tokens ?? 0;
  let completion = usage.completion_tokens ?? 0;
  if (!completion && (usage.total_tokens ?? 0) > prompt) completion = (usage.total_tokens ?? 0) - prompt;
  if (!prompt && !completion) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion };
}

/**
 * v3 sends the content as a quoted string literal (`"\"Hello\\nthere\""`); it is decoded when it
 * parses as one, else only the quotes are dropped (as one-api does).
 */
export function v3Content(content: string | undefined): string {
  if (!content) return '';
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    try {
      const decoded: unknown = JSON.parse(content);
      if (typeof decoded === 'string') return decoded;
    } catch {
      // not a JSON string literal
    }
    return content.replace(/^"+|"+$/g, '');
  }
  return content;
}

function parsed<T extends object>(body: Buffer): T | RelayError {
  const value = answerObject<T>(body);
  if (value instanceof RelayError) return value;
  return errorInBody(value) ?? value;
}

function convertV3(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = parsed<ZhipuV3Response>(body);
  if (answer instanceof RelayError) return answer;
  if (!answer.data || typeof answer.data !== 'object') return missing('"data"');
  const content = (answer.data.choices ?? []).map((choice) => v3Content(choice.content)).join('');
  const usage = usageOf(answer.data.usage);
  const completion = chatCompletion({
    id: answer.data.task_id || answer.data.request_id || `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    content,
    finishReason: 'stop',
    usage,
  });
  return jsonAnswer(completion, content, usage);
}

function convertEmbeddings(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = parsed<ZhipuEmbeddingResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.data)) return missing('"data" list');
  const vectors = [...answer.data]
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map((item) => item.embedding ?? []);
  const usage = usageOf(answer.usage);
  return embeddingsAnswer(answer.model || call.upstreamModel, vectors, usage);
}

/** v4 chat and images: an error inside a 200 is still an error; anything else goes through as it came. */
function convertOpenAiShaped(call: RelayCall, body: Buffer, contentType: string) {
  const answer = parsed<object>(body);
  if (answer instanceof RelayError) return answer;
  return openAiShaped.convertResponse(call, body, contentType || 'application/json');
}

export function convertResponse(
  call: RelayCall,
  body: Buffer,
  contentType: string,
): ConvertedResponse | RelayError {
  if (call.mode === 'embeddings') return convertEmbeddings(call, body);
  if (usesV3(call)) return convertV3(call, body);
  return convertOpenAiShaped(call, body, contentType);
}

import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import { MODEL_AUTHOR, PALM_CHAT_MODEL, type PalmChatRequest, type PalmMessage, USER_AUTHOR } from './wire';

const isSystem = (message: Json) => message.role === 'system' || message.role === 'developer';

/**
 * An OpenAI chat request → generateMessage: system messages become the prompt's context, the user is
 * author 0 and everyone else author 1; consecutive messages of one author are joined, as PaLM wants
 * the authors to alternate. PaLM 2 takes text only.
 */
export function toPalmRequest(body: Json): PalmChatRequest {
  const all = Array.isArray(body.messages)
    ? body.messages.map(asObject).filter((value): value is Json => value !== undefined)
    : [];
  const context = all
    .filter(isSystem)
    .map((message) => messageText(message.content))
    .filter(Boolean)
    .join('\n\n');
  const messages: PalmMessage[] = [];
  for (const message of all) {
    const content = messageText(message.content);
    if (isSystem(message) || !content) continue;
    const author = message.role === 'user' ? USER_AUTHOR : MODEL_AUTHOR;
    const previous = messages.at(-1);
    if (previous?.author === author) previous.content += `\n\n${content}`;
    else messages.push({ author, content });
  }
  const request: PalmChatRequest = { prompt: { ...(context ? { context } : {}), messages } };
  for (const [field, value] of [
    ['temperature', numberOf(body.temperature)],
    ['topP', numberOf(body.top_p)],
    ['topK', numberOf(body.top_k)],
  ] as const) {
    if (value !== undefined) request[field] = value;
  }
  return request;
}

/** PaLM has no streaming: streams are served from the one answer (see transport.ts). */
export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(
      `PaLM 2 channels relay chat completions only, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  return {
    url: `${call.baseUrl}/v1beta2/models/${PALM_CHAT_MODEL}:generateMessage`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': call.apiKey },
    body: JSON.stringify(toPalmRequest(call.body ?? {})),
  };
}

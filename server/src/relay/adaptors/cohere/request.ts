import { RelayError } from '../../errors';
import { type Json, numberOf } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import type { CohereChatRequest, CohereHistoryMessage } from './wire';

const INTERNET_SUFFIX = '-internet';

/**
 * OpenAI messages as Cohere's: system messages make the preamble, the last user message is `message`,
 * the turns before it the history (one-api keeps only the last user turn and sends no preamble).
 */
function conversationOf(messages: Json[]) {
  const system = messages.filter((message) => message.role === 'system');
  const turns = messages.filter((message) => message.role !== 'system');
  let lastUser = -1;
  turns.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const history: CohereHistoryMessage[] = turns.slice(0, Math.max(lastUser, 0)).map((message) => ({
    role: message.role === 'assistant' ? 'CHATBOT' : 'USER',
    message: messageText(message.content),
  }));
  const preamble = system.map((message) => messageText(message.content)).join('\n');
  const last = lastUser >= 0 ? turns[lastUser] : turns.at(-1);
  return { message: last ? messageText(last.content) : '', history, preamble };
}

export function chatRequest(call: RelayCall): CohereChatRequest {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const { message, history, preamble } = conversationOf(messages);
  const searches = call.upstreamModel.endsWith(INTERNET_SUFFIX);
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop : [];
  // Unset fields are undefined: JSON leaves them out.
  const request: CohereChatRequest = {
    message,
    model:
      (searches ? call.upstreamModel.slice(0, -INTERNET_SUFFIX.length) : call.upstreamModel) || 'command-r',
    stream: call.isStream,
    preamble: preamble || undefined,
    chat_history: history.length > 0 ? history : undefined,
    connectors: searches ? [{ id: 'web-search' }] : undefined,
    max_tokens: numberOf(body.max_tokens) ?? numberOf(body.max_completion_tokens),
    temperature: numberOf(body.temperature),
    p: numberOf(body.top_p),
    k: numberOf(body.top_k),
    seed: numberOf(body.seed),
    frequency_penalty: numberOf(body.frequency_penalty),
    presence_penalty: numberOf(body.presence_penalty),
    stop_sequences:
      stop.length > 0 ? stop.filter((item): item is string => typeof item === 'string') : undefined,
  };
  return request;
}

export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(`Cohere channels relay chat only, not ${call.mode}`, 'unsupported_mode');
  }
  return {
    url: `${call.baseUrl}/v1/chat`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${call.apiKey}`,
    },
    body: JSON.stringify(chatRequest(call)),
  };
}

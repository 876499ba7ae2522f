import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { requiredConfigText } from '../channel-config';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import type { CozeChatRequest, CozeHistoryMessage } from './wire';

/** The model name is the bot's id, optionally written `bot-<id>`. */
export const botIdOf = (model: string): string => model.replace(/^bot-/, '');

/** Earlier turns as Coze's history: the assistant's as answers, everything else as the user's. */
function historyOf(messages: Json[]): CozeHistoryMessage[] {
  return messages.map((message) =>
    message.role === 'assistant'
      ? { role: 'assistant', type: 'answer', content: messageText(message.content), content_type: 'text' }
      : { role: 'user', content: messageText(message.content), content_type: 'text' },
  );
}

/** The last message is the query (whatever its role), the ones before it the history; `user` is the channel's. */
export function chatRequest(call: RelayCall): CozeChatRequest {
  const messages = Array.isArray(call.body?.messages) ? (call.body.messages as Json[]) : [];
  const last = messages.at(-1);
  return {
    bot_id: botIdOf(call.upstreamModel),
    user: requiredConfigText(call, 'user_id', 'User ID'),
    query: last ? messageText(last.content) : '',
    chat_history: historyOf(messages.slice(0, -1)),
    stream: call.isStream,
  };
}

export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(`Coze channels relay chat only, not ${call.mode}`, 'unsupported_mode');
  }
  return {
    url: `${call.baseUrl}/open_api/v2/chat`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${call.apiKey}`,
    },
    body: JSON.stringify(chatRequest(call)),
  };
}

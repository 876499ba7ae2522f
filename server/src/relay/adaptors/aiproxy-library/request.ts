import { RelayError } from '../../errors';
import { configTextOrOther } from '../channel-config';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import type { LibraryRequest } from './wire';

/** The library to ask: `library_id` in the channel's config JSON, else the channel's `other` field. */
export const libraryIdOf = (call: RelayCall): string => configTextOrOther(call, 'library_id') ?? '';

/** The library answers one question: the last message's text. */
export function libraryRequest(call: RelayCall): LibraryRequest {
  const messages = Array.isArray(call.body?.messages)
    ? (call.body.messages as Array<{ content?: unknown }>)
    : [];
  return {
    model: call.upstreamModel,
    query: messageText(messages.at(-1)?.content),
    libraryId: libraryIdOf(call),
    stream: call.isStream,
  };
}

export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(`AI Proxy library channels answer chat, not ${call.mode}`, 'unsupported_mode');
  }
  return {
    url: `${call.baseUrl}/api/library/ask`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${call.apiKey}`,
    },
    body: JSON.stringify(libraryRequest(call)),
  };
}

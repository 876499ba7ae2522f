import type { NativeRequest } from '../adaptors/types';
import type { IncomingCall } from '../pipeline/call';

/**
 * The call a front of another client protocol (Anthropic, Responses, Gemini) hands the pipeline: its
 * request translated to a chat completion, with the client's own request beside it for the channels
 * that speak that protocol (passed through there).
 */
export function nativeChatCall(
  requestId: string,
  chat: Record<string, unknown>,
  native: NativeRequest,
): IncomingCall {
  return {
    requestId,
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    rawBody: Buffer.from(JSON.stringify(chat)),
    body: chat,
    contentType: 'application/json',
    native,
  };
}

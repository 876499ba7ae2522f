import { sendNdjsonStream } from '../ndjson-events';
import type { Adaptor, RelayCall, UpstreamRequest } from '../types';
import { upstreamError } from '../upstream-error';
import { chatRequest, embedRequest, unsupported } from './request';
import { convertChat, convertEmbeddings } from './response';
import { OllamaStream } from './stream';

function buildRequest(call: RelayCall): UpstreamRequest {
  const headers = {
    'content-type': 'application/json',
    // Ollama itself ignores it; proxies in front of it often check it.
    authorization: `Bearer ${call.apiKey}`,
  };
  if (call.mode === 'chat') {
    return {
      url: `${call.baseUrl}/api/chat`,
      method: 'POST',
      headers,
      body: JSON.stringify(chatRequest(call)),
    };
  }
  if (call.mode === 'embeddings') {
    return {
      url: `${call.baseUrl}/api/embed`,
      method: 'POST',
      headers,
      body: JSON.stringify(embedRequest(call)),
    };
  }
  throw unsupported(call);
}

/** Ollama's native API: /api/chat (NDJSON streams) and /api/embed. */
export const adaptor: Adaptor = {
  buildRequest,
  transport: (request, call, signal, http) => sendNdjsonStream(request, call.isStream, signal, http),
  convertResponse: (call, body) =>
    call.mode === 'embeddings' ? convertEmbeddings(call, body) : convertChat(call, body),
  streamTranslator: (call) => new OllamaStream(call),
  parseError: upstreamError,
};

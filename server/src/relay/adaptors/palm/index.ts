import { parseError } from '../gemini/errors';
import type { Adaptor } from '../types';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { PalmStream } from './stream';
import { sendToPalm } from './transport';

/**
 * Google PaLM 2 chat (`chat-bison-001:generateMessage`), key in `x-goog-api-key`. Errors use the same
 * Google format as Gemini's, so Gemini's reader serves both.
 */
export const adaptor: Adaptor = {
  buildRequest,
  transport: (request, call, signal, http) => sendToPalm(request, call.isStream, signal, http),
  convertResponse,
  streamTranslator: (call) => new PalmStream(call),
  parseError,
};

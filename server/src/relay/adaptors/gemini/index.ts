import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { GeminiStream } from './stream';

/** Google Gemini: generateContent, streamGenerateContent (SSE) and batchEmbedContents, key in `x-goog-api-key`. */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new GeminiStream(call),
  parseError,
};

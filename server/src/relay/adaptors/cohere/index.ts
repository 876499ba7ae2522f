import { sendNdjsonStream } from '../ndjson-events';
import type { Adaptor } from '../types';
import { upstreamError } from '../upstream-error';
import { buildRequest } from './request';
import { CohereStream, convertResponse } from './response';

/** Cohere's v1 Chat API (streams are one JSON object a line); a `-internet` model turns on web search. */
export const adaptor: Adaptor = {
  buildRequest,
  transport: (request, call, signal, http) => sendNdjsonStream(request, call.isStream, signal, http),
  convertResponse,
  streamTranslator: (call) => new CohereStream(call),
  parseError: upstreamError,
};

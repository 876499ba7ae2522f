import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { SparkStream } from './stream';
import { sparkTransport } from './transport';

/** iFlytek Spark over its signed WebSocket API; the transport turns frames into SSE events or one JSON body. */
export const adaptor: Adaptor = {
  buildRequest,
  transport: (request, call, signal, http) => sparkTransport(request, call.isStream, signal, http),
  convertResponse,
  streamTranslator: (call) => new SparkStream(call),
  parseError,
};

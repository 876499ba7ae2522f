import type { Adaptor } from '../types';
import { buildRequest } from './request';
import { convertResponse, parseError, ReplicateStream } from './response';
import { sendToReplicate } from './transport';

/**
 * Replicate's predictions: language models chat (streamed from the prediction's event stream, or
 * awaited whole), image models draw; a prediction is created, then polled or streamed.
 */
export const adaptor: Adaptor = {
  buildRequest,
  transport: sendToReplicate,
  convertResponse,
  streamTranslator: (call) => new ReplicateStream(call),
  parseError,
};

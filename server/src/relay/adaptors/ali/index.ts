import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { DashScopeStream } from './stream';

/** Alibaba Tongyi Qianwen through DashScope's native API: text generation (JSON or SSE) and text embedding. */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new DashScopeStream(call),
  parseError,
};

import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { HunyuanStream } from './stream';

/** Tencent Hunyuan through Tencent Cloud API 3.0 (TC3-HMAC-SHA256 signed): ChatCompletions and GetEmbedding. */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new HunyuanStream(call),
  parseError,
};

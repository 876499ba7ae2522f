import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { BaiduStream } from './stream';

/**
 * Baidu Wenxin (ERNIE) through Wenxin Workshop: the channel key `APIKey|SecretKey` is exchanged for an
 * OAuth access token (cached), sent in the query of the model's chat or embeddings service.
 */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new BaiduStream(call),
  parseError,
};

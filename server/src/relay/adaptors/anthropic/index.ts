import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest } from './request';
import { convertResponse } from './response';
import { AnthropicStream } from './stream';

/**
 * Anthropic Claude through the Messages API (`/v1/messages`), key in `x-api-key`: request.ts,
 * response.ts and stream.ts go OpenAI → Anthropic → OpenAI. The other way (our own `/v1/messages`
 * endpoint, served by any channel) is relay/front/anthropic.
 */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new AnthropicStream(call),
  parseError,
};

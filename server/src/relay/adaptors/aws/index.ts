import { convertResponse as convertClaudeResponse } from '../anthropic/response';
import { AnthropicStream } from '../anthropic/stream';
import type { Adaptor } from '../types';
import { parseError } from './errors';
import { convertLlamaResponse, LlamaStream } from './llama';
import { bedrockModelOf } from './models';
import { buildRequest } from './request';
import { transport } from './transport';

/**
 * AWS Bedrock Runtime (InvokeModel), signed with SigV4 from the channel config's region, ak and sk:
 * Claude (Anthropic's Messages body, Anthropic's converters) and Llama 3 (a prompt template). Streams
 * come in AWS's binary event stream, re-framed by the transport. Anthropic's own `/v1/messages` on a
 * Claude model passes through (adaptors/anthropic/native.ts).
 */
export const adaptor: Adaptor = {
  buildRequest,
  transport,
  convertResponse: (call, body) =>
    bedrockModelOf(call.upstreamModel).family === 'llama3'
      ? convertLlamaResponse(call, body)
      : convertClaudeResponse(call, body),
  streamTranslator: (call) =>
    bedrockModelOf(call.upstreamModel).family === 'llama3'
      ? new LlamaStream(call)
      : new AnthropicStream(call),
  parseError,
};

import { anthropicCountTokens } from '../../adaptors/anthropic/count-tokens';
import type { Json } from '../../json-value';
import type { UnbilledCall } from '../../pipeline/call';
import { anthropicToOpenAi } from './request';

export interface CountTokensRequest {
  requestId: string;
  rawBody: Buffer;
  body: Json;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Anthropic's `/v1/messages/count_tokens` as the pipeline's unbilled call: the model's channel answers
 * it when it is an Anthropic one (the client's body passed through, the model mapped), else our
 * tokenizer counts the converted messages and the tool definitions. Neither is billed nor logged.
 */
export function countTokensCall(request: CountTokensRequest): UnbilledCall {
  // The same checks as a message, max_tokens aside (count_tokens takes none).
  const converted = anthropicToOpenAi({ ...request.body, max_tokens: 1 });
  const model = String(request.body.model);
  return {
    requestId: request.requestId,
    path: '/v1/messages/count_tokens',
    query: '',
    model,
    native: {
      format: anthropicCountTokens,
      rawBody: request.rawBody,
      body: request.body,
      headers: request.headers,
    },
    answerHere(counter) {
      const tools = Array.isArray(request.body.tools) ? JSON.stringify(request.body.tools) : '';
      return { input_tokens: counter.messages(converted.messages, model) + counter.text(tools, model) };
    },
  };
}

import { geminiCountTokens } from '../../adaptors/gemini/count-tokens';
import type { UnbilledCall } from '../../pipeline/call';
import { toOpenAiMessages } from './contents';
import { countTokensRequest, type GeminiCall } from './request';
import { toOpenAiTools } from './tools';

/**
 * countTokens as the pipeline's unbilled call: the model's channel answers it when it is a Gemini one
 * (the client's body passed through to `models/{upstream model}:countTokens`), else our tokenizer
 * counts the converted messages plus the tools' JSON. Neither is billed nor logged.
 */
export function countTokensCall(
  requestId: string,
  call: GeminiCall,
  headers: UnbilledCall['native']['headers'],
): UnbilledCall {
  return {
    requestId,
    path: `/v1beta/models/${call.model}:countTokens`,
    query: '',
    model: call.model,
    native: { format: geminiCountTokens, rawBody: call.rawBody, body: call.body, headers },
    answerHere(counter) {
      const { body } = countTokensRequest(call);
      const messages = toOpenAiMessages(body.contents, body.systemInstruction);
      const tools = toOpenAiTools(body.tools);
      const toolTokens = tools ? counter.text(JSON.stringify(tools), call.model) : 0;
      return { totalTokens: counter.messages(messages, call.model) + toolTokens };
    },
  };
}

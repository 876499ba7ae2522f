import type { ClientSignal } from '../../client-signal';
import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import { answerObject, missing } from '../answer-check';
import { chatAnswer, JsonStreamTranslator, messageText } from '../openai-format';
import type { Adaptor, RelayCall, UpstreamRequest, Usage } from '../types';
import { upstreamError } from '../upstream-error';
import { asOneEventStream } from '../whole-body';

/** DeepL's translate answer (https://developers.deepl.com/docs/api-reference/translate). */
interface DeeplResponse {
  translations?: Array<{ detected_source_language?: string; text?: string }>;
  message?: string;
}

/** `deepl-zh` translates into ZH, `deepl-en-us` into EN-US; a name without a language into Chinese. */
export const targetLanguageOf = (model: string): string => {
  const dash = model.indexOf('-');
  return dash === -1 ? 'ZH' : model.slice(dash + 1).toUpperCase();
};

/** The text to translate: the last message's, whatever its role; the rest of the conversation is not sent. */
function sourceTextOf(call: RelayCall): string {
  const messages = Array.isArray(call.body?.messages) ? (call.body.messages as Json[]) : [];
  return messageText(messages.at(-1)?.content);
}

/**
 * DeepL bills characters of the source text; they are billed as prompt tokens (at the default ratio,
 * $25 per 1M characters, DeepL's price). one-api counts UTF-8 bytes, which charges CJK text threefold.
 */
const usageOf = (call: RelayCall): Usage => ({
  prompt_tokens: [...sourceTextOf(call)].length,
  completion_tokens: 0,
});

function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(
      `DeepL channels translate chat messages only, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  return {
    url: `${call.baseUrl}/v2/translate`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `DeepL-Auth-Key ${call.apiKey}`,
    },
    body: JSON.stringify({ text: [sourceTextOf(call)], target_lang: targetLanguageOf(call.upstreamModel) }),
  };
}

/** The translation, or why the answer is not one. */
function translationOf(body: Buffer | string): string | RelayError {
  const answer = answerObject<DeeplResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.message) return upstreamError(500, body.toString());
  if (!Array.isArray(answer.translations)) return missing('"translations" list');
  return answer.translations[0]?.text ?? '';
}

/** DeepL does not stream: a stream request gets the whole answer as one SSE event (as one-api does). */
async function sendToDeepl(
  request: UpstreamRequest,
  call: RelayCall,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const response = await http.send(request, signal);
  if (!call.isStream || response.status !== 200) return response;
  const body = await http.readWhole(response.body);
  return asOneEventStream(body);
}

/** The single event of a stream request → the translation as one chunk, then the finish with usage. */
class DeeplStream extends JsonStreamTranslator<DeeplResponse, RelayCall> {
  protected translate(_event: DeeplResponse): string[] {
    return [];
  }

  override push(data: string): string[] {
    this.finished = true;
    const text = translationOf(data);
    if (text instanceof RelayError) throw text;
    this.generated = text;
    this.reported = usageOf(this.call);
    const id = `chatcmpl-${this.call.requestId}`;
    return [
      this.chunk(id, { role: 'assistant', content: text }),
      this.chunk(id, { finishReason: 'stop', usage: this.reported }),
    ];
  }
}

/** DeepL translation offered as chat: the model names the target language. */
export const adaptor: Adaptor = {
  buildRequest,
  transport: sendToDeepl,
  convertResponse(call, body) {
    const text = translationOf(body);
    if (text instanceof RelayError) return text;
    return chatAnswer({
      id: `chatcmpl-${call.requestId}`,
      model: call.upstreamModel,
      text,
      finishReason: 'stop',
      usage: usageOf(call),
    });
  },
  streamTranslator: (call) => new DeeplStream(call),
  parseError: upstreamError,
};

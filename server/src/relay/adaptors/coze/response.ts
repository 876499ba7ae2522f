import { RelayError } from '../../errors';
import { answerObject } from '../answer-check';
import { chatAnswer, JsonStreamTranslator } from '../openai-format';
import type { ConvertedResponse, RelayCall } from '../types';
import { upstreamError } from '../upstream-error';
import type { CozeChatResponse, CozeStreamEvent } from './wire';

/** Coze answers its errors with a code and `msg`, on HTTP 200 as often as not; 4100 and 4101 refuse the token. */
export function cozeError(status: number, code: number | undefined, message: string | undefined): RelayError {
  const httpStatus = code === 4100 || code === 4101 ? 401 : status >= 400 ? status : 500;
  return RelayError.upstream(httpStatus, message || `Coze error ${code ?? 'without a code'}`, {
    code: code ?? null,
  });
}

export function parseError(status: number, body: Buffer): RelayError {
  const answer = answerObject<CozeChatResponse>(body);
  if (!(answer instanceof RelayError) && typeof answer.code === 'number' && answer.code !== 0) {
    return cozeError(status, answer.code, answer.msg);
  }
  return upstreamError(status, body);
}

/** The first `answer` message is the reply; Coze reports no usage, so the text is counted. */
export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<CozeChatResponse>(body);
  if (answer instanceof RelayError) return answer;
  if (typeof answer.code === 'number' && answer.code !== 0) return cozeError(200, answer.code, answer.msg);
  const reply = answer.messages?.find((message) => message.type === 'answer')?.content ?? '';
  return chatAnswer({
    id: `chatcmpl-${answer.conversation_id ?? call.requestId}`,
    model: call.upstreamModel,
    text: reply,
    finishReason: 'stop',
  });
}

/** Coze's events → OpenAI chunks: `answer` messages are text, `done` ends, `error` ends in an error. */
export class CozeStream extends JsonStreamTranslator<CozeStreamEvent> {
  protected translate(event: CozeStreamEvent): string[] {
    const id = `chatcmpl-${event.conversation_id ?? this.call.requestId}`;
    // Thrown: before any text the attempt fails unbilled; after some, the stream ends in the error.
    if (event.event === 'error') {
      const info = event.error_information;
      throw cozeError(200, info?.code, info?.msg);
    }
    if (event.event === 'done') {
      this.finished = true;
      return [this.chunk(id, { finishReason: 'stop' })];
    }
    if (event.message?.type !== 'answer') return [];
    return this.answerDelta(id, event.message.content ?? '', []);
  }
}

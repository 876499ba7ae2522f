import { RelayError } from '../../errors';
import { answerObject, missing } from '../answer-check';
import { chatCompletion, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall } from '../types';
import { upstreamError } from '../upstream-error';
import type { LibraryAnswer, LibraryDocument } from './wire';

/** The sources behind an answer, appended as a numbered Markdown list (as one-api words it). */
export function referencesOf(documents: LibraryDocument[] | undefined): string {
  if (!documents?.length) return '';
  const lines = documents.map(
    (document, index) => `${index + 1}. [${document.title ?? ''}](${document.url ?? ''})`,
  );
  return `\n\n参考文档：\n${lines.join('\n')}\n`;
}

/** An error answer: an HTTP-like errCode keeps its meaning, others take the HTTP status (500 inside a 200). */
function libraryError(answer: LibraryAnswer, httpStatus: number): RelayError {
  const code = answer.errCode ?? 0;
  const status = code >= 400 && code < 600 ? code : httpStatus;
  const type = status === 401 ? 'authentication_error' : 'upstream_error';
  return RelayError.upstream(status, answer.message || `AI Proxy library error ${code}`, { type, code });
}

/** Non-200 answers, and JSON errors answered to a stream request. */
export function parseError(status: number, body: Buffer): RelayError {
  try {
    const answer = JSON.parse(body.toString()) as LibraryAnswer;
    if (answer.errCode) return libraryError(answer, status);
  } catch {
    // not JSON: read leniently below
  }
  return upstreamError(status, body);
}

export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const answer = answerObject<LibraryAnswer>(body);
  if (answer instanceof RelayError) return answer;
  if (answer.errCode || answer.success === false) return libraryError(answer, 500);
  if (typeof answer.answer !== 'string') return missing('"answer"');
  const content = answer.answer + referencesOf(answer.documents);
  const completion = chatCompletion({
    id: `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    content,
    finishReason: 'stop',
  });
  // No usage is reported: the relay counts the tokens itself.
  return jsonAnswer(completion, content);
}

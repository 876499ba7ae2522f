import { badUpstreamAnswer, type RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { answerObject, badStreamEvent, missing } from '../answer-check';
import { withFieldAt } from '../native-body';
import type {
  NativeFormat,
  NativeReading,
  NativeRequest,
  NativeStreamReader,
  RelayCall,
  UpstreamRequest,
} from '../types';
import { authHeaders } from './auth';
import { endpointUrl } from './endpoint';
import { geminiError, googleStreamError, sseEvent } from './errors';
import { usageOf } from './response';
import type { GeminiChatResponse, GeminiUsageMetadata } from './wire';

/**
 * The client's body as it came (the model lives in the path), with the pipeline's max tokens when
 * it had to lower them for an account that cannot pay the worst case.
 */
function upstreamBody(call: RelayCall, native: NativeRequest): Buffer {
  const limit = numberOf(call.body?.max_tokens);
  const asked = numberOf(asObject(native.body.generationConfig)?.maxOutputTokens);
  if (limit === undefined || (asked !== undefined && limit >= asked)) return native.rawBody;
  return withFieldAt(native.rawBody, ['generationConfig', 'maxOutputTokens'], limit);
}

/**
 * `{base}/{version}/models/{upstream model}:generateContent`, or `:streamGenerateContent?alt=sse`
 * whatever framing the client asked for (the pipeline reads events; the front re-frames them).
 * The channel's key goes in x-goog-api-key: the client's own key never leaves the gateway.
 */
function buildRequest(call: RelayCall, native: NativeRequest): UpstreamRequest {
  return {
    url: endpointUrl(call),
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      ...authHeaders(call.apiKey),
    },
    body: upstreamBody(call, native),
  };
}

/** What a response adds to the generated text (thoughts and function calls too), counted when usage is missing. */
function responseText(response: GeminiChatResponse): string {
  let text = '';
  for (const candidate of response.candidates ?? []) {
    for (const part of candidate?.content?.parts ?? []) {
      if (typeof part.text === 'string') text += part.text;
      if (part.functionCall) text += part.functionCall.name + JSON.stringify(part.functionCall.args ?? {});
    }
  }
  return text;
}

function readAnswer(body: Buffer): NativeReading | RelayError {
  const answer = answerObject<GeminiChatResponse>(body);
  if (answer instanceof Error) return answer;
  if (answer.error) return geminiError(answer.error);
  // A prompt blocked before any candidate answers promptFeedback alone.
  if (!Array.isArray(answer.candidates) && !answer.promptFeedback) return missing('"candidates" list');
  return { usage: usageOf(answer.usageMetadata), text: responseText(answer) };
}

/** Gemini's `alt=sse` events: each a GenerateContentResponse whose usageMetadata is a running total. */
class GeminiEventReader implements NativeStreamReader {
  #usage: GeminiUsageMetadata | undefined;
  #text = '';
  #done = false;
  #failed = false;

  read(data: string): void {
    const event = answerObject<GeminiChatResponse>(data);
    if (event instanceof Error) throw badStreamEvent();
    if (event.error) {
      this.#failed = true;
      return;
    }
    if (!event.candidates && !event.usageMetadata && !event.promptFeedback) {
      throw badUpstreamAnswer('a stream event that is no GenerateContentResponse');
    }
    if (event.usageMetadata) this.#usage = event.usageMetadata;
    this.#text += responseText(event);
    const finished = event.candidates?.some((candidate) => candidate?.finishReason);
    if (finished || event.promptFeedback?.blockReason) this.#done = true;
  }

  usage = () => usageOf(this.#usage);
  text = () => this.#text;
  done = () => this.#done;
  failed = () => this.#failed;
}

/** Google's Gemini API as a native format: Gemini channels get the client's call untouched. */
export const geminiNative: NativeFormat = {
  // The apiStyle of Gemini channels (type 24).
  name: 'gemini',
  buildRequest,
  usage: { answer: readAnswer, stream: () => new GeminiEventReader() },
  // The same error element a translated stream ends with (GeminiStreamWriter).
  streamError: (error, requestId) => sseEvent(googleStreamError(error.body(requestId).error as Json)),
};

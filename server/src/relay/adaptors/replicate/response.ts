import { RelayError } from '../../errors';
import { answerObject } from '../answer-check';
import { chatAnswer, chatChunk, jsonAnswer } from '../openai-format';
import type { ConvertedResponse, RelayCall, StreamTranslator, Usage } from '../types';
import { upstreamError } from '../upstream-error';
import type { Prediction } from './wire';

/** Replicate's errors are problem details (`{title, detail, status}`); `detail` says what went wrong. */
export function parseError(status: number, body: Buffer): RelayError {
  const problem = answerObject<{ detail?: unknown; title?: unknown }>(body);
  if (!(problem instanceof RelayError) && typeof problem.detail === 'string' && problem.detail) {
    return RelayError.upstream(status, problem.detail, {
      code: typeof problem.title === 'string' ? problem.title : null,
    });
  }
  return upstreamError(status, body);
}

/** A language model's output is its generated pieces; joined, they are the answer. */
const outputText = (output: unknown): string =>
  Array.isArray(output)
    ? output.map((piece) => (typeof piece === 'string' ? piece : '')).join('')
    : String(output ?? '');

/** Replicate counts a language model's tokens in the prediction's metrics; else the text is counted. */
function usageOf(prediction: Prediction): Usage | undefined {
  const { input_token_count: prompt, output_token_count: completion } = prediction.metrics ?? {};
  return typeof prompt === 'number' && typeof completion === 'number'
    ? { prompt_tokens: prompt, completion_tokens: completion }
    : undefined;
}

function imagesAnswer(prediction: Prediction): ConvertedResponse {
  const urls = (Array.isArray(prediction.output) ? prediction.output : [prediction.output]).filter(
    (url): url is string => typeof url === 'string',
  );
  const data = prediction.images_b64
    ? prediction.images_b64.map((b64_json) => ({ b64_json }))
    : urls.map((url) => ({ url }));
  return jsonAnswer({ created: Math.floor(Date.now() / 1000), data }, '');
}

/** The finished prediction (the transport waited for it) → OpenAI's chat completion or images answer. */
export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const prediction = answerObject<Prediction>(body);
  if (prediction instanceof RelayError) return prediction;
  if (call.mode === 'images') return imagesAnswer(prediction);
  return chatAnswer({
    id: `chatcmpl-${prediction.id ?? call.requestId}`,
    model: call.upstreamModel,
    text: outputText(prediction.output),
    finishReason: 'stop',
    usage: usageOf(prediction),
  });
}

/**
 * Replicate's prediction stream: `output` events carry raw text (not JSON), `done` ends it (with a
 * reason when the prediction was canceled or failed), `error` carries the failure.
 */
export class ReplicateStream implements StreamTranslator {
  #text = '';
  #done = false;
  #sentRole = false;

  constructor(private readonly call: RelayCall) {}

  push(data: string, event?: string): string[] {
    const id = `chatcmpl-${this.call.requestId}`;
    const model = this.call.upstreamModel;
    if (event === 'output') {
      this.#text += data;
      const role = this.#sentRole ? undefined : ('assistant' as const);
      this.#sentRole = true;
      return [chatChunk({ id, model, role, content: data })];
    }
    // A failure ends the stream in an error (thrown: before any text it is a failed attempt, not billed).
    if (event === 'error') throw RelayError.upstream(500, `Replicate prediction failed: ${data}`);
    if (event === 'done') {
      const reason = answerObject<{ reason?: string }>(data);
      if (!(reason instanceof RelayError) && reason.reason) {
        throw RelayError.upstream(500, `Replicate prediction ended: ${reason.reason}`);
      }
      this.#done = true;
      return [chatChunk({ id, model, finishReason: 'stop' })];
    }
    return [];
  }

  usage(): Usage | undefined {
    return undefined;
  }

  text(): string {
    return this.#text;
  }

  done(): boolean {
    return this.#done;
  }
}

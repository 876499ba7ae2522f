import type { Json } from '../../json-value';
import type { ClientSink } from '../../pipeline/client-sink';
import type { ReplySink } from '../reply-sink';
import { type AnswerShape, openAiToGemini } from './response';
import { GeminiStreamWriter } from './stream';

/**
 * Wraps the caller's response: OpenAI answers from the pipeline leave in Gemini's format. A stream
 * leaves as `data:` events with `alt=sse`, else as one JSON array written piece by piece.
 */
export class GeminiSink implements ClientSink {
  readonly signal: AbortSignal;
  readonly #stream: GeminiStreamWriter;
  #pending = '';
  #elements = 0;

  constructor(
    private readonly inner: ReplySink,
    private readonly shape: AnswerShape,
    private readonly sse: boolean,
  ) {
    this.signal = inner.signal;
    this.#stream = new GeminiStreamWriter(shape);
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    let answer: Json;
    try {
      answer = JSON.parse(body.toString()) as Json;
    } catch {
      // Settled already: whatever it is, the client gets it rather than nothing.
      this.inner.body(status, contentType, body);
      return;
    }
    this.inner.json(status, openAiToGemini(answer, this.shape));
  }

  startStream(): void {
    this.inner.startStream(this.sse ? undefined : 'application/json; charset=utf-8');
  }

  /** Receives `data: {...}\n\n` frames (and keep-alive comments) and re-frames them. */
  write(data: string): void {
    this.#pending += data;
    let boundary = this.#pending.indexOf('\n\n');
    while (boundary !== -1) {
      const frame = this.#pending.slice(0, boundary);
      this.#pending = this.#pending.slice(boundary + 2);
      if (frame.startsWith('data: ')) this.#send(this.#stream.chunk(frame.slice(6)));
      // White space keeps a JSON array's connection alive as a comment keeps events'.
      else if (frame.startsWith(':')) this.inner.write(this.sse ? `${frame}\n\n` : '\n');
      boundary = this.#pending.indexOf('\n\n');
    }
  }

  end(): void {
    this.#send(this.#stream.finish());
    if (!this.sse) this.inner.write(this.#elements === 0 ? '[]' : ']');
    this.inner.end();
  }

  #send(responses: Json[]): void {
    let out = '';
    for (const response of responses) {
      const json = JSON.stringify(response);
      if (this.sse) out += `data: ${json}\r\n\r\n`;
      else out += `${this.#elements === 0 ? '[' : ',\r\n'}${json}`;
      this.#elements += 1;
    }
    if (out) this.inner.write(out);
  }
}

import { sseEvent } from '../../adaptors/gemini/errors';
import type { ClientSignal } from '../../client-signal';
import type { Json } from '../../json-value';
import type { ClientSink } from '../../pipeline/client-sink';
import { SseParser } from '../../pipeline/sse';
import { FrameSplitter } from '../frame-splitter';
import type { ReplySink } from '../reply-sink';
import { type AnswerShape, openAiToGemini } from './response';
import { GeminiStreamWriter } from './stream';

const JSON_ARRAY = 'application/json; charset=utf-8';

/** A stream without `alt=sse`: one JSON array, written element by element. */
class JsonArrayFraming {
  #elements = 0;

  element(json: string): string {
    const separator = this.#elements === 0 ? '[' : ',\r\n';
    this.#elements += 1;
    return separator + json;
  }

  close = (): string => (this.#elements === 0 ? '[]' : ']');
}

/**
 * Wraps the caller's response: OpenAI answers from the pipeline leave in Gemini's format. A stream
 * leaves as `data:` events with `alt=sse`, else as one JSON array written piece by piece.
 */
export class GeminiSink implements ClientSink {
  readonly signal: ClientSignal;
  /** Where a Gemini channel's own answer goes (pipeline/native.ts): as it came, or re-framed as an array. */
  readonly untranslated: ClientSink;
  readonly #stream: GeminiStreamWriter;
  readonly #array = new JsonArrayFraming();
  readonly #frames = new FrameSplitter();

  constructor(
    private readonly inner: ReplySink,
    private readonly shape: AnswerShape,
    private readonly sse: boolean,
  ) {
    this.signal = inner.signal;
    this.untranslated = sse ? inner : new SseToJsonArray(inner);
    this.#stream = new GeminiStreamWriter(shape);
  }

  setHeader(name: string, value: string): void {
    this.inner.setHeader(name, value);
  }

  body(status: number, contentType: string, body: string | Buffer, json?: Json): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    let answer: Json;
    try {
      answer = json ?? (JSON.parse(body.toString()) as Json);
    } catch {
      // Settled already: whatever it is, the client gets it rather than nothing.
      this.inner.body(status, contentType, body);
      return;
    }
    this.inner.json(status, openAiToGemini(answer, this.shape));
  }

  startStream(): void {
    this.inner.startStream(this.sse ? undefined : JSON_ARRAY);
  }

  /** Receives `data: {...}\n\n` frames (and keep-alive comments) and re-frames them. */
  write(data: string): void {
    this.#frames.push(
      data,
      (frame) => this.#send(this.#stream.chunk(frame)),
      // White space keeps a JSON array's connection alive as a comment keeps events'.
      (comment) => this.inner.write(this.sse ? `${comment}\n\n` : '\n'),
    );
  }

  end(): void {
    this.#send(this.#stream.finish());
    if (!this.sse) this.inner.write(this.#array.close());
    this.inner.end();
  }

  #send(responses: Json[]): void {
    let out = '';
    for (const response of responses) {
      out += this.sse ? sseEvent(response) : this.#array.element(JSON.stringify(response));
    }
    if (out) this.inner.write(out);
  }
}

/**
 * A Gemini channel's `alt=sse` stream for a client that asked for the JSON array: each event's JSON
 * leaves as it came, as the next element of the array (a whole answer leaves untouched).
 */
class SseToJsonArray implements ClientSink {
  readonly signal: ClientSignal;
  readonly #parser = new SseParser();
  readonly #array = new JsonArrayFraming();

  constructor(private readonly inner: ReplySink) {
    this.signal = inner.signal;
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    this.inner.body(status, contentType, body);
  }

  startStream(): void {
    this.inner.startStream(JSON_ARRAY);
  }

  write(data: string): void {
    // The pipeline's keep-alive comments come between events: white space keeps the array's connection.
    if (this.#parser.between() && data.startsWith(':')) {
      this.inner.write('\n');
      return;
    }
    const out = this.#parser
      .pushText(data)
      .map((event) => this.#array.element(event.data))
      .join('');
    if (out) this.inner.write(out);
  }

  end(): void {
    const rest = this.#parser
      .end()
      .map((event) => this.#array.element(event.data))
      .join('');
    this.inner.write(rest + this.#array.close());
    this.inner.end();
  }
}

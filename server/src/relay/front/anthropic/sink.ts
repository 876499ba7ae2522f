import type { ClientSink } from '../../pipeline/client-sink';
import { FrameSplitter } from '../frame-splitter';
import { openAiToAnthropic } from './response';
import { AnthropicStreamWriter } from './stream';

/** Wraps the caller's response: OpenAI answers from the pipeline leave in Anthropic's format. */
export class AnthropicSink implements ClientSink {
  readonly signal: AbortSignal;
  /** Where an Anthropic channel's own answer goes, as it came (pipeline/native.ts). */
  readonly untranslated: ClientSink;
  readonly #stream: AnthropicStreamWriter;
  readonly #frames = new FrameSplitter();

  constructor(
    private readonly inner: ClientSink,
    private readonly model: string,
    requestId: string,
  ) {
    this.signal = inner.signal;
    this.untranslated = inner;
    this.#stream = new AnthropicStreamWriter(model, `msg_${requestId}`);
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    const converted = openAiToAnthropic(JSON.parse(body.toString()) as Record<string, unknown>, this.model);
    this.inner.body(status, 'application/json', JSON.stringify(converted));
  }

  startStream(): void {
    this.inner.startStream();
  }

  /** Receives `data: {...}\n\n` frames (and keep-alive comments) and re-frames them. */
  write(data: string): void {
    this.#frames.push(
      data,
      (frame) => {
        const out = this.#stream.chunk(frame);
        if (out) this.inner.write(out);
      },
      (comment) => this.inner.write(`${comment}\n\n`),
    );
  }

  end(): void {
    const tail = this.#stream.finish();
    if (tail) this.inner.write(tail);
    this.inner.end();
  }
}

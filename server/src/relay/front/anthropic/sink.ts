import type { ClientSink } from '../../pipeline/client-sink';
import { openAiToAnthropic } from './response';
import { AnthropicStreamWriter } from './stream';

/** Wraps the caller's response: OpenAI answers from the pipeline leave in Anthropic's format. */
export class AnthropicSink implements ClientSink {
  readonly signal: AbortSignal;
  /** Where an Anthropic channel's own answer goes, as it came (pipeline/native.ts). */
  readonly untranslated: ClientSink;
  readonly #stream: AnthropicStreamWriter;
  #pending = '';

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
    this.#pending += data;
    let boundary = this.#pending.indexOf('\n\n');
    while (boundary !== -1) {
      const frame = this.#pending.slice(0, boundary);
      this.#pending = this.#pending.slice(boundary + 2);
      if (frame.startsWith('data: ')) {
        const out = this.#stream.chunk(frame.slice(6));
        if (out) this.inner.write(out);
      } else if (frame.startsWith(':')) {
        this.inner.write(`${frame}\n\n`);
      }
      boundary = this.#pending.indexOf('\n\n');
    }
  }

  end(): void {
    const tail = this.#stream.finish();
    if (tail) this.inner.write(tail);
    this.inner.end();
  }
}

import type { ClientSignal } from '../client-signal';
import type { Json } from '../json-value';
import type { ClientSink } from '../pipeline/client-sink';
import { FrameSplitter } from './frame-splitter';

/** Turns the pipeline's OpenAI stream payloads into a client format's stream text. */
export interface StreamRewriter {
  /** One `data:` payload (`[DONE]` included) → the text to send, '' for nothing yet. */
  chunk(payload: string): string;
  /** What closes the stream, when it ended without `[DONE]`. */
  finish(): string;
}

/**
 * Wraps the caller's response for a client of another format: a subclass converts a whole JSON
 * answer (`body`); streams are re-framed event by event through its StreamRewriter. A channel of the
 * client's own format answers into `untranslated` (pipeline/native.ts).
 */
export abstract class TranslatingSink implements ClientSink {
  readonly signal: ClientSignal;
  readonly untranslated: ClientSink;
  readonly #frames = new FrameSplitter();

  constructor(
    protected readonly inner: ClientSink,
    private readonly rewriter: StreamRewriter,
  ) {
    this.signal = inner.signal;
    this.untranslated = inner;
  }

  abstract body(status: number, contentType: string, body: string | Buffer, json?: Json): void;

  setHeader(name: string, value: string): void {
    this.inner.setHeader?.(name, value);
  }

  startStream(): void {
    this.inner.startStream();
  }

  /** Receives `data: {...}\n\n` frames (and keep-alive comments) and re-frames them. */
  write(data: string): void {
    this.#frames.push(
      data,
      (frame) => {
        const out = this.rewriter.chunk(frame);
        if (out) this.inner.write(out);
      },
      (comment) => this.inner.write(`${comment}\n\n`),
    );
  }

  end(): void {
    const tail = this.rewriter.finish();
    if (tail) this.inner.write(tail);
    this.inner.end();
  }
}

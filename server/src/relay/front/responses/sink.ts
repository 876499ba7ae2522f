import { badUpstreamAnswer } from '../../errors';
import { asObject } from '../../json-value';
import type { ClientSink } from '../../pipeline/client-sink';
import { FrameSplitter } from '../frame-splitter';
import { chatToResponse, type ResponseContext } from './response';
import { ResponsesStreamWriter } from './stream';

/** Wraps the caller's response: OpenAI chat answers from the pipeline leave as Responses API answers. */
export class ResponsesSink implements ClientSink {
  readonly signal: AbortSignal;
  /** Where an OpenAI or Azure channel's own Responses answer goes, as it came (pipeline/native.ts). */
  readonly untranslated: ClientSink;
  readonly #stream: ResponsesStreamWriter;
  readonly #frames = new FrameSplitter();

  constructor(
    private readonly inner: ClientSink,
    private readonly context: ResponseContext,
  ) {
    this.signal = inner.signal;
    this.untranslated = inner;
    this.#stream = new ResponsesStreamWriter(context);
  }

  body(status: number, contentType: string, body: string | Buffer): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    let completion: ReturnType<typeof asObject>;
    try {
      completion = asObject(JSON.parse(body.toString()));
    } catch {
      completion = undefined;
    }
    if (!completion) {
      const error = badUpstreamAnswer('not a JSON object');
      this.inner.body(error.status, 'application/json', JSON.stringify(error.body(this.context.requestId)));
      return;
    }
    this.inner.body(status, 'application/json', JSON.stringify(chatToResponse(completion, this.context)));
  }

  startStream(): void {
    this.inner.startStream();
  }

  /** Receives `data: {...}\n\n` frames (and keep-alive comments) and re-frames them as typed events. */
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

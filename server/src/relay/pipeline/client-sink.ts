import type { ClientSignal } from '../client-signal';
import type { Json } from '../json-value';

/** Where a relayed answer goes: the caller's HTTP response, or a buffer for channel tests. */
export interface ClientSink {
  /** Aborted when the client goes away: the upstream call is cancelled with it. */
  readonly signal: ClientSignal;
  /**
   * Set by a sink that translates answers into the client's format: the client's own response
   * beneath it, where an answer passed through in that format goes (native.ts).
   */
  readonly untranslated?: ClientSink;
  /** Sets a header every answer to the caller carries, errors included (the key's rate limits). */
  setHeader?(name: string, value: string): void;
  /** `json` is `body` parsed, when the pipeline has it (a translating sink then does not parse it). */
  body(status: number, contentType: string, body: string | Buffer, json?: Json): void;
  startStream(): void;
  write(data: string): void;
  end(): void;
}

/** A sink that keeps the answer in memory (channel tests). */
export class BufferSink implements ClientSink {
  readonly signal = new AbortController().signal;
  status = 0;
  chunks: string[] = [];

  body(status: number, _contentType: string, body: string | Buffer): void {
    this.status = status;
    this.chunks.push(body.toString());
  }

  startStream(): void {
    this.status = 200;
  }

  write(data: string): void {
    this.chunks.push(data);
  }

  end(): void {}

  text(): string {
    return this.chunks.join('');
  }
}

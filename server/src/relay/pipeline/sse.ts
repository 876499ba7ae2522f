import { createParser, type EventSourceParser } from 'eventsource-parser';
import { upstreamAnswerTooLarge } from '../errors';

export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Text that ends with a blank line: whatever came before it has been dispatched. A last lone CR does not
 * count: the parser waits to see whether an LF follows it.
 */
const ENDS_AN_EVENT = /(?:\r\n|\r|\n)(?:\r\n|\n)$/;

/**
 * Splits a byte stream into server-sent events (eventsource-parser: measured faster than the
 * hand-written parser it replaced, see docs/decisions.md). An event that grows beyond `limitChars`
 * before it is complete is refused (upstream_answer_too_large).
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  #events: SseEvent[] = [];
  #tooLarge = false;
  /** The last characters fed: whether they end with a blank line tells if anything is pending. */
  #tail = '\n\n';

  constructor(private readonly limitChars = Number.POSITIVE_INFINITY) {
    this.#parser = createParser({
      onEvent: ({ event, data }) => {
        this.#events.push({ event, data });
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.#tooLarge = true;
      },
      maxBufferSize: Number.isFinite(limitChars) ? limitChars : undefined,
    });
  }

  /** Feeds bytes; answers the complete events they finish. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.pushText(this.decode(chunk));
  }

  /**
   * Bytes as text: a character split between chunks comes whole with the later one, so the texts of
   * all chunks joined are the stream's text exactly.
   */
  decode(chunk: Uint8Array): string {
    return this.#decoder.decode(chunk, { stream: true });
  }

  /** Feeds text from `decode`; answers the complete events it finishes. */
  pushText(decoded: string): SseEvent[] {
    if (decoded === '') return [];
    this.#parser.feed(decoded);
    if (this.#tooLarge) throw upstreamAnswerTooLarge(this.limitChars);
    this.#tail = (this.#tail + decoded).slice(-4);
    return this.#take();
  }

  /** True between events: nothing of a line or an event is pending (a comment may go out here). */
  between(): boolean {
    return ENDS_AN_EVENT.test(this.#tail);
  }

  /** The last event, when the stream ends without a blank line. */
  end(): SseEvent[] {
    this.#parser.feed(`${this.#decoder.decode()}\n\n`);
    this.#tail = '\n\n';
    return this.#take();
  }

  #take(): SseEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }
}

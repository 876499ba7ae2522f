import { upstreamAnswerTooLarge } from '../errors';

export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Splits a byte stream into server-sent events (`event:` and `data:` lines, blank-line separated).
 * An event that grows beyond `limitChars` before it is complete is refused (upstream_answer_too_large).
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  /** The start of a line whose end has not arrived yet. */
  #partial = '';
  #event: string | undefined;
  #data: string[] = [];
  #dataChars = 0;

  constructor(private readonly limitChars = Number.POSITIVE_INFINITY) {}

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
    // No line ends here: the pending line grows, and is not scanned again (a long line stays linear).
    if (decoded.indexOf('\n') === -1) {
      this.#partial += decoded;
      this.#checkSize();
      return [];
    }
    const text = this.#partial + decoded;
    const events: SseEvent[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      this.#line(text.slice(start, end), events);
      start = newline + 1;
    }
    this.#partial = start === 0 ? text : text.slice(start);
    if (this.#partial.length + this.#dataChars > this.limitChars)
      throw upstreamAnswerTooLarge(this.limitChars);
    return events;
  }

  #checkSize(): void {
    if (this.#partial.length + this.#dataChars > this.limitChars)
      throw upstreamAnswerTooLarge(this.limitChars);
  }

  /** True between events: nothing of a line or an event is pending (a comment may go out here). */
  between(): boolean {
    return this.#partial === '' && this.#data.length === 0 && this.#event === undefined;
  }

  /** The last event, when the stream ends without a blank line. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = this.#partial + this.#decoder.decode();
    if (rest) this.#line(rest.endsWith('\r') ? rest.slice(0, -1) : rest, events);
    this.#partial = '';
    this.#line('', events);
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.#data.length > 0) {
        const data = this.#data.length === 1 ? (this.#data[0] as string) : this.#data.join('\n');
        events.push({ event: this.#event, data });
      }
      this.#data = [];
      this.#dataChars = 0;
      this.#event = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' comment */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.#data.push(value);
      this.#dataChars += value.length;
    } else if (field === 'event') this.#event = value;
  }
}

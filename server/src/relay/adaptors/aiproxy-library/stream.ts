import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { referencesOf } from './response';
import type { LibraryDocument, LibraryStreamEvent } from './wire';

/** Library stream events (`data: {content, finish, documents}`) → OpenAI chunks, the sources last. */
export class LibraryStream extends JsonStreamTranslator implements StreamTranslator {
  #documents: LibraryDocument[] = [];
  #sentRole = false;

  constructor(private readonly call: RelayCall) {
    super();
  }

  push(data: string): string[] {
    if (data === '[DONE]') return this.#finish();
    let event: LibraryStreamEvent;
    try {
      event = JSON.parse(data) as LibraryStreamEvent;
    } catch {
      return [];
    }
    if (event.documents?.length) this.#documents = event.documents;
    const chunks: string[] = [];
    if (event.content) {
      chunks.push(this.#chunk(event.content));
      this.generated += event.content;
    }
    if (event.finish) chunks.push(...this.#finish());
    return chunks;
  }

  #chunk(content: string): string {
    const role = this.#sentRole ? undefined : ('assistant' as const);
    this.#sentRole = true;
    return chatChunk({
      id: `chatcmpl-${this.call.requestId}`,
      model: this.call.upstreamModel,
      role,
      content,
    });
  }

  #finish(): string[] {
    if (this.finished) return [];
    this.finished = true;
    const references = referencesOf(this.#documents);
    this.generated += references;
    const chunks = references ? [this.#chunk(references)] : [];
    chunks.push(
      chatChunk({
        id: `chatcmpl-${this.call.requestId}`,
        model: this.call.upstreamModel,
        finishReason: 'stop',
      }),
    );
    return chunks;
  }
}

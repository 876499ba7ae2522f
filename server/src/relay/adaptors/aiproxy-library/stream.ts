import { JsonStreamTranslator } from '../openai-format';
import type { RelayCall } from '../types';
import { referencesOf } from './response';
import type { LibraryDocument, LibraryStreamEvent } from './wire';

/** Library stream events (`data: {content, finish, documents}`) → OpenAI chunks, the sources last. */
export class LibraryStream extends JsonStreamTranslator<LibraryStreamEvent, RelayCall> {
  #documents: LibraryDocument[] = [];

  override push(data: string): string[] {
    if (data === '[DONE]') return this.#finish();
    return super.push(data);
  }

  protected translate(event: LibraryStreamEvent): string[] {
    if (event.documents?.length) this.#documents = event.documents;
    const chunks: string[] = [];
    if (event.content) {
      chunks.push(this.assistantChunk(this.#id, { content: event.content }));
      this.generated += event.content;
    }
    if (event.finish) chunks.push(...this.#finish());
    return chunks;
  }

  get #id(): string {
    return `chatcmpl-${this.call.requestId}`;
  }

  #finish(): string[] {
    if (this.finished) return [];
    this.finished = true;
    const references = referencesOf(this.#documents);
    this.generated += references;
    const chunks = references ? [this.assistantChunk(this.#id, { content: references })] : [];
    chunks.push(this.chunk(this.#id, { finishReason: 'stop' }));
    return chunks;
  }
}

import { RelayError } from '../../errors';
import { chatChunk, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator } from '../types';
import { palmAnswer } from './response';

/** The single event the transport makes of PaLM's whole answer → a text chunk and a finish chunk. */
export class PalmStream extends JsonStreamTranslator implements StreamTranslator {
  constructor(private readonly call: Pick<RelayCall, 'requestId' | 'upstreamModel'>) {
    super();
  }

  push(data: string): string[] {
    this.finished = true;
    const answer = palmAnswer(data);
    if (answer instanceof RelayError) return [JSON.stringify(answer.body(this.call.requestId))];
    this.generated += answer.text;
    const base = { id: `chatcmpl-${this.call.requestId}`, model: this.call.upstreamModel };
    return [
      chatChunk({ ...base, role: 'assistant', content: answer.text }),
      chatChunk({ ...base, finishReason: answer.finishReason }),
    ];
  }
}

import { RelayError } from '../../errors';
import { JsonStreamTranslator } from '../openai-format';
import { palmAnswer } from './response';

/** The single event the transport makes of PaLM's whole answer → a text chunk and a finish chunk. */
export class PalmStream extends JsonStreamTranslator<never> {
  /** PaLM's answer is read whole, not as JSON events. */
  override push(data: string): string[] {
    this.finished = true;
    const answer = palmAnswer(data);
    if (answer instanceof RelayError) return [JSON.stringify(answer.body(this.call.requestId))];
    this.generated += answer.text;
    const id = `chatcmpl-${this.call.requestId}`;
    return [
      this.chunk(id, { role: 'assistant', content: answer.text }),
      this.chunk(id, { finishReason: answer.finishReason }),
    ];
  }

  protected translate(): string[] {
    return [];
  }
}

import type { Json } from '../../json-value';
import type { ClientSink } from '../../pipeline/client-sink';
import { TranslatingSink } from '../translating-sink';
import { openAiToAnthropic } from './response';
import { AnthropicStreamWriter } from './stream';

/** Wraps the caller's response: OpenAI answers from the pipeline leave in Anthropic's format. */
export class AnthropicSink extends TranslatingSink {
  constructor(
    inner: ClientSink,
    private readonly model: string,
    requestId: string,
  ) {
    super(inner, new AnthropicStreamWriter(model, `msg_${requestId}`));
  }

  body(status: number, contentType: string, body: string | Buffer, json?: Json): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    const answer = json ?? (JSON.parse(body.toString()) as Json);
    const converted = openAiToAnthropic(answer, this.model);
    this.inner.body(status, 'application/json', JSON.stringify(converted));
  }
}

import { badUpstreamAnswer } from '../../errors';
import { asObject, type Json } from '../../json-value';
import type { ClientSink } from '../../pipeline/client-sink';
import { TranslatingSink } from '../translating-sink';
import { chatToResponse, type ResponseContext } from './response';
import { ResponsesStreamWriter } from './stream';

/** Wraps the caller's response: OpenAI chat answers from the pipeline leave as Responses API answers. */
export class ResponsesSink extends TranslatingSink {
  constructor(
    inner: ClientSink,
    private readonly context: ResponseContext,
  ) {
    super(inner, new ResponsesStreamWriter(context));
  }

  body(status: number, contentType: string, body: string | Buffer, json?: Json): void {
    if (!contentType.includes('json')) {
      this.inner.body(status, contentType, body);
      return;
    }
    let completion: Json | undefined = json;
    try {
      completion ??= asObject(JSON.parse(body.toString()));
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
}

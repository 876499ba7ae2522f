import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeCohereOptions {
  key: string;
  reply?: string;
  /** meta.billed_units */
  billed?: { input_tokens: number; output_tokens: number };
}

/** Cohere's v1 /chat: a JSON answer, or one JSON event a line (application/stream+json). */
export function cohereHandler(options: FakeCohereOptions): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake Cohere';
  const billed = options.billed ?? { input_tokens: 12, output_tokens: 5 };
  return (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat')
      return sendJson(res, 404, { message: 'not found' });
    if (request.headers.authorization !== `Bearer ${options.key}`) {
      return sendJson(res, 401, { message: `invalid api token: ${String(request.headers.authorization)}` });
    }
    const body = request.json ?? {};
    const response = {
      response_id: 'resp-1',
      text: reply,
      generation_id: 'gen-1',
      finish_reason: 'COMPLETE',
      // `tokens` counts Cohere's own prompt template too; billed_units is what Cohere charges.
      meta: {
        billed_units: billed,
        tokens: { input_tokens: billed.input_tokens + 70, output_tokens: billed.output_tokens },
      },
    };
    if (body.stream !== true) return sendJson(res, 200, response);
    res.writeHead(200, { 'content-type': 'application/stream+json' });
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    res.write(line({ is_finished: false, event_type: 'stream-start', generation_id: 'gen-1' }));
    if (Array.isArray(body.connectors)) {
      res.write(line({ is_finished: false, event_type: 'search-queries-generation', search_queries: [] }));
    }
    for (const [index, word] of reply.split(' ').entries()) {
      const text = line({
        is_finished: false,
        event_type: 'text-generation',
        text: index ? ` ${word}` : word,
      });
      // A line cut across writes: the gateway must join it.
      res.write(text.slice(0, 7));
      res.write(text.slice(7));
    }
    res.end(line({ is_finished: true, event_type: 'stream-end', finish_reason: 'COMPLETE', response }));
  };
}

import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeCozeOptions {
  /** The personal access token the fake accepts (Bearer). */
  token: string;
  reply?: string;
  /** Answer every call with this business error (HTTP 200, as Coze does). */
  error?: { code: number; msg: string };
  /** Streams only: an error event after the first piece. */
  streamError?: { code: number; msg: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Coze's chat API v2: JSON answers with `messages`, or `data:{json}` events (message, done). */
export function cozeHandler(options: FakeCozeOptions): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake Coze bot';
  return async (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/open_api/v2/chat') {
      return sendJson(res, 404, { code: 4004, msg: 'not found' });
    }
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      const sent = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      return sendJson(res, 200, { code: 4100, msg: `authentication is invalid: token ${sent} is not known` });
    }
    if (options.error) return sendJson(res, 200, options.error);
    const body = request.json ?? {};
    const conversation = 'conv-7';
    const answer = (content: string) => ({
      role: 'assistant',
      type: 'answer',
      content,
      content_type: 'text',
    });
    if (body.stream !== true) {
      return sendJson(res, 200, {
        conversation_id: conversation,
        code: 0,
        msg: 'success',
        messages: [
          {
            role: 'assistant',
            type: 'verbose',
            content: '{"msg_type":"generate_answer_finish"}',
            content_type: 'text',
          },
          answer(reply),
          { role: 'assistant', type: 'follow_up', content: 'Anything else?', content_type: 'text' },
        ],
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const event = (value: unknown) => res.write(`data:${JSON.stringify(value)}\n\n`);
    for (const [index, word] of reply.split(' ').entries()) {
      event({
        event: 'message',
        message: answer(index ? ` ${word}` : word),
        is_finish: false,
        index: 0,
        conversation_id: conversation,
      });
      await sleep(2);
      if (options.streamError) {
        event({ event: 'error', error_information: options.streamError, conversation_id: conversation });
        res.end();
        return;
      }
    }
    event({
      event: 'message',
      message: { role: 'assistant', type: 'follow_up', content: 'Anything else?', content_type: 'text' },
      is_finish: false,
      index: 1,
      conversation_id: conversation,
    });
    event({ event: 'done' });
    res.end();
  };
}

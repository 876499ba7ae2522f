import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeOllamaOptions {
  reply?: string;
  promptEvalCount?: number;
  evalCount?: number;
  /** The key a proxy in front of Ollama would demand; undefined accepts anything. */
  requiredKey?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ollama's native /api/chat (JSON or NDJSON stream) and /api/embed. */
export function ollamaHandler(options: FakeOllamaOptions = {}): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake Ollama';
  const counts = { prompt_eval_count: options.promptEvalCount ?? 13, eval_count: options.evalCount ?? 9 };
  return async (request: RecordedRequest, res: http.ServerResponse) => {
    if (options.requiredKey && request.headers.authorization !== `Bearer ${options.requiredKey}`) {
      sendJson(res, 401, { error: 'unauthorized' });
      return;
    }
    const body = request.json ?? {};
    const model = String(body.model ?? '');
    if (request.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });
    if (model === 'missing:latest') {
      return sendJson(res, 404, { error: `model "${model}" not found, try pulling it first` });
    }
    if (request.url === '/api/embed') {
      const input = Array.isArray(body.input) ? body.input : [];
      return sendJson(res, 200, {
        model,
        embeddings: input.map((_, index) => [index, 0.5, -0.25]),
        prompt_eval_count: 6,
      });
    }
    if (request.url !== '/api/chat') return sendJson(res, 404, { error: 'not found' });
    const done = { model, done: true, done_reason: 'stop', ...counts };
    if (body.stream === false) {
      sendJson(res, 200, { ...done, message: { role: 'assistant', content: reply } });
      return;
    }
    // Ollama streams unless told not to: one JSON object per line.
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const [index, word] of reply.split(' ').entries()) {
      const line = JSON.stringify({
        model,
        message: { role: 'assistant', content: index ? ` ${word}` : word },
        done: false,
      });
      // Lines cut across writes: the gateway must join them.
      res.write(line.slice(0, 10));
      await sleep(5);
      res.write(`${line.slice(10)}\n`);
    }
    res.end(`${JSON.stringify({ ...done, message: { role: 'assistant', content: '' } })}\n`);
  };
}

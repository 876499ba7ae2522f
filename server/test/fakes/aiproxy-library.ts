import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeLibraryOptions {
  key: string;
  answer?: string;
  documents?: Array<{ title: string; url: string }>;
}

/** AI Proxy's POST /api/library/ask: a JSON answer, or SSE events of content, the last with `finish`. */
export function libraryHandler(options: FakeLibraryOptions): FakeHandler {
  const answer = options.answer ?? 'The library knows';
  const documents = options.documents ?? [{ title: 'Guide', url: 'https://docs.example.com/guide' }];
  return (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/api/library/ask') {
      return sendJson(res, 404, { success: false, errCode: 404, message: 'no such route' });
    }
    if (request.headers.authorization !== `Bearer ${options.key}`) {
      return sendJson(res, 401, { success: false, errCode: 401, message: 'invalid api key' });
    }
    const body = request.json ?? {};
    if (body.libraryId !== 'lib-42') {
      return sendJson(res, 200, { success: false, errCode: 1004, message: 'library not found' });
    }
    if (body.stream !== true) return sendJson(res, 200, { success: true, answer, documents });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [index, word] of answer.split(' ').entries()) {
      res.write(
        `data: ${JSON.stringify({ content: index ? ` ${word}` : word, model: body.model, finish: false })}\n\n`,
      );
    }
    res.end(`data: ${JSON.stringify({ content: '', model: body.model, finish: true, documents })}\n\n`);
  };
}

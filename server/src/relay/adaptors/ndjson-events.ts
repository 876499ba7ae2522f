import type { ClientSignal } from '../client-signal';
import { upstreamAnswerTooLarge } from '../errors';
import type { UpstreamClient, UpstreamResponse } from '../upstream';
import type { UpstreamRequest } from './types';

/** Each newline-delimited JSON line becomes one SSE event, so the relay's SSE pipeline reads NDJSON streams. */
async function* ndjsonAsServerSentEvents(
  body: AsyncIterable<Uint8Array>,
  limitChars: number,
): AsyncIterable<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    buffer += text;
    // No line ends here: the pending line grows, and is not split again (a long line stays linear).
    if (text.indexOf('\n') === -1) {
      if (buffer.length > limitChars) throw upstreamAnswerTooLarge(limitChars);
      continue;
    }
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    if (buffer.length > limitChars) throw upstreamAnswerTooLarge(limitChars);
    const events = lines.filter((line) => line.trim() !== '').map((line) => `data: ${line.trim()}\n\n`);
    if (events.length > 0) yield Buffer.from(events.join(''));
  }
  buffer += decoder.decode();
  if (buffer.trim() !== '') yield Buffer.from(`data: ${buffer.trim()}\n\n`);
}

/** Plain HTTP; a successful stream is re-framed from NDJSON to SSE, anything else is answered as it came. */
export async function sendNdjsonStream(
  request: UpstreamRequest,
  isStream: boolean,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const response = await http.send(request, signal);
  if (!isStream || response.status !== 200 || response.contentType.startsWith('application/json')) {
    return response;
  }
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: ndjsonAsServerSentEvents(response.body, http.answerLimitBytes()),
  };
}

import type { ClientSignal } from '../../client-signal';
import { upstreamAnswerTooLarge } from '../../errors';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import type { RelayCall, UpstreamRequest } from '../types';
import { usesV3 } from './request';
import type { ZhipuV3Event, ZhipuV3StreamMeta } from './wire';

function parseMeta(text: string): ZhipuV3StreamMeta | undefined {
  try {
    return JSON.parse(text) as ZhipuV3StreamMeta;
  } catch {
    return undefined;
  }
}

/**
 * One v3 event block (`event:`, `id:`, `data:` lines, and for `finish` a `meta:` line) → one standard
 * SSE event whose data is JSON, so the relay's SSE reader (which knows only `event` and `data`) keeps
 * the meta. Data lines are taken as they are after `data:` (Zhipu puts no space there) and joined by
 * newlines, as a multi-line text arrives.
 */
function reframe(block: string): string {
  let name = 'add';
  const data: string[] = [];
  let meta: ZhipuV3StreamMeta | undefined;
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (field === 'event') name = value.trim();
    else if (field === 'data') data.push(value);
    else if (field === 'meta') meta = parseMeta(value.trim());
  }
  if (data.length === 0 && !meta) return '';
  const event: ZhipuV3Event = { data: data.join('\n'), ...(meta ? { meta } : {}) };
  return `event: ${name}\ndata: ${JSON.stringify(event)}\n\n`;
}

async function* asServerSentEvents(
  body: AsyncIterable<Uint8Array>,
  limitChars: number,
): AsyncIterable<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    const from = Math.max(0, buffer.length - 1);
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    // No block ends here: the pending one grows, and is not split again (a long block stays linear).
    if (buffer.indexOf('\n\n', from) === -1) {
      if (buffer.length > limitChars) throw upstreamAnswerTooLarge(limitChars);
      continue;
    }
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    const events = blocks.map(reframe).join('');
    if (events) yield Buffer.from(events);
  }
  buffer += decoder.decode();
  const last = reframe(buffer.replace(/\r\n?/g, '\n'));
  if (last) yield Buffer.from(last);
}

/**
 * Plain HTTP. Only a successful v3 stream is re-framed (see `reframe`); v4 streams are standard SSE
 * and every other answer is handed on as it came.
 */
export async function sendToZhipu(
  request: UpstreamRequest,
  call: RelayCall,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const response = await http.send(request, signal);
  if (
    !call.isStream ||
    !usesV3(call) ||
    response.status !== 200 ||
    response.contentType.startsWith('application/json')
  ) {
    return response;
  }
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: asServerSentEvents(response.body, http.answerLimitBytes()),
  };
}

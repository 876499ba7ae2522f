import type { ClientSignal } from '../../client-signal';
import { RelayError, upstreamAnswerTooLarge, upstreamBroke } from '../../errors';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import { answerObject } from '../answer-check';
import type { UpstreamRequest } from '../types';
import { statusOfCode } from './errors';
import { FrameReader, openSocket } from './socket';
import { LAST_FRAME, type SparkFrame, type SparkTextItem } from './wire';

const parse = (frame: string): SparkFrame => {
  try {
    return JSON.parse(frame) as SparkFrame;
  } catch {
    return {};
  }
};

const isLast = (frame: SparkFrame) =>
  frame.header?.status === LAST_FRAME || frame.payload?.choices?.status === LAST_FRAME;

const failed = (frame: SparkFrame) => (frame.header?.code ?? 0) !== 0;

async function* asBody(content: string | Buffer): AsyncIterable<Uint8Array> {
  yield Buffer.from(content);
}

const errorResponse = (frame: SparkFrame, raw: string): UpstreamResponse => ({
  status: statusOfCode(frame.header?.code ?? 0),
  contentType: 'application/json',
  body: asBody(raw),
});

const closedEarly = (): UpstreamResponse => ({
  status: 502,
  contentType: 'application/json',
  body: asBody(JSON.stringify({ message: 'The Spark connection closed before an answer' })),
});

/** The socket closed (or went silent) before the last frame: the answer is not whole. */
const closedBeforeLast = () => upstreamBroke(new Error('the Spark connection closed before the last frame'));

/** Every frame up to the last one, as SSE events for the relay's stream pipeline. */
async function* asServerSentEvents(first: string, frames: FrameReader): AsyncIterable<Uint8Array> {
  try {
    let raw: string | undefined = first;
    while (raw !== undefined) {
      yield Buffer.from(`data: ${raw}\n\n`);
      if (isLast(parse(raw))) return;
      raw = await frames.next();
    }
    throw closedBeforeLast();
  } finally {
    frames.close();
  }
}

/**
 * The whole answer as one frame: the texts joined, function calls and usage from the frames that had
 * them; refused once the texts grow beyond `limit` (RELAY_ANSWER_LIMIT).
 */
async function collect(first: string, frames: FrameReader, limit: number): Promise<UpstreamResponse> {
  let content = '';
  let functionCall: SparkTextItem['function_call'];
  let last: SparkFrame = {};
  try {
    for (let raw: string | undefined = first; ; raw = await frames.next()) {
      if (raw === undefined) throw closedBeforeLast();
      const frame = answerObject<SparkFrame>(raw);
      if (frame instanceof RelayError) throw frame;
      if (failed(frame)) return errorResponse(frame, raw);
      for (const item of frame.payload?.choices?.text ?? []) {
        content += item.content ?? '';
        functionCall = item.function_call ?? functionCall;
      }
      if (content.length > limit) throw upstreamAnswerTooLarge(limit);
      last = frame;
      if (isLast(frame)) break;
    }
  } finally {
    frames.close();
  }
  const merged: SparkFrame = {
    header: last.header,
    payload: {
      choices: { status: LAST_FRAME, text: [{ role: 'assistant', content, function_call: functionCall }] },
      usage: last.payload?.usage,
    },
  };
  return { status: 200, contentType: 'application/json', body: asBody(JSON.stringify(merged)) };
}

/** Spark speaks WebSocket: send the one request frame, then read answer frames until the last. */
export async function sparkTransport(
  request: UpstreamRequest,
  isStream: boolean,
  signal: ClientSignal,
  http: Pick<UpstreamClient, 'silenceLimitMs' | 'answerLimitBytes'>,
): Promise<UpstreamResponse> {
  const limit = http.answerLimitBytes();
  const handshake = await openSocket(request.url, signal, limit);
  if (!handshake.ok) return { ...handshake, body: asBody(handshake.body) };
  const frames = new FrameReader(handshake.socket, signal, http.silenceLimitMs());
  handshake.socket.send(String(request.body ?? ''));
  const first = await frames.next();
  if (first === undefined) return closedEarly();
  const firstFrame = parse(first);
  if (failed(firstFrame)) {
    frames.close();
    return errorResponse(firstFrame, first);
  }
  if (!isStream) return collect(first, frames, limit);
  return { status: 200, contentType: 'text/event-stream', body: asServerSentEvents(first, frames) };
}

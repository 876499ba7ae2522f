import type { EventStreamCodec } from '@smithy/eventstream-codec';
import { onFirstUse } from '../../../on-first-use';
import { badUpstreamAnswer, RelayError } from '../../errors';

const eventCodec = onFirstUse(async () => {
  const [{ EventStreamCodec }, { fromUtf8, toUtf8 }] = await Promise.all([
    import('@smithy/eventstream-codec'),
    import('@smithy/util-utf8'),
  ]);
  return new EventStreamCodec(toUtf8, fromUtf8);
});

const utf8 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** The prelude's first field: the whole message's length (big-endian), CRCs included. */
const LENGTH_BYTES = 4;
/** A message is at least its prelude (12) and trailing CRC (4); more than this is not Bedrock's. */
const MIN_MESSAGE = 16;
const MAX_MESSAGE = 16 * 1024 * 1024;

const headerText = (headers: Record<string, { value: unknown }>, name: string) => {
  const value = headers[name]?.value;
  return typeof value === 'string' ? value : '';
};

/** One model event as an SSE event: Anthropic's carry their type as the event name. */
function sseEvent(json: string): string {
  let name = '';
  try {
    const type = (JSON.parse(json) as { type?: unknown }).type;
    if (typeof type === 'string') name = `event: ${type}\n`;
  } catch {
    // not JSON: the translator says so
  }
  return `${name}data: ${json}\n\n`;
}

/** An exception message → an error event in Anthropic's stream shape, which both families' translators read. */
function exceptionEvent(type: string, body: Uint8Array): string {
  let message = type;
  try {
    const parsed = JSON.parse(utf8(body)) as { message?: unknown; Message?: unknown };
    const text = parsed.message ?? parsed.Message;
    if (typeof text === 'string' && text) message = text;
  } catch {
    // no JSON body: the exception's type says it
  }
  return sseEvent(JSON.stringify({ type: 'error', error: { type, message } }));
}

/** One decoded message → its SSE event; a chunk's payload is `{"bytes": base64 of one model event}`. */
function toSse(codec: EventStreamCodec, frame: Uint8Array): string {
  const { headers, body } = codec.decode(frame);
  const kind = headerText(headers, ':message-type');
  if (kind === 'exception' || kind === 'error') {
    return exceptionEvent(
      headerText(headers, ':exception-type') || headerText(headers, ':error-code') || 'error',
      body,
    );
  }
  if (headerText(headers, ':event-type') !== 'chunk') return '';
  const payload = JSON.parse(utf8(body)) as { bytes?: unknown };
  if (typeof payload.bytes !== 'string') throw badUpstreamAnswer('an event-stream chunk without bytes');
  return sseEvent(Buffer.from(payload.bytes, 'base64').toString('utf8'));
}

/**
 * AWS's binary event stream (`application/vnd.amazon.eventstream`) → SSE events, one per message.
 * A frame that fails its checksum or does not parse ends the stream as a bad answer.
 */
export async function* eventStreamAsSse(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const codec = await eventCodec();
  // Chunks are joined only once the frame they belong to is whole: a large frame stays linear.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let needed = LENGTH_BYTES;
  for await (const chunk of body) {
    pending.push(Buffer.from(chunk));
    pendingBytes += chunk.length;
    if (pendingBytes < needed) continue;
    let buffered = Buffer.concat(pending, pendingBytes);
    let out = '';
    while (buffered.length >= LENGTH_BYTES) {
      const length = buffered.readUInt32BE(0);
      if (length < MIN_MESSAGE || length > MAX_MESSAGE)
        throw badUpstreamAnswer('a malformed event-stream frame');
      if (buffered.length < length) break;
      try {
        out += toSse(codec, buffered.subarray(0, length));
      } catch (error) {
        throw error instanceof RelayError ? error : badUpstreamAnswer('a malformed event-stream frame');
      }
      buffered = buffered.subarray(length);
    }
    pending = buffered.length > 0 ? [buffered] : [];
    pendingBytes = buffered.length;
    needed = buffered.length >= LENGTH_BYTES ? buffered.readUInt32BE(0) : LENGTH_BYTES;
    if (out) yield Buffer.from(out);
  }
  if (pendingBytes > 0) throw badUpstreamAnswer('an event stream cut inside a frame');
}

import type { UpstreamResponse } from '../upstream';

/** A body that arrives in one piece: an answer the gateway made up or read whole, handed on as a response body. */
export async function* wholeBody(bytes: Buffer | string): AsyncIterable<Uint8Array> {
  yield Buffer.from(bytes);
}

/** A JSON answer read whole, handed to the stream pipeline as one SSE event (providers that do not stream). */
export function asOneEventStream(body: Buffer): UpstreamResponse {
  const event = `data: ${body.toString().replace(/\r?\n/g, ' ').trim()}\n\n`;
  return { status: 200, contentType: 'text/event-stream', body: wholeBody(event) };
}

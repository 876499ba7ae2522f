import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import { ClientGone } from '../../client-signal';
import type { UpstreamResponse } from '../../upstream';
import { CORS_HEADERS } from '../reply-sink';

/** Raised when the caller's connection closes before its answer was written (its upstream calls end with it). */
export function clientSignalOf(reply: FastifyReply): ClientGone {
  const signal = new ClientGone();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) signal.abort();
  });
  return signal;
}

/**
 * A video's bytes passed on as they arrive (the upstream socket pauses while the client is slow: at
 * most about a megabyte is held). A client that leaves ends the upstream download with it.
 */
export async function streamContent(
  reply: FastifyReply,
  requestId: string,
  response: UpstreamResponse,
): Promise<void> {
  const raw = reply.raw;
  raw.writeHead(200, {
    ...CORS_HEADERS,
    'content-type': response.contentType || 'application/octet-stream',
    'x-oneapi-request-id': requestId,
  });
  try {
    await pipeline(Readable.from(response.body, { objectMode: false }), raw);
  } catch {
    // The client left, or the provider broke off: the answer ends short, nothing more to say.
    raw.destroy();
  }
}

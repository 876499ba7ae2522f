import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { upstreamUnreachable } from '../../errors';
import { upstreamError } from '../upstream-error';
import type { RealtimeEndpoint } from './endpoints';

/** The most of a refused handshake's body read: a refusal's words are short. */
const REFUSAL_BYTES = 64 * 1024;

async function refusalOf(response: IncomingMessage): Promise<Error> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > REFUSAL_BYTES) break;
    chunks.push(chunk as Buffer);
  }
  return upstreamError(response.statusCode ?? 502, Buffer.concat(chunks));
}

/**
 * Opens the provider's realtime socket, paused (nothing is read until the client's side is ready).
 * A refused handshake throws the provider's error (its status and message, as for HTTP calls); a
 * socket that cannot be opened in `connectMs` throws 502 upstream_unreachable. No message larger
 * than `maxBytes` is taken: the socket fails instead.
 */
export function openRealtimeSocket(
  endpoint: RealtimeEndpoint,
  options: { connectMs: number; maxBytes: number },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(endpoint.url, {
      headers: endpoint.headers,
      handshakeTimeout: options.connectMs,
      maxPayload: options.maxBytes,
      perMessageDeflate: false,
    });
    let settled = false;
    socket.once('open', () => {
      settled = true;
      socket.pause();
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response) => {
      settled = true;
      refusalOf(response)
        .then(reject, (error: unknown) => reject(upstreamUnreachable(error)))
        .finally(() => socket.terminate());
    });
    socket.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(upstreamUnreachable(error));
    });
  });
}

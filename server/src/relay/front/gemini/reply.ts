import type { FastifyReply, FastifyRequest } from 'fastify';
import { asRelayError, RelayError } from '../../errors';
import { CORS_HEADERS } from '../reply-sink';
import { googleError } from './errors';
import { geminiNative } from './native';

/**
 * Any failure of a Gemini-native call, answered in Google's error shape (once nothing else was sent):
 * a Gemini channel's own error as it sent it, any other worded by the gateway.
 */
export function sendGoogleError(
  reply: FastifyReply,
  requestId: string,
  error: unknown,
  log: FastifyRequest['log'],
): void {
  const relayError = asRelayError(error);
  if (!(error instanceof RelayError)) log.error({ err: error, requestId }, 'relay failed');
  if (reply.raw.headersSent || reply.raw.destroyed) {
    reply.raw.end();
    return;
  }
  reply.raw.writeHead(relayError.status, {
    ...CORS_HEADERS,
    'content-type': 'application/json; charset=UTF-8',
    'x-oneapi-request-id': requestId,
  });
  // A Gemini channel's own error, for a call passed through to it: as Google sent it.
  if (relayError.asSent?.format === geminiNative.name) {
    reply.raw.end(relayError.asSent.body);
    return;
  }
  const message = `${relayError.message} (request id: ${requestId})`;
  reply.raw.end(JSON.stringify(googleError(relayError.status, message)));
}

/** Google's clients send the key as `x-goog-api-key` or `?key=`; a Bearer header is taken too. */
export function googleApiKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-goog-api-key'];
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.key === 'string' && query.key) return query.key;
  return request.headers.authorization;
}

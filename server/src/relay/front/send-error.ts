import type { FastifyReply, FastifyRequest } from 'fastify';
import { asRelayError, RelayError } from '../errors';
import { anthropicErrorOf } from './anthropic/response';
import { CORS_HEADERS } from './reply-sink';

/** The error shapes of the client formats we serve. */
export type ErrorFormat = 'openai' | 'anthropic';

/**
 * Answers a failed relay call in the client's error shape: a provider's error passed through as it
 * sent it when the client speaks the provider's format, else ours (OpenAI's or Anthropic's shape).
 */
export function sendError(
  reply: FastifyReply,
  requestId: string,
  error: unknown,
  log: FastifyRequest['log'],
  format: ErrorFormat = 'openai',
): void {
  const relayError = asRelayError(error);
  if (!(error instanceof RelayError)) log.error({ err: error, requestId }, 'relay failed');
  if (reply.raw.headersSent || reply.raw.destroyed) {
    reply.raw.end();
    return;
  }
  reply.raw.writeHead(relayError.status, {
    ...CORS_HEADERS,
    'content-type': 'application/json',
    'x-oneapi-request-id': requestId,
  });
  if (relayError.asSent?.format === format) {
    reply.raw.end(relayError.asSent.body);
    return;
  }
  const body = format === 'anthropic' ? anthropicErrorOf(relayError, requestId) : relayError.body(requestId);
  reply.raw.end(JSON.stringify(body));
}

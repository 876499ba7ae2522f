import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { anthropicErrorOf } from '../adaptors/anthropic/errors';
import { googleError } from '../adaptors/gemini/errors';
import { asRelayError, RelayError } from '../errors';
import { type AnswerAudience, CORS_HEADERS, RELAY_ANSWER } from './reply-sink';

/** The error shapes of the client formats we serve. */
export type ErrorFormat = 'openai' | 'anthropic' | 'gemini';

/** Our own error body in each client format. */
const ERROR_BODIES: Record<ErrorFormat, (error: RelayError, requestId: string) => unknown> = {
  openai: (error, requestId) => error.body(requestId),
  anthropic: anthropicErrorOf,
  gemini: (error, requestId) => googleError(error.status, `${error.message} (request id: ${requestId})`),
};

/**
 * Answers a failed relay call in the client's error shape: a provider's error passed through as it
 * sent it when the client speaks the provider's format, else ours (OpenAI's, Anthropic's or Google's shape).
 */
export function writeError(
  res: ServerResponse,
  requestId: string,
  error: unknown,
  log: FastifyBaseLogger,
  format: ErrorFormat = 'openai',
  audience: AnswerAudience = RELAY_ANSWER,
): void {
  const relayError = asRelayError(error);
  if (!(error instanceof RelayError)) log.error({ err: error, requestId }, 'relay failed');
  if (res.headersSent || res.destroyed) {
    res.end();
    return;
  }
  const body =
    relayError.asSent?.format === format
      ? relayError.asSent.body
      : JSON.stringify(ERROR_BODIES[format](relayError, requestId));
  // Its length declared, as every other answer's: a short error is not sent chunked.
  res.writeHead(relayError.status, {
    ...(audience.cors ? CORS_HEADERS : {}),
    'content-type': format === 'gemini' ? 'application/json; charset=UTF-8' : 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-oneapi-request-id': requestId,
  });
  res.end(body);
}

/** writeError for a Fastify route's answer (already hijacked, or about to be answered only this way). */
export const sendError = (
  reply: FastifyReply,
  requestId: string,
  error: unknown,
  log: FastifyBaseLogger,
  format: ErrorFormat = 'openai',
  audience: AnswerAudience = RELAY_ANSWER,
): void => writeError(reply.raw, requestId, error, log, format, audience);

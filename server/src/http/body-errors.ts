import type { FastifyError } from 'fastify';
import { DomainError } from '../domain/errors';

const MB = 1024 * 1024;

/** 413, naming the route's limit (`bodyLimit` bytes) in MB. */
export const bodyTooLarge = (bodyLimit: number): DomainError =>
  new DomainError('body_too_large', { limit: Math.round((bodyLimit / MB) * 10) / 10 }, 413);

/**
 * Fastify's own errors for malformed requests, said in words a person understands (on /v1 too).
 * `bodyLimit` is the route's, in bytes.
 */
export function describeFrameworkError(error: FastifyError, status: number, bodyLimit: number): DomainError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('body_not_json', {}, status);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('unsupported_media_type', {}, status);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('content_length_mismatch', {}, status);
    default:
      return error.message
        ? new DomainError('bad_request_because', { reason: error.message }, status)
        : new DomainError('bad_request', {}, status);
  }
}

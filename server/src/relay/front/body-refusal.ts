import type { FastifyError } from 'fastify';
import { DomainError } from '../../domain/errors';
import { describeFrameworkError } from '../../http/body-errors';
import { RelayError } from '../errors';

/**
 * Refusals of a body (too large, malformed, the budget full; Fastify's or ours) in the relay's error
 * shape. `bodyLimit` is the route's, in bytes.
 */
export function bodyRefusal(error: FastifyError | DomainError, bodyLimit: number): unknown {
  const status = error instanceof DomainError ? error.httpStatus : (error.statusCode ?? 500);
  if (status < 400 || (status >= 500 && !(error instanceof DomainError))) return error;
  const refusal = error instanceof DomainError ? error : describeFrameworkError(error, status, bodyLimit);
  return status >= 500
    ? RelayError.gateway(status, refusal.message, refusal.code)
    : RelayError.invalid(refusal.message, refusal.code, { status });
}

import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { upstreamError } from '../upstream-error';

/** Anthropic's error types and their statuses, for errors inside a 200 answer or a stream. */
const STATUS_BY_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export interface AnthropicErrorDetail {
  type?: unknown;
  message?: unknown;
}

/**
 * `{type: "error", error: {type, message}}` → RelayError. The error type is kept (authentication_error
 * and permission_error switch a channel off) and doubles as the code, as one-api does. Without an HTTP
 * status (an error in a 200 body or a stream) the type decides it.
 */
export function anthropicError(detail: AnthropicErrorDetail | undefined, status?: number): RelayError {
  const type = typeof detail?.type === 'string' ? detail.type : 'api_error';
  const message = typeof detail?.message === 'string' && detail.message ? detail.message : type;
  return RelayError.upstream(status ?? STATUS_BY_TYPE[type] ?? 500, message, { type, code: type });
}

/** A non-200 answer: Anthropic's error body, else (a proxy, an HTML page) read leniently. */
export function parseError(status: number, body: Buffer): RelayError {
  try {
    const parsed = JSON.parse(body.toString()) as { type?: unknown; error?: AnthropicErrorDetail };
    if (parsed.type === 'error' && parsed.error) return anthropicError(parsed.error, status);
  } catch {
    // not JSON
  }
  return upstreamError(status, body);
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const ANTHROPIC_ERROR_TYPES = new Set([...Object.values(ERROR_TYPES), 'api_error']);

/** An error type as Anthropic names it: its own types are kept, any other is an api_error. */
export const anthropicErrorType = (type: unknown): string =>
  typeof type === 'string' && ANTHROPIC_ERROR_TYPES.has(type) ? type : 'api_error';

/** Anthropic's error body for a status and message. */
function errorBody(status: number, message: string, type?: string): Json {
  return { type: 'error', error: { type: type ?? ERROR_TYPES[status] ?? 'api_error', message } };
}

/**
 * Any relay error in Anthropic's shape: an Anthropic channel's error type is kept, others are named
 * by their status (the gateway's own 404 is a not_found_error, as Anthropic's is); the message
 * carries the request id.
 */
export function anthropicErrorOf(error: RelayError, requestId: string): Json {
  const byStatus = error.origin === 'gateway' ? ERROR_TYPES[error.status] : undefined;
  const ownType = ANTHROPIC_ERROR_TYPES.has(error.type) ? error.type : undefined;
  return errorBody(error.status, `${error.message} (request id: ${requestId})`, byStatus ?? ownType);
}

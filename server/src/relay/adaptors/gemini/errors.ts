import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { upstreamError } from '../upstream-error';
import type { GeminiErrorDetail } from './wire';

/** Google's canonical error statuses → the HTTP status and OpenAI error type we answer with. */
const BY_STATUS: Record<string, [status: number, type: string]> = {
  INVALID_ARGUMENT: [400, 'invalid_request_error'],
  FAILED_PRECONDITION: [400, 'invalid_request_error'],
  OUT_OF_RANGE: [400, 'invalid_request_error'],
  UNAUTHENTICATED: [401, 'authentication_error'],
  PERMISSION_DENIED: [403, 'permission_error'],
  NOT_FOUND: [404, 'invalid_request_error'],
  RESOURCE_EXHAUSTED: [429, 'rate_limit_error'],
  CANCELLED: [499, 'upstream_error'],
  INTERNAL: [500, 'upstream_error'],
  UNAVAILABLE: [503, 'upstream_error'],
  DEADLINE_EXCEEDED: [504, 'upstream_error'],
};

const KEY_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED']);

/**
 * `{error: {code, message, status, details}}` → RelayError. A bad or expired key is answered by Google
 * as 400 INVALID_ARGUMENT; it becomes 401 so the channel is recognised as dead and another is tried.
 */
export function geminiError(detail: GeminiErrorDetail, httpStatus?: number): RelayError {
  const message = detail.message || detail.status || 'Gemini error';
  const reason = detail.details?.find((item) => item.reason)?.reason;
  const badKey = (reason && KEY_REASONS.has(reason)) || /api key (not valid|expired)/i.test(message);
  // Google's HTTP status always matches its canonical status; the latter also names errors inside a 200.
  const [status, type] = badKey
    ? [401, 'authentication_error']
    : (BY_STATUS[detail.status ?? ''] ?? [
        httpStatus && httpStatus !== 200 ? httpStatus : 500,
        'upstream_error',
      ]);
  return RelayError.upstream(status, message, { type, code: reason ?? detail.status ?? null });
}

export function parseError(status: number, body: Buffer): RelayError {
  try {
    const parsed = JSON.parse(body.toString()) as
      | { error?: GeminiErrorDetail }
      | Array<{ error?: GeminiErrorDetail }>;
    // Streams without `alt=sse` answer a JSON array, errors included.
    const error = Array.isArray(parsed) ? parsed[0]?.error : parsed.error;
    if (error && typeof error === 'object') return geminiError(error, status);
  } catch {
    // not JSON
  }
  return upstreamError(status, body);
}

/** Google's canonical status names (google.rpc.Code) for the HTTP statuses we answer. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export const googleStatusName = (status: number): string =>
  STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');

/** Google's error body: `{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}`. */
export function googleError(status: number, message: string): Json {
  return { error: { code: status, message, status: googleStatusName(status) } };
}

/** The statuses of the OpenAI error codes that end a stream half-way (the HTTP status is long gone). */
const STREAM_ERROR_STATUS: Record<string, number> = {
  insufficient_user_quota: 429,
  upstream_timeout: 504,
  upstream_broken: 502,
  bad_upstream_answer: 502,
};

/** An OpenAI error event of the pipeline (`{"error":{message,type,code}}`) in Google's shape. */
export function googleStreamError(error: Json): Json {
  const code = typeof error.code === 'string' ? error.code : '';
  const status =
    STREAM_ERROR_STATUS[code] ??
    (typeof error.code === 'number' && error.code >= 400 && error.code < 600 ? error.code : 500);
  return googleError(status, String(error.message ?? 'The answer broke off'));
}

/** One element of a Gemini stream as a server-sent event, framed as Google frames them. */
export const sseEvent = (response: Json): string => `data: ${JSON.stringify(response)}\r\n\r\n`;

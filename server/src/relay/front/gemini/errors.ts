import type { Json } from '../../json-value';

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

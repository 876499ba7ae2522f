import { RelayError } from '../../errors';
import { upstreamError } from '../upstream-error';
import type { DashScopeError } from './wire';

/**
 * DashScope codes → the status and OpenAI error type we answer with, first matching prefix wins.
 * DashScope's own HTTP status mostly agrees; the exceptions are an account in arrears (400 there) and
 * errors inside a 200 (a stream event), which need a status from the code.
 * Only a refused key and an unpaid account mean the channel is dead; a denied model does not.
 */
const BY_CODE: Array<[prefix: string, status: number, type: string]> = [
  ['InvalidApiKey', 401, 'authentication_error'],
  ['Arrearage', 403, 'insufficient_quota'],
  ['Model.AccessDenied', 403, 'upstream_error'],
  ['AccessDenied', 403, 'upstream_error'],
  ['Throttling', 429, 'rate_limit_error'],
  ['ModelNotFound', 404, 'invalid_request_error'],
  ['WorkSpaceNotFound', 404, 'invalid_request_error'],
  ['NotFound', 404, 'invalid_request_error'],
  ['InvalidParameter', 400, 'invalid_request_error'],
  ['DataInspectionFailed', 400, 'invalid_request_error'],
  ['BadRequest', 400, 'invalid_request_error'],
  ['InvalidURL', 400, 'invalid_request_error'],
  ['UnsupportedOperation', 400, 'invalid_request_error'],
  ['ModelUnavailable', 503, 'upstream_error'],
  ['ModelServingError', 503, 'upstream_error'],
  ['InternalError', 500, 'upstream_error'],
  ['SystemError', 500, 'upstream_error'],
];

/** `{code, message, request_id}` → RelayError; DashScope's request id rides in `param` for support tickets. */
export function dashScopeError(error: DashScopeError, httpStatus?: number): RelayError {
  const code = error.code || 'InternalError';
  const known = BY_CODE.find(([prefix]) => code.startsWith(prefix));
  const [, status, type] = known ?? [
    '',
    httpStatus && httpStatus >= 400 ? httpStatus : 500,
    'upstream_error',
  ];
  return RelayError.upstream(status, error.message || code, { type, code, param: error.request_id ?? '' });
}

const isError = (value: unknown): value is DashScopeError =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as DashScopeError).code === 'string' &&
  (value as DashScopeError).code !== '';

/**
 * The error object of a failed call. With `X-DashScope-SSE: enable` the failure itself comes framed as
 * a stream (`event:error`, `:HTTP_STATUS/401`, `data:{…}`); the last `data:` line holds it.
 */
function errorIn(text: string): DashScopeError | undefined {
  const dataLines = text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length));
  const candidates = [text, ...dataLines.reverse()];
  for (const candidate of candidates) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (isError(parsed)) return parsed;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export function parseError(status: number, body: Buffer): RelayError {
  const error = errorIn(body.toString());
  return error ? dashScopeError(error, status) : upstreamError(status, body);
}

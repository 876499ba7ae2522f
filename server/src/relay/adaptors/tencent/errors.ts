import { RelayError } from '../../errors';
import { upstreamError } from '../upstream-error';
import type { HunyuanError } from './wire';

/** Tencent answers most failures with HTTP 200 and `Response.Error.Code`; the code family decides the status. */
const STATUS_BY_PREFIX: Array<[prefix: string, status: number, type: string]> = [
  ['AuthFailure', 401, 'authentication_error'],
  ['UnauthorizedOperation', 403, 'permission_error'],
  ['ResourceUnavailable.InArrears', 403, 'insufficient_quota'],
  ['FailedOperation.ServiceNotActivated', 403, 'permission_error'],
  ['FailedOperation.ResourcePackExhausted', 403, 'insufficient_quota'],
  ['FailedOperation.FreeResourcePackExhausted', 403, 'insufficient_quota'],
  ['FailedOperation.ServiceStop', 403, 'insufficient_quota'],
  ['ResourceInsufficient', 403, 'insufficient_quota'],
  ['RequestLimitExceeded', 429, 'rate_limit_error'],
  ['LimitExceeded', 429, 'rate_limit_error'],
  ['FailedOperation.EngineServerLimitExceeded', 429, 'rate_limit_error'],
  ['InvalidParameter', 400, 'invalid_request_error'],
  ['MissingParameter', 400, 'invalid_request_error'],
  ['UnknownParameter', 400, 'invalid_request_error'],
  ['UnsupportedOperation', 400, 'invalid_request_error'],
  ['InvalidAction', 400, 'invalid_request_error'],
  ['OperationDenied', 400, 'invalid_request_error'],
  ['ServiceUnavailable', 503, 'upstream_error'],
];

export function tencentError(error: HunyuanError): RelayError {
  const code = error.Code ?? 'InternalError';
  const [, status, type] = STATUS_BY_PREFIX.find(([prefix]) => code.startsWith(prefix)) ?? [
    '',
    500,
    'upstream_error',
  ];
  return RelayError.upstream(status, error.Message || code, { type, code });
}

/** The error inside `{Response: {Error}}`, whatever the HTTP status; other bodies are read leniently. */
export function parseError(status: number, body: Buffer): RelayError {
  try {
    const parsed = JSON.parse(body.toString()) as { Response?: { Error?: HunyuanError } };
    if (parsed.Response?.Error?.Code) return tencentError(parsed.Response.Error);
  } catch {
    // not JSON: read below
  }
  return upstreamError(status, body);
}

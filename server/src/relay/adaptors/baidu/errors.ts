import { RelayError } from '../../errors';
import { upstreamError } from '../upstream-error';
import { accessTokens } from './credentials';
import type { BaiduError } from './wire';

type Mapping = [status: number, type: string];

/**
 * Baidu's error codes (Qianfan "error codes" page), by what they mean for the channel:
 * the caller's mistake (400), the key's account (401/403: channel health may switch it off),
 * a busy or failing upstream (429/5xx: worth another channel).
 */
const BY_CODE: Record<number, Mapping> = {
  1: [500, 'upstream_error'], // Unknown error
  2: [503, 'upstream_error'], // Service temporarily unavailable
  3: [404, 'invalid_request_error'], // Unsupported openapi method: no such service (model endpoint)
  4: [429, 'rate_limit_error'], // Open api request limit reached (cluster)
  6: [403, 'permission_error'], // No permission to access data: the application may not use this service
  13: [401, 'authentication_error'], // Get service token failed
  14: [401, 'authentication_error'], // IAM Certification failed
  15: [503, 'upstream_error'], // app not exists or create failed (a retry helps)
  17: [403, 'insufficient_quota'], // Open api daily request limit reached: billing not opened, or in arrears
  18: [429, 'rate_limit_error'], // Open api qps request limit reached
  19: [403, 'insufficient_quota'], // Open api total request limit reached (free quota used up)
  336000: [500, 'upstream_error'], // Internal error
};

/**
 * Baidu refused an access token it issued (100 invalid access_token parameter, 110 invalid or no longer
 * valid, 111 expired). That is not the key's fault: the cached tokens are dropped, the next call exchanges
 * the key again (and only a key that then fails the exchange counts as dead).
 */
const TOKEN_REFUSED = new Set([100, 110, 111]);

function mappingOf(code: number): Mapping {
  const known = BY_CODE[code];
  if (known) return known;
  if (code >= 336500 && code < 336600) return [429, 'rate_limit_error']; // RPM / TPM / service limits
  if (code >= 336100 && code < 336200) return [503, 'upstream_error']; // "try again later"
  if (code > 336000 && code < 336100) return [400, 'invalid_request_error']; // argument and input checks
  return [500, 'upstream_error'];
}

/** A Baidu `{error_code, error_msg}` body → the error for the client; the code is kept as Baidu's number. */
export function baiduError(error: BaiduError): RelayError {
  const code = Number(error.error_code);
  const message = error.error_msg || `Baidu error ${code}`;
  if (TOKEN_REFUSED.has(code)) {
    accessTokens.clear();
    return RelayError.upstream(503, message, { code });
  }
  const [status, type] = mappingOf(code);
  return RelayError.upstream(status, message, { type, code });
}

export const isBaiduError = (body: BaiduError): boolean =>
  (typeof body.error_code === 'number' && body.error_code !== 0) || Boolean(body.error_msg);

/** A failed answer: Baidu's own error body whatever the HTTP status, other bodies read leniently. */
export function parseError(status: number, body: Buffer): RelayError {
  try {
    const parsed = JSON.parse(body.toString()) as BaiduError;
    if (parsed && typeof parsed === 'object' && isBaiduError(parsed)) return baiduError(parsed);
  } catch {
    // not JSON: read below
  }
  return upstreamError(status, body);
}

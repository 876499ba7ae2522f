import { RelayError } from '../../errors';
import { upstreamError } from '../upstream-error';
import { V3_SUCCESS, type ZhipuV3Response, type ZhipuV4ErrorBody } from './wire';

type Mapping = [status: number, type: string];

/**
 * Zhipu's business codes (https://open.bigmodel.cn/dev/api/error-code/service-error) decide the status,
 * not the HTTP status: Zhipu answers an account in arrears with 429, and v3 answers errors with 200.
 */
const BY_CODE: Record<number, Mapping> = {
  // Authentication: a missing, malformed, badly signed or expired token, or an unknown key.
  1000: [401, 'authentication_error'],
  1001: [401, 'authentication_error'],
  1002: [401, 'authentication_error'],
  1003: [401, 'authentication_error'],
  1004: [401, 'authentication_error'],
  // The account: inactive, unknown, locked; in arrears; unreachable for now.
  1110: [403, 'permission_error'],
  1111: [403, 'permission_error'],
  1112: [403, 'permission_error'],
  1113: [403, 'insufficient_quota'],
  1120: [503, 'upstream_error'],
  1121: [403, 'permission_error'],
  // The call: parameters, model, method; no access to the API.
  1200: [400, 'invalid_request_error'],
  1210: [400, 'invalid_request_error'],
  1211: [400, 'invalid_request_error'],
  1212: [400, 'invalid_request_error'],
  1213: [400, 'invalid_request_error'],
  1214: [400, 'invalid_request_error'],
  1215: [400, 'invalid_request_error'],
  1220: [403, 'permission_error'],
  1221: [400, 'invalid_request_error'],
  1222: [400, 'invalid_request_error'],
  1230: [500, 'upstream_error'],
  1231: [429, 'rate_limit_error'],
  1234: [500, 'upstream_error'],
  1260: [500, 'upstream_error'],
  1261: [400, 'invalid_request_error'],
  // Policy: unsafe content; concurrency, frequency and daily limits.
  1300: [400, 'invalid_request_error'],
  1301: [400, 'invalid_request_error'],
  1302: [429, 'rate_limit_error'],
  1303: [429, 'rate_limit_error'],
  1304: [429, 'rate_limit_error'],
  1305: [429, 'rate_limit_error'],
  500: [500, 'upstream_error'],
};

/** A Zhipu business code and message → RelayError; an unknown code keeps the HTTP status when it is an error. */
export function zhipuError(code: string | number | undefined, message: string | undefined, httpStatus = 500) {
  const numeric = Number(code);
  const [status, type] = BY_CODE[numeric] ?? [httpStatus >= 400 ? httpStatus : 500, 'upstream_error'];
  const text = message || (code !== undefined ? `Zhipu error ${code}` : `bad response status code ${status}`);
  return RelayError.upstream(status, text, { type, code: code === undefined ? null : String(code) });
}

/** The error a Zhipu body holds, v4 (`{error: {code, message}}`) or v3 (`{code, msg, success: false}`). */
export function errorInBody(body: unknown, httpStatus?: number): RelayError | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const v4 = (body as ZhipuV4ErrorBody).error;
  if (v4 && typeof v4 === 'object') return zhipuError(v4.code, v4.message, httpStatus);
  const v3 = body as ZhipuV3Response;
  if (v3.success === false || (typeof v3.code === 'number' && v3.code !== V3_SUCCESS)) {
    return zhipuError(v3.code, v3.msg, httpStatus);
  }
  return undefined;
}

export function parseError(status: number, body: Buffer): RelayError {
  try {
    const found = errorInBody(JSON.parse(body.toString()), status);
    if (found) return found;
  } catch {
    // not JSON: read below
  }
  return upstreamError(status, body);
}

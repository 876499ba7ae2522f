import { RelayError } from '../../errors';
import { asObject } from '../../json-value';
import { upstreamError } from '../upstream-error';

/**
 * Bedrock's errors are `{"message": "…"}` with the HTTP status (403 a bad signature or no access, 429
 * throttling, 400 validation); a body without a message is read leniently.
 */
export function parseError(status: number, body: Buffer): RelayError {
  try {
    const parsed = asObject(JSON.parse(body.toString()));
    const message = parsed?.message ?? parsed?.Message;
    if (typeof message === 'string' && message) {
      return RelayError.upstream(status, message, {
        type: status === 401 || status === 403 ? 'authentication_error' : 'upstream_error',
        code: 'bedrock_error',
      });
    }
  } catch {
    // not JSON
  }
  return upstreamError(status, body);
}

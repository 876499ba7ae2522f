import { RelayError } from '../../errors';
import { upstreamError } from '../upstream-error';
import type { SparkFrame } from './wire';

/** Spark's `header.code` values (https://www.xfyun.cn/doc/spark/Web.html#_6-错误码) by what they mean for us. */
const AUTH_CODES = new Set([10015, 10016, 11200]);
const RATE_CODES = new Set([10006, 10007, 10008, 10110, 11201, 11202, 11203]);
const REQUEST_CODES = new Set([10003, 10004, 10005, 10013, 10014, 10019, 10163, 10907]);

export function statusOfCode(code: number): number {
  if (AUTH_CODES.has(code)) return 401;
  if (RATE_CODES.has(code)) return 429;
  if (REQUEST_CODES.has(code)) return 400;
  return 500;
}

/** A frame with a non-zero code, or a refused handshake (`{"message": …}` with its HTTP status). */
export function parseError(status: number, body: Buffer): RelayError {
  let frame: SparkFrame | undefined;
  try {
    frame = JSON.parse(body.toString()) as SparkFrame;
  } catch {
    frame = undefined;
  }
  const code = frame?.header?.code;
  if (typeof code === 'number' && code !== 0) {
    const mapped = statusOfCode(code);
    const type = mapped === 401 ? 'authentication_error' : 'upstream_error';
    return RelayError.upstream(mapped, frame?.header?.message || `Spark error ${code}`, { type, code });
  }
  return upstreamError(status, body);
}

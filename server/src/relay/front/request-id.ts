import { randomInt } from 'node:crypto';

/** one-api's request id: YYYYMMDDhhmmss, the sub-second part, then 8 random digits. */
export function newRequestId(now = new Date()): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const stamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${stamp}${pad(now.getUTCMilliseconds(), 3)}${pad(randomInt(100_000_000), 8)}`;
}

import { randomInt } from 'node:crypto';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The YYYYMMDDhhmmss part of the second being stamped, made once per second rather than per call. */
let stampedSecond = -1;
let secondStamp = '';

function stampOf(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== stampedSecond) {
    stampedSecond = second;
    secondStamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  }
  return secondStamp;
}

/** one-api's request id: YYYYMMDDhhmmss, the sub-second part, then 8 random digits. */
export function newRequestId(now = new Date()): string {
  return `${stampOf(now)}${pad(now.getUTCMilliseconds(), 3)}${pad(randomInt(100_000_000), 8)}`;
}

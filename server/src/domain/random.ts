import { randomBytes, randomInt } from 'node:crypto';

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Letters and digits from a cryptographic source, without modulo bias. */
export function randomAlphanumeric(length: number): string {
  let result = '';
  for (let i = 0; i < length; i++) result += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return result;
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

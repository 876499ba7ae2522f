import { DomainError } from './domain/errors';

/**
 * The deepest nesting of arrays and objects a JSON body may have (console API and relay alike).
 * Real bodies (a tool's JSON schema included) stay far below it; what goes beyond is refused with a
 * 400 as it is received, before it is parsed, so that no recursive walk of a parsed body (a check, a
 * copy, `JSON.stringify`) can run out of stack.
 */
const MAX_JSON_DEPTH = 128;

/** The 400 for a body nested deeper than MAX_JSON_DEPTH. */
export const bodyTooDeep = (): DomainError =>
  new DomainError('json_too_deep', { limit: MAX_JSON_DEPTH }, 400);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when the UTF-8 bytes of a JSON text (valid or not) nest arrays and objects deeper than
 * `limit`. One pass, no parse; strings are skipped (the bytes it looks for are ASCII, which never
 * occur inside a multi-byte UTF-8 character).
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let depth = 0;
  for (let index = 0; index < buffer.length; index++) {
    const byte = buffer[index];
    if (byte === QUOTE) index = closingQuote(buffer, index);
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if ((byte === CLOSE_BRACKET || byte === CLOSE_BRACE) && depth > 0) depth--;
  }
  return false;
}

/** The index of the quote that ends the string opening at `open` (the end when there is none). */
function closingQuote(buffer: Buffer, open: number): number {
  let quote = buffer.indexOf(QUOTE, open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (buffer[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = buffer.indexOf(QUOTE, quote + 1);
  }
  return buffer.length;
}

import { DomainError } from '../domain/errors';

/**
 * What a JSON body may hold before it is parsed. `JSON.parse` turns two bytes of `{}` into some 60
 * of heap and takes the event loop for as long as it parses; these bounds keep any body's parsed
 * form within a small multiple of its size (see SECURITY.md for the figures) while leaving room for
 * what real calls send: thousands of messages, tool schemas, embeddings of token ids.
 */
export const JSON_SHAPE_LIMITS = {
  /** Objects and arrays nested inside one another. */
  depth: 128,
  /** Objects and arrays in all. */
  containers: 100_000,
  /** Object members (key and value): each distinct key costs V8 far more than an array element. */
  members: 100_000,
  /** Values in all: array elements and object members, at any depth. */
  values: 1_000_000,
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** The end of the string whose opening quote is at `start` (the closing quote's index), or -1. */
function stringEnd(text: Buffer, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Heap bytes V8 takes, beyond the text itself, for each object or array, object member and value of
 * a parsed body (measured with JSON.parse on Node 20: distinct keys cost the most).
 */
const PARSED_COST = { container: 64, member: 160, value: 32 } as const;

/**
 * Refuses a JSON text that nests deeper or holds more than JSON_SHAPE_LIMITS allows (400
 * `json_too_deep`, 413 `json_too_many_values`), in one pass over its bytes that skips strings
 * natively and stops at the first limit crossed; otherwise answers what its parsed form will take
 * on the heap beyond the text's own size. It does not check the text is JSON: the parser does.
 */
export function checkJsonShape(text: Buffer): number {
  const limits = JSON_SHAPE_LIMITS;
  let depth = 0;
  let containers = 0;
  let members = 0;
  let values = 0;
  for (let at = 0; at < text.length; at++) {
    const byte = text[at];
    if (byte === QUOTE) {
      at = stringEnd(text, at);
      if (at === -1) break;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      containers++;
      values++;
      if (depth > limits.depth) throw new DomainError('json_too_deep', { limit: limits.depth }, 400);
      if (containers > limits.containers) throw tooMany();
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    } else if (byte === COMMA && ++values > limits.values) {
      throw tooMany();
    } else if (byte === COLON && ++members > limits.members) {
      throw tooMany();
    }
  }
  return containers * PARSED_COST.container + members * PARSED_COST.member + values * PARSED_COST.value;
}

const tooMany = () =>
  new DomainError(
    'json_too_many_values',
    {
      containers: JSON_SHAPE_LIMITS.containers,
      members: JSON_SHAPE_LIMITS.members,
      values: JSON_SHAPE_LIMITS.values,
    },
    413,
  );

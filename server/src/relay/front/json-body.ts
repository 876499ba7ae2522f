import { RelayError } from '../errors';
import type { Json } from '../json-value';

/** A relay call's body as a JSON object, or the OpenAI-shaped 400 every front answers for anything else. */
export function parseJsonObject(body: unknown): Json {
  const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // answered below
  }
  throw RelayError.invalid('The request body must be a JSON object', 'invalid_json');
}

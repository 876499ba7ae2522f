import { RelayError } from '../errors';

/** A front's JSON body, which must be an object. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw RelayError.invalid('The request body must be a JSON object', 'invalid_json');
}

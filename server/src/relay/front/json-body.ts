import type { FastifyRequest } from 'fastify';
import { bodyTooDeep, jsonNestsDeeperThan } from '../../json-depth';
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

/**
 * The relay's body parser: bodies are kept as bytes (what is not ours passes through untouched); a
 * JSON one nested deeper than MAX_JSON_DEPTH is refused (400) before any stage reads it.
 */
export function keepBodyBytes(
  request: FastifyRequest,
  body: Buffer,
  done: (error: Error | null, body?: Buffer) => void,
): void {
  const multipart = String(request.headers['content-type'] ?? '').startsWith('multipart/');
  if (!multipart && jsonNestsDeeperThan(body)) done(bodyTooDeep());
  else done(null, body);
}

import type { RelayCall } from '../adaptors/types';

/**
 * Clients (the openai SDK by default) may ask for base64 embeddings; adaptors answer float arrays.
 * One place turns them into little-endian float32 base64, as OpenAI sends them.
 */
export function withEmbeddingEncoding(call: RelayCall, body: string | Buffer): string | Buffer {
  if (call.mode !== 'embeddings' || call.body?.encoding_format !== 'base64') return body;
  let parsed: { data?: Array<{ embedding?: unknown }> };
  try {
    parsed = JSON.parse(body.toString()) as typeof parsed;
  } catch {
    return body;
  }
  let changed = false;
  for (const item of parsed.data ?? []) {
    if (Array.isArray(item.embedding)) {
      item.embedding = Buffer.from(new Float32Array(item.embedding as number[]).buffer).toString('base64');
      changed = true;
    }
  }
  return changed ? JSON.stringify(parsed) : body;
}

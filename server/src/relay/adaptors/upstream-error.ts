import { RelayError } from '../errors';
import { asObject, type Json } from '../json-value';

/** Providers put the message in many places; the first one found wins. */
function findMessage(body: Json): string | undefined {
  const candidates = [
    asObject(body.error)?.message,
    typeof body.error === 'string' ? body.error : undefined,
    body.message,
    body.msg,
    body.err,
    body.error_msg,
    // FastAPI's shape (Jina, Voyage).
    body.detail,
    asObject(body.header)?.message,
    asObject(asObject(body.response)?.error)?.message,
  ];
  return candidates.find(
    (candidate): candidate is string => typeof candidate === 'string' && candidate !== '',
  );
}

/** Reads any provider's error body leniently; an OpenAI-shaped error keeps its type and code. */
export function upstreamError(status: number, raw: Buffer | string): RelayError {
  const text = raw.toString();
  let body: Json | undefined;
  try {
    body = asObject(JSON.parse(text));
  } catch {
    body = undefined;
  }
  const error = asObject(body?.error);
  const found = body && findMessage(body);
  if (error && typeof error.message === 'string' && found) {
    return RelayError.upstream(status, found, {
      type: typeof error.type === 'string' ? error.type : 'upstream_error',
      code: (error.code as string | number | null) ?? null,
      param: typeof error.param === 'string' ? error.param : '',
    });
  }
  // A body with no message of its own (an HTML page, a proxy's text) is not passed on, as one-api
  // does; administrators and the log see its beginning.
  const generic = `bad response status code ${status}`;
  return RelayError.upstream(status, found || generic, {
    code: 'bad_response_status_code',
    param: String(status),
    detail: found || `${generic}: ${text.slice(0, 500).trim()}`,
  });
}

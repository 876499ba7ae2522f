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
  const message =
    (body && findMessage(body)) || text.slice(0, 500).trim() || `bad response status code ${status}`;
  if (error && typeof error.message === 'string') {
    return RelayError.upstream(status, message, {
      type: typeof error.type === 'string' ? error.type : 'upstream_error',
      code: (error.code as string | number | null) ?? null,
      param: typeof error.param === 'string' ? error.param : '',
    });
  }
  return RelayError.upstream(status, message, { code: 'bad_response_status_code', param: String(status) });
}

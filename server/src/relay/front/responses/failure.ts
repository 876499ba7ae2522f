import type { Json } from '../../json-value';

/** One Responses stream event, framed with its `event:` line and numbered. */
export const responsesEvent = (type: string, sequence: number, data: Json): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;

/**
 * How a stream the gateway breaks off ends (the upstream broke, a silence, the quota), translated or
 * passed through: an `error` event, then response.failed with `response` marked failed. They are
 * numbered from `sequence`.
 */
export function brokenStreamEvents(error: Json, response: Json, sequence: number): string {
  const code = typeof error.code === 'string' ? error.code : null;
  const message = String(error.message ?? 'The answer broke off');
  const param = typeof error.param === 'string' && error.param ? error.param : null;
  const type = typeof error.type === 'string' ? error.type : 'server_error';
  const failed = { ...response, status: 'failed', error: { code: code ?? 'server_error', message } };
  // The fields flat as the API reference documents them, and nested as OpenAI sends them (the SDKs raise on that).
  return (
    responsesEvent('error', sequence, { code, message, param, error: { type, code, message, param } }) +
    responsesEvent('response.failed', sequence + 1, { response: failed })
  );
}

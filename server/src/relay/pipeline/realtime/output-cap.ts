import { asObject, type Json } from '../../json-value';

/**
 * The most a realtime response may write, as the provider is told it: the session's limit (GA's
 * `session.max_output_tokens`, the beta's `session.max_response_output_tokens`) and a response's own
 * (`response.max_output_tokens`, both interfaces). A client may ask for less, never more.
 */

/** The session.update the gateway sends when the session opens: the limit for every response. */
export function outputCapEvent(beta: boolean, cap: number): string {
  const session = beta ? { max_response_output_tokens: cap } : { type: 'realtime', max_output_tokens: cap };
  return JSON.stringify({ type: 'session.update', session });
}

/** Whether a client's message may set an output limit (only those are parsed). */
export const maySetOutputCap = (bytes: Buffer): boolean =>
  bytes.includes('session.update') || bytes.includes('response.create');

/** A limit above `cap` ('inf', a larger number, anything else) becomes `cap`; a lower one stands. */
function clampField(holder: Json | undefined, field: string, cap: number): boolean {
  if (!holder || !(field in holder)) return false;
  const asked = holder[field];
  if (typeof asked === 'number' && asked >= 1 && asked <= cap) return false;
  holder[field] = cap;
  return true;
}

/**
 * A client's session.update or response.create with its output limit brought within `cap`: the
 * event to send instead, or undefined when it can go as it is.
 */
export function clampOutputCap(event: Json, beta: boolean, cap: number): string | undefined {
  let changed = false;
  if (event.type === 'session.update') {
    const session = asObject(event.session);
    changed = clampField(session, beta ? 'max_response_output_tokens' : 'max_output_tokens', cap);
  } else if (event.type === 'response.create') {
    changed = clampField(asObject(event.response), 'max_output_tokens', cap);
  }
  return changed ? JSON.stringify(event) : undefined;
}

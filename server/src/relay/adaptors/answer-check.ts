import { badUpstreamAnswer, type RelayError } from '../errors';
import { asObject, type Json } from '../json-value';

/**
 * The one rule for a provider's answer body: a JSON object, else a bad answer (502, tried on the next
 * channel, not billed). Each adaptor then names the fields its provider's answers always have
 * (`missing`); an answer without them is not one either.
 */
export function answerObject<T extends object = Json>(body: Buffer | string): T | RelayError {
  let value: unknown;
  try {
    value = JSON.parse(body.toString());
  } catch {
    return badUpstreamAnswer('not JSON');
  }
  return asObject(value) ? (value as T) : badUpstreamAnswer('not a JSON object');
}

/** An answer that parsed but lacks what the provider's answers always carry. */
export const missing = (what: string): RelayError => badUpstreamAnswer(`no ${what} in it`);

/** One stream event's data that is not a JSON object: the stream is not of the provider's format. */
export const badStreamEvent = (): RelayError => badUpstreamAnswer('a stream event that is not JSON');

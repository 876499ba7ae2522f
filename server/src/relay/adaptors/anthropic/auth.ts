import { ANTHROPIC_VERSION } from './wire';

/** Anthropic authenticates with the key itself in `x-api-key`, and every call names the API version. */
export const authHeaders = (apiKey: string): Record<string, string> => ({
  'x-api-key': apiKey,
  'anthropic-version': ANTHROPIC_VERSION,
});

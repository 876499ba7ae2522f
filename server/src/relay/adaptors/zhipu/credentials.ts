import { createHmac } from 'node:crypto';
import { RelayError } from '../../errors';
import { TtlCache } from '../../ttl-cache';
import type { RelayCall } from '../types';
import { TOKEN_LIFETIME_MS } from './wire';

/** A token is replaced this long before it expires, so none reaches Zhipu about to lapse. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/** Signed tokens by channel key; one channel key signs once a day, not once a call. */
const tokens = new TtlCache<string, string>(TOKEN_LIFETIME_MS - REFRESH_MARGIN_MS, 10_000);

export interface ZhipuKey {
  id: string;
  secret: string;
}

/** The channel key is `id.secret`, as the Zhipu console hands it out. */
export function keyOf(apiKey: string): ZhipuKey {
  const parts = apiKey.trim().split('.');
  const [id = '', secret = ''] = parts;
  if (parts.length !== 2 || !id || !secret) {
    throw RelayError.upstream(401, 'The Zhipu channel key must be id.secret', {
      type: 'authentication_error',
      code: 'invalid_channel_key',
    });
  }
  return { id, secret };
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A JWT (HS256) as Zhipu expects it: header `{"alg":"HS256","sign_type":"SIGN"}`, claims `api_key`
 * (the key's id), `exp` and `timestamp`, both in milliseconds, signed with the key's secret.
 */
export function signToken(key: ZhipuKey, now = Date.now()): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const claims = base64url(JSON.stringify({ api_key: key.id, exp: now + TOKEN_LIFETIME_MS, timestamp: now }));
  const signature = createHmac('sha256', key.secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/** The `Authorization` value of a call (the bare token, no `Bearer`), signed anew shortly before expiry. */
export function tokenFor(call: RelayCall): string {
  const cached = tokens.get(call.apiKey);
  if (cached) return cached;
  const token = signToken(keyOf(call.apiKey));
  tokens.set(call.apiKey, token);
  return token;
}

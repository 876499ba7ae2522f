import { createHmac } from 'node:crypto';
import { RelayError } from '../../errors';
import type { RelayCall } from '../types';

export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

/** The channel key is `APPID|APISecret|APIKey`. */
export function credentialsOf(call: RelayCall): SparkCredentials {
  const [appId = '', apiSecret = '', apiKey = '', ...rest] = call.apiKey.split('|');
  if (!appId || !apiSecret || !apiKey || rest.length > 0) {
    throw RelayError.upstream(401, 'The iFlytek Spark channel key must be APPID|APISecret|APIKey', {
      type: 'authentication_error',
      code: 'invalid_channel_key',
    });
  }
  return { appId, apiSecret, apiKey };
}

/**
 * Spark authenticates the WebSocket handshake by its URL: an HMAC-SHA256 over the host, the date and
 * the request line, with the date and host repeated as query parameters.
 */
export function signedUrl(address: string, credentials: SparkCredentials, now = new Date()): string {
  const url = new URL(address);
  const date = now.toUTCString();
  const signed = `host: ${url.host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`;
  const signature = createHmac('sha256', credentials.apiSecret).update(signed).digest('base64');
  const authorization = Buffer.from(
    `api_key="${credentials.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`,
  ).toString('base64');
  url.search = new URLSearchParams({ authorization, date, host: url.host }).toString();
  return url.toString();
}

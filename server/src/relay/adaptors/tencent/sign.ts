import { createHash, createHmac } from 'node:crypto';
import { SERVICE } from './wire';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export interface SignInput {
  secretId: string;
  secretKey: string;
  url: string;
  action: string;
  contentType: string;
  payload: string;
  /** Unix seconds. */
  timestamp: number;
}

/**
 * The Authorization header of Tencent Cloud API 3.0 (TC3-HMAC-SHA256): a canonical request over the
 * method, path, signed headers and the payload's hash, signed with a key derived from the date and service.
 */
export function tc3Authorization(input: SignInput): string {
  const url = new URL(input.url);
  // The signed headers, names and values in lower case, sorted by name.
  const signed: Array<[name: string, value: string]> = [
    ['content-type', input.contentType],
    ['host', url.host],
    ['x-tc-action', input.action],
  ];
  const canonicalHeaders = signed.map(([name, value]) => `${name}:${value.trim().toLowerCase()}\n`).join('');
  const signedHeaders = signed.map(([name]) => name).join(';');
  const canonicalRequest = [
    'POST',
    url.pathname,
    url.search.replace(/^\?/, ''),
    canonicalHeaders,
    signedHeaders,
    sha256Hex(input.payload),
  ].join('\n');
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), SERVICE), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

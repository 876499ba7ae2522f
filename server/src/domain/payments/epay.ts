import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * 易支付 (EPay)'s MD5 signature: the non-empty parameters but `sign` and `sign_type`, sorted by name,
 * joined as `a=b&c=d`, with the merchant key appended; lower-case hex.
 */
export function epaySign(params: Record<string, string>, key: string): string {
  const signed = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(signed + key, 'utf8')
    .digest('hex');
}

/** Whether a notification's `sign` is the one our key gives (compared in constant time). */
export function epaySignatureHolds(params: Record<string, string>, key: string): boolean {
  const given = Buffer.from((params.sign ?? '').toLowerCase());
  const expected = Buffer.from(epaySign(params, key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A notification's parameters (query or form), each a string; repeated or nested ones are refused. */
export function epayParams(source: unknown): Record<string, string> | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const params: Record<string, string> = {};
  const entries = Object.entries(source as Record<string, unknown>);
  if (entries.length > 32) return undefined;
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || value.length > 512) return undefined;
    params[name] = value;
  }
  return params;
}

/** The page of the gateway the browser is sent to: `submit.php` with the signed order. */
export function epaySubmitUrl(
  address: string,
  key: string,
  order: Record<'pid' | 'type' | 'out_trade_no' | 'notify_url' | 'return_url' | 'name' | 'money', string>,
): string {
  const params = { ...order, sign: epaySign(order, key), sign_type: 'MD5' };
  return `${address}/submit.php?${new URLSearchParams(params).toString()}`;
}

import { describe, expect, it } from 'vitest';
import { redactSecretsIn, redactSecretsInJsonText } from './redact-secrets';

const KEY = 'quokka-channel-secret-5150';

describe('redacting a provider error as the JSON it decodes to', () => {
  it('cleans every string, object key and key-spelling number, however nested', () => {
    const cleaned = redactSecretsIn(
      { error: { type: KEY, list: [[`x ${KEY} y`]], [KEY]: 1, code: 1250099887 } },
      `${KEY}|1250099887`,
    );
    expect(JSON.stringify(cleaned)).not.toContain(KEY);
    expect(JSON.stringify(cleaned)).not.toContain('1250099887');
  });

  it('finds a key written with JSON escapes, and leaves text that is not JSON to the text rules', () => {
    expect(redactSecretsInJsonText(`{"m":"\\u0071${KEY.slice(1)}"}`, KEY)).toBe('{"m":"[redacted]"}');
    expect(redactSecretsInJsonText(`oops ${KEY}`, KEY)).toBe('oops [redacted]');
  });

  it('never throws for a body nested deeper than the stack: cleaned, or nothing to pass on', () => {
    const depth = 100_000;
    const deep = `${'{"a":'.repeat(depth)}"${KEY}"${'}'.repeat(depth)}`;
    const cleaned = redactSecretsInJsonText(deep, KEY);
    expect(cleaned === undefined || !cleaned.includes(KEY)).toBe(true);
  });
});

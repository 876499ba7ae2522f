import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, parseRecoveryHashes } from './recovery-codes';
import { SecretBox } from './secret-box';
import { enrolmentOf, newTotpSecret, stepOfCode } from './totp';

const STEP_MS = 30_000;
const NOW = 1_800_000_000_000;
const codeAt = (secret: string, at: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, digits: 6, period: 30 });

describe('TOTP codes', () => {
  it('takes the code of now and of the step either side, answering its step; no other', () => {
    const secret = newTotpSecret();
    const step = Math.floor(NOW / STEP_MS);
    expect(stepOfCode(secret, codeAt(secret, NOW), NOW)).toBe(step);
    expect(stepOfCode(secret, codeAt(secret, NOW - STEP_MS), NOW)).toBe(step - 1);
    expect(stepOfCode(secret, codeAt(secret, NOW + STEP_MS), NOW)).toBe(step + 1);
    expect(stepOfCode(secret, codeAt(secret, NOW - 3 * STEP_MS), NOW)).toBeUndefined();
    expect(stepOfCode(newTotpSecret(), codeAt(secret, NOW), NOW)).toBeUndefined();
  });

  it('gives an otpauth URI naming issuer and account, and its QR code as an SVG', async () => {
    const secret = newTotpSecret();
    const { uri, qrCode } = await enrolmentOf(secret, 'My Gateway', 'alice');
    expect(uri).toMatch(/^otpauth:\/\/totp\/My%20Gateway:alice\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(Buffer.from(qrCode.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
  });
});

describe('secrets at rest', () => {
  it('opens only under the same SESSION_SECRET, and never shows the secret sealed', () => {
    const sealed = new SecretBox('one-secret').seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(new SecretBox('one-secret').open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(new SecretBox('another-secret').open(sealed)).toBeUndefined();
    expect(new SecretBox('one-secret').open('garbage')).toBeUndefined();
  });
});

describe('recovery codes', () => {
  it('are ten different codes, hashed alike however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    const [first = ''] = codes;
    expect(hashRecoveryCode(` ${first.toLowerCase().replace('-', '')} `)).toBe(hashRecoveryCode(first));
    expect(parseRecoveryHashes('not json')).toEqual([]);
    expect(parseRecoveryHashes('[1,"a"]')).toEqual(['a']);
  });
});

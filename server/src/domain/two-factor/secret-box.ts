import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * TOTP secrets at rest: AES-256-GCM under a key derived from SESSION_SECRET (another key than the
 * session cookie's), so a copy of the database alone gives no one's codes.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(sessionSecret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', sessionSecret, 'switchyard', 'two-factor-secret-v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString('base64url');
  }

  /** The secret, or undefined when it was sealed under another SESSION_SECRET (or tampered with). */
  open(sealed: string): string | undefined {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

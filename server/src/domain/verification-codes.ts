import { randomHex } from './random';

export type CodePurpose = 'email-verification' | 'password-reset';

/** How long a mailed code or reset link works (10 minutes, as one-api). */
export const CODE_VALID_MS = 10 * 60 * 1000;

/** Short-lived codes sent by mail. Kept in this process. */
export class VerificationCodes {
  readonly #codes = new Map<string, { code: string; expiresAt: number }>();
  readonly #clock: () => number;

  /** `clock` answers the time in milliseconds since the epoch (tests move it forward). */
  constructor({ clock = Date.now }: { clock?: () => number } = {}) {
    this.#clock = clock;
  }

  issue(purpose: CodePurpose, email: string, length = 6): string {
    const code = randomHex(length);
    this.#codes.set(`${purpose}:${email}`, { code, expiresAt: this.#clock() + CODE_VALID_MS });
    return code;
  }

  verify(purpose: CodePurpose, email: string, code: string): boolean {
    const entry = this.#codes.get(`${purpose}:${email}`);
    if (!entry || entry.expiresAt < this.#clock()) return false;
    return entry.code === code;
  }

  consume(purpose: CodePurpose, email: string): void {
    this.#codes.delete(`${purpose}:${email}`);
  }
}

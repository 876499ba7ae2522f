import { randomHex } from './random';

/** `oidc-state`: an OpenID Connect sign-in's state, keyed by its flow and redeemed once. */
export type CodePurpose = 'email-verification' | 'password-reset' | 'oidc-state';

/** How long a mailed code or reset link works (10 minutes, as one-api). */
export const CODE_VALID_MS = 10 * 60 * 1000;

/** Short-lived codes sent by mail, one per purpose and address: a new one replaces the last. */
export interface VerificationCodes {
  issue(purpose: CodePurpose, email: string, length?: number): Promise<string>;
  /** Whether `code` is the address's current code; it stays usable. */
  verify(purpose: CodePurpose, email: string, code: string): Promise<boolean>;
  /** Checks `code` and uses it up in one step: of two calls with the same code, only one succeeds. */
  redeem(purpose: CodePurpose, email: string, code: string): Promise<boolean>;
  /** Forgets the address's code (it served, or its mail failed). */
  discard(purpose: CodePurpose, email: string): Promise<void>;
  close(): Promise<void>;
}

/** The codes of one process (no Redis): a map, whose entries a new code for the address replaces. */
export class MemoryVerificationCodes implements VerificationCodes {
  readonly #codes = new Map<string, { code: string; expiresAt: number }>();
  readonly #clock: () => number;

  /** `clock` answers the time in milliseconds since the epoch (tests move it forward). */
  constructor({ clock = Date.now }: { clock?: () => number } = {}) {
    this.#clock = clock;
  }

  async issue(purpose: CodePurpose, email: string, length = 6): Promise<string> {
    const code = randomHex(length);
    this.#codes.set(`${purpose}:${email}`, { code, expiresAt: this.#clock() + CODE_VALID_MS });
    return code;
  }

  async verify(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return this.#matches(purpose, email, code);
  }

  async redeem(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    // Checked and deleted without awaiting in between: one step.
    if (!this.#matches(purpose, email, code)) return false;
    this.#codes.delete(`${purpose}:${email}`);
    return true;
  }

  async discard(purpose: CodePurpose, email: string): Promise<void> {
    this.#codes.delete(`${purpose}:${email}`);
  }

  async close(): Promise<void> {}

  #matches(purpose: CodePurpose, email: string, code: string): boolean {
    const entry = this.#codes.get(`${purpose}:${email}`);
    if (!entry || entry.expiresAt < this.#clock()) return false;
    return entry.code === code;
  }
}

import { z } from 'zod';

/** Two-factor sign-in with a TOTP app (RFC 6238): what the server and the console share. */

/** The message a sign-in answers (password or OAuth) when the account still needs its second step. */
export const TWO_FACTOR_MESSAGE = 'two_factor';
/** Digits of an authenticator code. */
export const TOTP_DIGITS = 6;
/** Recovery codes issued at enrolment, each good once. */
export const RECOVERY_CODE_COUNT = 10;

/** A code as typed: six digits, or a recovery code (letters and digits, dashes and spaces ignored). */
export const twoFactorCodeInput = z.object({
  code: z.string({ error: 'code is required' }).trim().min(1, 'code is required').max(32, 'code is too long'),
});

/** GET /api/user/2fa. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** Root requires it of administrators and the caller is one. */
  required: boolean;
  recovery_codes_left: number;
}

/** POST /api/user/2fa/setup: shown once; the secret takes effect only when a code confirms it. */
export interface TwoFactorSetup {
  secret: string;
  otpauth_uri: string;
  /** The otpauth URI as a QR code, an SVG data URL. */
  qr_code: string;
}

/** POST /api/user/2fa/enable: the recovery codes, shown this once. */
export interface TwoFactorEnabled {
  recovery_codes: string[];
}

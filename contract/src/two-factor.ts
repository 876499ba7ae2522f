import { z } from 'zod';

/** Two-factor sign-in with a TOTP app (RFC 6238): what the server and the console share. */

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

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const isTransport = (value: string): value is (typeof TRANSPORTS)[number] =>
  (TRANSPORTS as readonly string[]).includes(value);

/** Passkeys a user may keep, each a second factor as good as a code. */
export const PASSKEY_MAX = 10;
const base64url = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .max(16_384, `${field} is too long`)
    .regex(/^[A-Za-z0-9_-]*$/, `${field} must be base64url`);

/** What the browser's WebAuthn call answered (as @simplewebauthn/browser gives it), checked for shape only. */
const credential = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: base64url('id').min(1, 'id is required').max(255, 'id is too long'),
    rawId: base64url('rawId'),
    type: z.literal('public-key', { error: 'type must be public-key' }),
    response: z.object(response),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    // Extensions are neither asked for nor read: whatever came is dropped.
    clientExtensionResults: z.unknown().transform(() => ({})),
  });

/** POST /api/user/2fa/passkeys: a new passkey, named by its owner. */
export const passkeyRegistrationInput = z.object({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .max(40, 'name must be at most 40 characters')
    .optional(),
  credential: credential({
    clientDataJSON: base64url('clientDataJSON'),
    attestationObject: base64url('attestationObject'),
    // Transports this server does not know (a newer browser's) are dropped, not refused.
    transports: z
      .array(z.string().max(32))
      .max(8)
      .optional()
      .transform((list) => list?.filter(isTransport)),
  }),
});

/** POST /api/user/login/2fa/passkey: the passkey's answer to the sign-in's challenge. */
export const passkeySignInInput = z.object({
  credential: credential({
    clientDataJSON: base64url('clientDataJSON'),
    authenticatorData: base64url('authenticatorData'),
    signature: base64url('signature'),
    userHandle: base64url('userHandle').optional(),
  }),
});

/** GET /api/user/2fa/passkeys: the caller's passkeys (never their keys). */
export interface Passkey {
  id: string;
  name: string;
  created_at: number;
  last_used_at: number;
}

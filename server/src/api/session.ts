import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { OidcPending } from '../domain/oauth/oidc';

/**
 * What the session cookie holds. Role and status are re-read from the database on every call, and
 * the session holds only while `epoch` is the user's `session_epoch` (logout and the like raise it).
 */
export interface SessionData {
  id: number;
  username: string;
  role: number;
  status: number;
  epoch: number;
  oauthState?: string;
  /** An OpenID Connect sign-in under way: its flow, nonce and PKCE verifier (see domain/oauth/oidc). */
  oidc?: OidcPending;
  /** Set once a Turnstile bot check passed in this session (one-api asks once per session). */
  turnstile?: boolean;
  /** A sign-in whose password or OAuth step passed, waiting for its two-factor code until `until` (ms). */
  twoFactor?: PendingTwoFactor;
  /** The challenge of a passkey the signed-in user is registering. */
  passkeyChallenge?: string;
}

export interface PendingTwoFactor {
  id: number;
  username: string;
  epoch: number;
  until: number;
  /** The challenge a passkey must sign to pass the step. */
  challenge?: string;
}

export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A stateless session: the data itself, encrypted and authenticated with AES-256-GCM under a key
 * derived from SESSION_SECRET, so any process sharing the secret can read it and nobody can forge it.
 */
export class SessionCodec {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'switchyard', 'session-cookie-v1', 32));
  }

  seal(data: SessionData, now = Date.now()): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const payload = JSON.stringify({ ...data, exp: Math.floor(now / 1000) + SESSION_MAX_AGE_SECONDS });
    const encrypted = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString('base64url');
  }

  open(cookie: string | undefined, now = Date.now()): SessionData | undefined {
    if (!cookie || cookie.length > 4096) return undefined;
    const raw = Buffer.from(cookie, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]);
      const data = JSON.parse(plain.toString('utf8')) as SessionData & { exp?: number };
      if (typeof data.exp !== 'number' || data.exp * 1000 < now || !Number.isInteger(data.id))
        return undefined;
      const { exp: _exp, ...session } = data;
      // Cookies issued before epochs existed are at the first epoch.
      return { ...session, epoch: Number.isInteger(data.epoch) ? data.epoch : 0 };
    } catch {
      return undefined;
    }
  }
}

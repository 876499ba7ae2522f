import { TOTP_DIGITS } from '@switchyard/contract/two-factor';
import { Secret, TOTP } from 'otpauth';
import { onFirstUse } from '../../on-first-use';

const PERIOD_SECONDS = 30;
/** Codes of the step before and after now are taken too: a phone's clock may be a little off. */
const WINDOW = 1;
const SECRET_BYTES = 20;

const qrCodes = onFirstUse(() => import('qrcode').then((module) => module.default));

const totpOf = (secret: string, issuer = '', label = '') =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
  });

/** A new random secret in base32, as authenticator apps take it typed in. */
export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

/** The otpauth:// URI an authenticator app reads from the QR code, and that code as an SVG data URL. */
export async function enrolmentOf(
  secret: string,
  issuer: string,
  account: string,
): Promise<{ uri: string; qrCode: string }> {
  const uri = totpOf(secret, issuer, account).toString();
  const svg = await (await qrCodes()).toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step the code belongs to, when it is right for now (± one step); else undefined. */
export function stepOfCode(secret: string, code: string, nowMs: number): number | undefined {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: nowMs }) + delta;
}

import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@switchyard/contract/two-factor';

/** Without look-alikes (0/O, 1/I/L), so a code copied by hand reads back right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUP = 5;

/** Ten codes of two groups of five (`ABCDE-FGHJK`): about 49 bits each, enough for a one-time code. */
export function newRecoveryCodes(): string[] {
  const code = () => {
    let text = '';
    for (let i = 0; i < GROUP * 2; i++) text += ALPHABET[randomInt(ALPHABET.length)];
    return `${text.slice(0, GROUP)}-${text.slice(GROUP)}`;
  };
  return Array.from({ length: RECOVERY_CODE_COUNT }, code);
}

/** The code as stored: upper case without dashes and spaces, hashed (the codes are random, no salt needed). */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');

export function parseRecoveryHashes(stored: string | null): string[] {
  try {
    const parsed = JSON.parse(stored || '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((hash): hash is string => typeof hash === 'string') : [];
  } catch {
    return [];
  }
}

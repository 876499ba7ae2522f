import { EMAIL_CODE_LENGTH } from '@switchyard/contract/auth';
import type { Sql } from '../db/connect';
import { findUserByEmail, setEmail } from '../db/repos/user-identities';
import { DomainError } from './errors';
import { escapeHtml, type Mailer } from './mail';
import type { OptionsStore } from './options';
import { CODE_VALID_MS, type VerificationCodes } from './verification-codes';

const VALID_MINUTES = CODE_VALID_MS / 60_000;

/** The domain whitelist (EmailDomainRestrictionEnabled + EmailDomainWhitelist), when it is on. */
function checkDomainAllowed(options: OptionsStore, email: string): void {
  if (!options.bool('EmailDomainRestrictionEnabled')) return;
  const address = email.toLowerCase();
  const allowed = options
    .get('EmailDomainWhitelist')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .some((domain) => domain !== '' && address.endsWith(`@${domain}`));
  if (!allowed) {
    throw new DomainError('email_domain_not_allowed');
  }
}

/** Proving that a mail address is yours: a 6-character code by mail, for registration or binding. */
export class EmailVerification {
  constructor(
    private readonly deps: { db: Sql; options: OptionsStore; codes: VerificationCodes; mailer: Mailer },
  ) {}

  /** Mails a code for an address nobody uses yet (the address has passed the contract's format check). */
  async sendCode(email: string): Promise<void> {
    const { db, options, codes, mailer } = this.deps;
    checkDomainAllowed(options, email);
    if (await findUserByEmail(db, email)) throw new DomainError('email_taken');
    mailer.ensureConfigured();
    const code = await codes.issue('email-verification', email, EMAIL_CODE_LENGTH);
    const systemName = options.get('SystemName');
    try {
      await mailer.send({
        to: email,
        subject: `${systemName} email verification`,
        html:
          `<p>Hello,</p><p>You are verifying your email address for ${escapeHtml(systemName)}.</p>` +
          `<p>Your verification code is: <strong>${code}</strong></p>` +
          `<p>The code is valid for ${VALID_MINUTES} minutes. If you did not ask for it, ignore this mail.</p>`,
      });
    } catch (error) {
      await codes.discard('email-verification', email);
      throw error;
    }
  }

  /** Sets the signed-in user's address once the mailed code matches. */
  async bind(userId: number, email: string, code: string): Promise<void> {
    const { db, codes } = this.deps;
    if (!(await codes.verify('email-verification', email, code.trim()))) {
      throw new DomainError('verification_code_invalid');
    }
    const holder = await findUserByEmail(db, email);
    if (holder && holder.id !== userId) throw new DomainError('email_taken');
    await codes.discard('email-verification', email);
    await setEmail(db, userId, email);
  }
}

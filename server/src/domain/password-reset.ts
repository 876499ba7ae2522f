import { RESET_PASSWORD_LENGTH, RESET_TOKEN_LENGTH } from '@switchyard/contract/auth';
import type { Sql } from '../db/connect';
import { findUserByEmail, setPasswordByEmail } from '../db/repos/user-identities';
import { DomainError } from './errors';
import { escapeHtml, type Mailer } from './mail';
import type { OptionsStore } from './options';
import { randomAlphanumeric } from './random';
import { serverAddress } from './server-address';
import type { Passwords } from './users/passwords';
import { CODE_VALID_MS, type VerificationCodes } from './verification-codes';

const VALID_MINUTES = CODE_VALID_MS / 60_000;

/** A forgotten password: a single-use link by mail, which trades for a new random password. */
export class PasswordReset {
  constructor(
    private readonly deps: {
      db: Sql;
      options: OptionsStore;
      codes: VerificationCodes;
      mailer: Mailer;
      passwords: Passwords;
    },
  ) {}

  async sendLink(email: string): Promise<void> {
    const { db, options, codes, mailer } = this.deps;
    if (!(await findUserByEmail(db, email))) throw new DomainError('email_not_registered');
    mailer.ensureConfigured();
    const token = await codes.issue('password-reset', email, RESET_TOKEN_LENGTH);
    const query = new URLSearchParams({ email, token });
    const link = `${serverAddress(options)}/user/reset?${query}`;
    const systemName = options.get('SystemName');
    try {
      await mailer.send({
        to: email,
        subject: `${systemName} password reset`,
        html:
          `<p>Hello,</p><p>You asked to reset your password for ${escapeHtml(systemName)}.</p>` +
          `<p>Open this link to reset it: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
          `<p>The link is valid for ${VALID_MINUTES} minutes and works once. ` +
          'If you did not ask for it, ignore this mail.</p>',
      });
    } catch (error) {
      await codes.discard('password-reset', email);
      throw error;
    }
  }

  /** Answers the new password, now set on every account with this address; the link is used up. */
  async reset(email: string, token: string): Promise<string> {
    const { db, codes } = this.deps;
    // Checked and used up in one step, so two clicks (on any two processes) cannot both reset.
    if (!(await codes.redeem('password-reset', email, token))) {
      throw new DomainError('reset_link_invalid');
    }
    const password = randomAlphanumeric(RESET_PASSWORD_LENGTH);
    const changed = await setPasswordByEmail(db, email, await this.deps.passwords.hash(password));
    if (changed === 0) throw new DomainError('email_not_registered');
    return password;
  }
}

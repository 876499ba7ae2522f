import type { AuditAction } from '@switchyard/contract/audit';
import { isAdminRole } from '@switchyard/contract/roles';
import type { TwoFactorEnabled, TwoFactorSetup, TwoFactorStatus } from '@switchyard/contract/two-factor';
import type { Sql } from '../../db/connect';
import {
  claimStep,
  clearAttempts,
  deleteTwoFactor,
  enableTwoFactor,
  findTwoFactor,
  replaceRecoveryCodes,
  saveUnconfirmedSecret,
  setRecoveryCodes,
  twoFactorEnabled,
} from '../../db/repos/two-factor';
import { findUserById } from '../../db/repos/users';
import type { TwoFactorRow, UserRow } from '../../db/schema';
import type { AuditLog } from '../audit/audit-log';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { Actor } from '../permissions';
import { countAttempt } from './attempts';
import { hashRecoveryCode, newRecoveryCodes, parseRecoveryHashes } from './recovery-codes';
import { recordTwoFactor, waitingUser } from './second-step';
import { SecretBox } from './secret-box';
import { enrolmentOf, newTotpSecret, stepOfCode } from './totp';

const SIX_DIGITS = /^\d{6}$/;

export interface TwoFactorDeps {
  db: Sql;
  options: OptionsStore;
  audit: AuditLog;
  sessionSecret: string;
  /** SESSION_SECRET was not set: a secret sealed now could not be opened after a restart. */
  sessionSecretGenerated: boolean;
  /** Milliseconds since the epoch (tests move it). */
  clock?: () => number;
}

/**
 * Two-factor sign-in with a TOTP app: enrolment confirmed by a code, recovery codes, the code checks
 * of the second sign-in step with their attempt limit, removal by the user or by root, and root's
 * rule that administrators must have it. Secrets leave only in the enrolment answer.
 */
export class TwoFactorService {
  readonly #box: SecretBox;
  readonly #now: () => number;

  constructor(private readonly deps: TwoFactorDeps) {
    this.#box = new SecretBox(deps.sessionSecret);
    this.#now = deps.clock ?? Date.now;
  }

  isEnabled = (userId: number): Promise<boolean> => twoFactorEnabled(this.deps.db, userId);

  /** Root requires a second factor of administrators, and this one has none yet. */
  async mustEnrol(user: { id: number; role: number }): Promise<boolean> {
    if (!isAdminRole(user.role) || !this.deps.options.bool('TwoFactorRequiredForAdmins')) return false;
    return !(await this.isEnabled(user.id));
  }

  async status(actor: Actor): Promise<TwoFactorStatus> {
    const row = await findTwoFactor(this.deps.db, actor.id);
    const enabled = Boolean(row?.enabled);
    return {
      enabled,
      required: isAdminRole(actor.role) && this.deps.options.bool('TwoFactorRequiredForAdmins'),
      recovery_codes_left: enabled ? parseRecoveryHashes(row?.recovery_codes ?? null).length : 0,
    };
  }

  /** A new secret, waiting for a code to confirm it; replaces one not yet confirmed. */
  async setup(actor: Actor): Promise<TwoFactorSetup> {
    if (this.deps.sessionSecretGenerated) throw new DomainError('two_factor_needs_session_secret');
    const secret = newTotpSecret();
    const kept = await saveUnconfirmedSecret(
      this.deps.db,
      actor.id,
      this.#box.seal(secret),
      Math.floor(this.#now() / 1000),
    );
    if (!kept) throw new DomainError('two_factor_already_enabled');
    const issuer = this.deps.options.get('SystemName') || 'Switchyard';
    const { uri, qrCode } = await enrolmentOf(secret, issuer, actor.username);
    return { secret, otpauth_uri: uri, qr_code: qrCode };
  }

  /** Confirms the waiting secret with a code from the app; answers the recovery codes, this once. */
  async enable(actor: Actor, code: string, ip: string): Promise<TwoFactorEnabled> {
    const row = await findTwoFactor(this.deps.db, actor.id);
    if (row?.enabled) throw new DomainError('two_factor_already_enabled');
    if (!row) throw new DomainError('two_factor_setup_missing');
    await this.#check(row, code, false);
    const codes = newRecoveryCodes();
    if (!(await enableTwoFactor(this.deps.db, actor.id, codes.map(hashRecoveryCode)))) {
      throw new DomainError('two_factor_already_enabled');
    }
    await this.#record(actor, actor, 'user.two_factor_enable', ip);
    return { recovery_codes: codes };
  }

  /** New recovery codes for a current code (or one of the old codes): the old ones stop working. */
  async renewRecoveryCodes(actor: Actor, code: string, ip: string): Promise<TwoFactorEnabled> {
    const row = await this.#enabledRow(actor.id);
    await this.#check(row, code, true);
    const codes = newRecoveryCodes();
    await setRecoveryCodes(this.deps.db, actor.id, codes.map(hashRecoveryCode));
    await this.#record(actor, actor, 'user.two_factor_recovery_codes', ip);
    return { recovery_codes: codes };
  }

  /** The user turns it off with a current code or a recovery code. */
  async disable(actor: Actor, code: string, ip: string): Promise<void> {
    const row = await this.#enabledRow(actor.id);
    await this.#check(row, code, true);
    await deleteTwoFactor(this.deps.db, actor.id);
    await this.#record(actor, actor, 'user.two_factor_disable', ip);
  }

  /** Root turns it off for a user who lost the device. */
  async reset(root: Actor, userId: number, ip: string): Promise<void> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw new DomainError('user_not_found');
    if (!(await deleteTwoFactor(this.deps.db, userId))) throw new DomainError('two_factor_not_enabled');
    await this.#record(root, user, 'user.two_factor_reset', ip);
  }

  /**
   * The second sign-in step of the user whose first step passed at `epoch`: a code from the app, or a
   * recovery code (used up, and audited). Answers the user to sign in.
   */
  async verifySignIn(pending: { id: number; epoch: number }, code: string, ip: string): Promise<UserRow> {
    const user = await waitingUser(this.deps.db, pending);
    const row = await this.#enabledRow(user.id);
    const how = await this.#check(row, code, true);
    if (how === 'recovery') await this.#record(user, user, 'auth.two_factor_recovery_code', ip);
    return user;
  }

  async #enabledRow(userId: number): Promise<TwoFactorRow> {
    const row = await findTwoFactor(this.deps.db, userId);
    if (!row?.enabled) throw new DomainError('two_factor_not_enabled');
    return row;
  }

  /** Counts the attempt, then takes the code once: a TOTP step never twice, a recovery code never again. */
  async #check(row: TwoFactorRow, typed: string, recoveryAllowed: boolean): Promise<'totp' | 'recovery'> {
    const { db } = this.deps;
    const now = this.#now();
    await countAttempt(db, row.user_id, now);
    const code = typed.replace(/\s/g, '');
    let how: 'totp' | 'recovery' | undefined;
    if (SIX_DIGITS.test(code)) {
      const secret = this.#box.open(row.secret);
      const step = secret === undefined ? undefined : stepOfCode(secret, code, now);
      if (step !== undefined && (await claimStep(db, row.user_id, step))) how = 'totp';
    } else if (recoveryAllowed) {
      const hashes = parseRecoveryHashes(row.recovery_codes);
      const hash = hashRecoveryCode(code);
      const left = hashes.filter((known) => known !== hash);
      if (
        left.length < hashes.length &&
        (await replaceRecoveryCodes(db, row.user_id, row.recovery_codes ?? '', left))
      ) {
        how = 'recovery';
      }
    }
    if (!how) throw new DomainError('two_factor_code_invalid');
    await clearAttempts(db, row.user_id);
    return how;
  }

  #record(actor: Actor, target: Actor, action: AuditAction, ip: string): Promise<void> {
    return recordTwoFactor(this.deps.audit, action, actor, target, ip);
  }
}

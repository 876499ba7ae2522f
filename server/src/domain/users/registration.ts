import { LogType, Role, UserStatus } from '@switchyard/contract/roles';
import type { RegisterInput } from '@switchyard/contract/users';
import { isUniqueViolation } from '../../db/insert';
import { insertLog } from '../../db/repos/logs';
import { addUserQuota, findUserByAffCode, findUserByUsername, insertUser } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { quotaText } from '../quota-text';
import type { VerificationCodes } from '../verification-codes';
import type { Passwords } from './passwords';
import { newAccessToken, type UserRecords } from './records';

export interface NewUserFields {
  username: string;
  password: string;
  display_name?: string;
  email?: string;
  github_id?: string;
  wechat_id?: string;
  lark_id?: string;
  oidc_subject?: string;
  inviterId?: number;
  role?: number;
  quota?: number;
  accessToken?: string;
}

/** New users: sign-up with its checks, and the new-user and invitation rewards every new user gets. */
export class Registration {
  constructor(
    private readonly deps: {
      records: UserRecords;
      options: OptionsStore;
      codes: VerificationCodes;
      passwords: Passwords;
    },
  ) {}

  /** Inserts a user with the new-user and invitation rewards, all in one transaction. */
  async create(fields: NewUserFields): Promise<UserRow> {
    const { options, records } = this.deps;
    const hashed = fields.password ? await this.deps.passwords.hash(fields.password) : '';
    const newUserQuota = options.number('QuotaForNewUser');
    const inviteeQuota = fields.inviterId ? options.number('QuotaForInvitee') : 0;
    const inviterQuota = fields.inviterId ? options.number('QuotaForInviter') : 0;
    try {
      const id = await inTransaction(records.db, async (tx) => {
        if (await findUserByUsername(tx, fields.username)) throw new DomainError('username_taken');
        const userId = await insertUser(tx, {
          username: fields.username,
          password: hashed,
          display_name: fields.display_name || fields.username,
          role: fields.role ?? Role.common,
          status: UserStatus.enabled,
          email: fields.email ?? '',
          github_id: fields.github_id ?? '',
          wechat_id: fields.wechat_id ?? '',
          lark_id: fields.lark_id ?? '',
          oidc_id: '',
          oidc_subject: fields.oidc_subject ?? '',
          access_token: fields.accessToken ?? newAccessToken(),
          quota: (fields.quota ?? newUserQuota) + inviteeQuota,
          used_quota: 0,
          request_count: 0,
          group: 'default',
          aff_code: await records.uniqueAffCode(tx),
          inviter_id: fields.inviterId ?? 0,
        });
        if (fields.quota === undefined && newUserQuota > 0) {
          await insertLog(tx, {
            user_id: userId,
            type: LogType.system,
            content: `New user bonus of ${quotaText(options, newUserQuota)}`,
            facts: { kind: 'new_user_bonus', quota: newUserQuota },
          });
        }
        if (fields.inviterId && inviteeQuota > 0) {
          await insertLog(tx, {
            user_id: userId,
            type: LogType.system,
            content: `Invitation bonus of ${quotaText(options, inviteeQuota)}`,
            facts: { kind: 'invitee_bonus', quota: inviteeQuota },
          });
        }
        if (fields.inviterId && inviterQuota > 0) {
          await addUserQuota(tx, fields.inviterId, inviterQuota);
          await insertLog(tx, {
            user_id: fields.inviterId,
            type: LogType.system,
            content: `Bonus of ${quotaText(options, inviterQuota)} for inviting a user`,
            facts: { kind: 'inviter_bonus', quota: inviterQuota },
          });
        }
        return userId;
      });
      return await records.getRow(id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('username_taken');
      throw error;
    }
  }

  async register(input: RegisterInput): Promise<void> {
    const { options, codes, records } = this.deps;
    if (!options.bool('RegisterEnabled')) throw new DomainError('registration_closed');
    if (!options.bool('PasswordRegisterEnabled')) {
      throw new DomainError('password_registration_off');
    }
    let email = '';
    if (options.bool('EmailVerificationEnabled')) {
      email = input.email ?? '';
      const code = input.verification_code ?? '';
      if (!email || !code) {
        throw new DomainError('email_verification_required');
      }
      if (!(await codes.verify('email-verification', email, code))) {
        throw new DomainError('verification_code_invalid');
      }
    }
    const inviter = input.aff_code ? await findUserByAffCode(records.db, input.aff_code) : undefined;
    await this.create({
      username: input.username,
      password: input.password,
      display_name: input.display_name,
      email,
      inviterId: inviter && inviter.status === UserStatus.enabled ? inviter.id : undefined,
    });
    if (email) await codes.discard('email-verification', email);
  }
}

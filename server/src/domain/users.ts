import { listOrder } from '@switchyard/contract/envelope';
import { isRootRole, LogType, Role, UserStatus } from '@switchyard/contract/roles';
import {
  type CreateUserInput,
  type ManageAction,
  type RegisterInput,
  type UpdateSelfInput,
  type UpdateUserInput,
  type User,
  userListOrders,
} from '@switchyard/contract/users';
import bcrypt from 'bcryptjs';
import { inTransaction, type Sql } from '../db/connect';
import { isUniqueViolation } from '../db/insert';
import { modelsForGroup } from '../db/repos/abilities';
import { insertLog } from '../db/repos/logs';
import {
  addUserQuota,
  findUserByAffCode,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  listUsers,
  searchUsers,
  type UserChanges,
  updateUser,
} from '../db/repos/users';
import type { UserRow } from '../db/schema';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import { type Actor, canManageUser } from './permissions';
import { quotaText } from './quota-text';
import { randomAlphanumeric, randomHex } from './random';
import type { VerificationCodes } from './verification-codes';

const BCRYPT_COST = 10;
const SEARCH_LIMIT = 100;

export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, BCRYPT_COST);

/** The user as the API shows it: the password hash and access token never leave the server this way. */
export function toApiUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    password: '',
    display_name: row.display_name ?? '',
    role: row.role,
    status: row.status,
    email: row.email ?? '',
    github_id: row.github_id ?? '',
    wechat_id: row.wechat_id ?? '',
    lark_id: row.lark_id ?? '',
    oidc_id: row.oidc_id ?? '',
    verification_code: '',
    access_token: '',
    quota: Number(row.quota ?? 0),
    used_quota: Number(row.used_quota ?? 0),
    request_count: Number(row.request_count ?? 0),
    group: row.group || 'default',
    aff_code: row.aff_code ?? '',
    inviter_id: Number(row.inviter_id ?? 0),
  };
}

export const newAccessToken = (): string => randomAlphanumeric(32);

export interface NewUserFields {
  username: string;
  password: string;
  display_name?: string;
  email?: string;
  github_id?: string;
  wechat_id?: string;
  lark_id?: string;
  inviterId?: number;
  role?: number;
  quota?: number;
  accessToken?: string;
}

export interface UserServiceDeps {
  db: Sql;
  options: OptionsStore;
  codes: VerificationCodes;
  /** Told after a user row changes, so caches of it (the relay's) drop it. */
  onUserChanged?: (id: number) => void;
}

export class UserService {
  constructor(private readonly deps: UserServiceDeps) {}

  private get db(): Sql {
    return this.deps.db;
  }

  async getRow(id: number): Promise<UserRow> {
    const row = await findUserById(this.db, id);
    if (!row || row.status === UserStatus.deleted) throw new DomainError('User does not exist');
    return row;
  }

  /** Inserts a user with the new-user and invitation rewards, all in one transaction. */
  async create(fields: NewUserFields): Promise<UserRow> {
    const { options } = this.deps;
    const hashed = fields.password ? await hashPassword(fields.password) : '';
    const newUserQuota = options.number('QuotaForNewUser');
    const inviteeQuota = fields.inviterId ? options.number('QuotaForInvitee') : 0;
    const inviterQuota = fields.inviterId ? options.number('QuotaForInviter') : 0;
    try {
      const id = await inTransaction(this.db, async (tx) => {
        if (await findUserByUsername(tx, fields.username))
          throw new DomainError('This username is already taken');
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
          access_token: fields.accessToken ?? newAccessToken(),
          quota: (fields.quota ?? newUserQuota) + inviteeQuota,
          used_quota: 0,
          request_count: 0,
          group: 'default',
          aff_code: await this.#uniqueAffCode(tx),
          inviter_id: fields.inviterId ?? 0,
        });
        if (fields.quota === undefined && newUserQuota > 0) {
          await insertLog(tx, {
            user_id: userId,
            type: LogType.system,
            content: `New user bonus of ${quotaText(options, newUserQuota)}`,
          });
        }
        if (fields.inviterId && inviteeQuota > 0) {
          await insertLog(tx, {
            user_id: userId,
            type: LogType.system,
            content: `Invitation bonus of ${quotaText(options, inviteeQuota)}`,
          });
        }
        if (fields.inviterId && inviterQuota > 0) {
          await addUserQuota(tx, fields.inviterId, inviterQuota);
          await insertLog(tx, {
            user_id: fields.inviterId,
            type: LogType.system,
            content: `Bonus of ${quotaText(options, inviterQuota)} for inviting a user`,
          });
        }
        return userId;
      });
      return await this.getRow(id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('This username is already taken');
      throw error;
    }
  }

  async register(input: RegisterInput): Promise<void> {
    const { options, codes } = this.deps;
    if (!options.bool('RegisterEnabled'))
      throw new DomainError('The administrator has closed new registrations');
    if (!options.bool('PasswordRegisterEnabled')) {
      throw new DomainError(
        'The administrator has turned off registration with a password; please sign up with a third-party account',
      );
    }
    let email = '';
    if (options.bool('EmailVerificationEnabled')) {
      email = input.email ?? '';
      const code = input.verification_code ?? '';
      if (!email || !code) {
        throw new DomainError('Email verification is on: enter your email address and the verification code');
      }
      if (!(await codes.verify('email-verification', email, code))) {
        throw new DomainError('The verification code is wrong or has expired');
      }
    }
    const inviter = input.aff_code ? await findUserByAffCode(this.db, input.aff_code) : undefined;
    await this.create({
      username: input.username,
      password: input.password,
      display_name: input.display_name,
      email,
      inviterId: inviter && inviter.status === UserStatus.enabled ? inviter.id : undefined,
    });
    if (email) await codes.discard('email-verification', email);
  }

  /** Checks a password login; the same message for every failure so accounts cannot be probed. */
  async verifyLogin(login: string, password: string): Promise<UserRow> {
    if (!this.deps.options.bool('PasswordLoginEnabled')) {
      throw new DomainError('The administrator has turned off login with a password');
    }
    const row = await findUserByLogin(this.db, login.trim());
    const matches = row?.password ? await bcrypt.compare(password, row.password) : false;
    if (!row || !matches || row.status !== UserStatus.enabled) {
      throw new DomainError('Wrong username or password, or the user has been banned');
    }
    return row;
  }

  async createByAdmin(actor: Actor, input: CreateUserInput): Promise<void> {
    if (input.role !== undefined && input.role >= actor.role) {
      throw new DomainError('You cannot create a user with a role equal to or higher than your own');
    }
    await this.create({
      username: input.username,
      password: input.password,
      display_name: input.display_name,
    });
  }

  async updateSelf(actor: Actor, input: UpdateSelfInput): Promise<void> {
    const current = await this.getRow(actor.id);
    const changes: UserChanges = {};
    if (input.username && input.username !== current.username) {
      await this.#ensureUsernameFree(input.username);
      changes.username = input.username;
    }
    if (input.display_name !== undefined) changes.display_name = input.display_name;
    if (input.password) changes.password = await hashPassword(input.password);
    await this.#write(actor.id, changes);
  }

  async deleteSelf(actor: Actor): Promise<void> {
    const row = await this.getRow(actor.id);
    if (isRootRole(row.role)) throw new DomainError('The super administrator account cannot be deleted');
    await this.#softDelete(row);
  }

  async getForAdmin(actor: Actor, id: number): Promise<User> {
    const row = await this.getRow(id);
    if (!canManageUser(actor, row.role)) {
      throw new DomainError('No permission to read a user of equal or higher role');
    }
    return toApiUser(row);
  }

  async list(page: number, order: string | undefined): Promise<User[]> {
    return (await listUsers(this.db, page, listOrder(userListOrders, order))).map(toApiUser);
  }

  async search(keyword: string): Promise<User[]> {
    return (await searchUsers(this.db, keyword.trim(), SEARCH_LIMIT)).map(toApiUser);
  }

  async updateByAdmin(actor: Actor, input: UpdateUserInput): Promise<User> {
    const current = await this.getRow(input.id);
    if (!canManageUser(actor, current.role)) {
      throw new DomainError('No permission to update a user of equal or higher role');
    }
    if (
      (input.role !== undefined && input.role !== current.role) ||
      (input.status !== undefined && input.status !== current.status)
    ) {
      throw new DomainError('Change a role or status with the promote, demote, enable and disable actions');
    }
    const changes: UserChanges = {};
    if (input.username && input.username !== current.username) {
      await this.#ensureUsernameFree(input.username);
      changes.username = input.username;
    }
    if (input.display_name !== undefined) changes.display_name = input.display_name;
    if (input.email !== undefined) changes.email = input.email;
    if (input.password) changes.password = await hashPassword(input.password);
    if (input.group !== undefined && input.group !== current.group) {
      if (!this.deps.options.groups().includes(input.group)) {
        throw new DomainError(`Group "${input.group}" does not exist; add it to the group ratios first`);
      }
      changes.group = input.group;
    }
    const quotaChanged = input.quota !== undefined && input.quota !== Number(current.quota);
    if (quotaChanged) changes.quota = input.quota;
    await inTransaction(this.db, async (tx) => {
      await updateUser(tx, current.id, changes);
      if (quotaChanged) {
        await insertLog(tx, {
          user_id: current.id,
          type: LogType.manage,
          username: current.username,
          content: `Administrator ${actor.username} changed the quota from ${quotaText(this.deps.options, Number(current.quota))} to ${quotaText(this.deps.options, input.quota as number)}`,
        });
      }
    });
    this.deps.onUserChanged?.(current.id);
    return toApiUser(await this.getRow(current.id));
  }

  /** Promote, demote, disable, enable or delete; answers the new role and status. */
  async manage(actor: Actor, username: string, action: ManageAction): Promise<Pick<User, 'role' | 'status'>> {
    const target = await findUserByUsername(this.db, username);
    if (!target || target.status === UserStatus.deleted) throw new DomainError('User does not exist');
    if (!canManageUser(actor, target.role)) {
      throw new DomainError('No permission to manage a user of equal or higher role');
    }
    const targetIsRoot = isRootRole(target.role);
    const changes: UserChanges = {};
    switch (action) {
      case 'disable':
        if (targetIsRoot) throw new DomainError('The super administrator cannot be disabled');
        changes.status = UserStatus.disabled;
        break;
      case 'enable':
        changes.status = UserStatus.enabled;
        break;
      case 'delete':
        if (targetIsRoot) throw new DomainError('The super administrator cannot be deleted');
        await this.#softDelete(target);
        return { role: target.role, status: UserStatus.deleted };
      case 'promote':
        if (!isRootRole(actor.role)) throw new DomainError('Only the super administrator can promote users');
        if (target.role >= Role.admin) throw new DomainError('This user is already an administrator');
        changes.role = Role.admin;
        break;
      case 'demote':
        if (targetIsRoot) throw new DomainError('The super administrator cannot be demoted');
        if (target.role === Role.common) throw new DomainError('This user is already a normal user');
        changes.role = Role.common;
        break;
    }
    await this.#update(target.id, changes);
    return { role: changes.role ?? target.role, status: changes.status ?? target.status };
  }

  async deleteByAdmin(actor: Actor, id: number): Promise<void> {
    const target = await this.getRow(id);
    if (!canManageUser(actor, target.role)) {
      throw new DomainError('No permission to delete a user of equal or higher role');
    }
    if (isRootRole(target.role)) throw new DomainError('The super administrator cannot be deleted');
    await this.#softDelete(target);
  }

  async regenerateAccessToken(actor: Actor): Promise<string> {
    const token = newAccessToken();
    await this.#update(actor.id, { access_token: token });
    return token;
  }

  async affCode(actor: Actor): Promise<string> {
    const row = await this.getRow(actor.id);
    if (row.aff_code) return row.aff_code;
    const code = await this.#uniqueAffCode(this.db);
    await this.#update(actor.id, { aff_code: code });
    return code;
  }

  async availableModels(actor: Actor): Promise<string[]> {
    const row = await this.getRow(actor.id);
    return modelsForGroup(this.db, row.group || 'default');
  }

  /** Admin top-up: adds quota and writes a top-up log. */
  async topUp(actor: Actor, userId: number, quota: number, remark: string | undefined): Promise<void> {
    if (quota <= 0) throw new DomainError('The top-up amount must be greater than 0');
    const target = await this.getRow(userId);
    await inTransaction(this.db, async (tx) => {
      await addUserQuota(tx, target.id, quota);
      await insertLog(tx, {
        user_id: target.id,
        username: target.username,
        type: LogType.topup,
        quota,
        content: remark?.trim() || `Top-up of ${quotaText(this.deps.options, quota)} by ${actor.username}`,
      });
    });
  }

  async #update(id: number, changes: UserChanges): Promise<void> {
    await updateUser(this.db, id, changes);
    this.deps.onUserChanged?.(id);
  }

  async #ensureUsernameFree(username: string): Promise<void> {
    if (await findUserByUsername(this.db, username)) throw new DomainError('This username is already taken');
  }

  async #write(id: number, changes: UserChanges): Promise<void> {
    try {
      await this.#update(id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('This username is already taken');
      throw error;
    }
  }

  /** One-api's soft delete: the row stays (logs keep their owner), the username is freed. */
  async #softDelete(row: UserRow): Promise<void> {
    await this.#update(row.id, {
      username: `deleted_${randomHex(32)}`,
      status: UserStatus.deleted,
      access_token: newAccessToken(),
    });
  }

  async #uniqueAffCode(db: Sql): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const code = randomAlphanumeric(4);
      if (!(await findUserByAffCode(db, code))) return code;
    }
    throw new DomainError('Could not generate an invitation code; please retry');
  }
}

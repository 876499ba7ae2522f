import { listOrder, SEARCH_LIMIT } from '@switchyard/contract/envelope';
import { RATE_LIMIT_FIELDS } from '@switchyard/contract/limits';
import { isRootRole, LogType, UserStatus } from '@switchyard/contract/roles';
import {
  type CreateUserInput,
  type ManageAction,
  type UpdateUserInput,
  type User,
  userListOrders,
} from '@switchyard/contract/users';
import { insertLog } from '../../db/repos/logs';
import {
  findUserByUsername,
  listUsers,
  searchUsers,
  type UserChanges,
  updateUser,
} from '../../db/repos/users';
import { inTransaction } from '../../db/transaction';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { type Actor, canManageUser, userVisibility } from '../permissions';
import { quotaText } from '../quota-text';
import { toApiUser } from './api-user';
import type { Passwords } from './passwords';
import type { UserRecords } from './records';
import type { Registration } from './registration';
import { manageTransition } from './role-status';

/** The administrators' user screens: list, search, read, create, edit, manage and delete. */
export class UserAdmin {
  constructor(
    private readonly deps: {
      records: UserRecords;
      registration: Registration;
      options: OptionsStore;
      passwords: Passwords;
    },
  ) {}

  async createByAdmin(actor: Actor, input: CreateUserInput): Promise<void> {
    if (input.role !== undefined && input.role >= actor.role) {
      throw new DomainError('user_create_forbidden');
    }
    await this.deps.registration.create({
      username: input.username,
      password: input.password,
      display_name: input.display_name,
    });
  }

  async getForAdmin(actor: Actor, id: number): Promise<User> {
    const row = await this.deps.records.getRow(id);
    if (!canManageUser(actor, row.role)) {
      throw new DomainError('user_read_forbidden');
    }
    return toApiUser(row);
  }

  async list(actor: Actor, page: number, order: string | undefined): Promise<User[]> {
    const order_ = listOrder(userListOrders, order);
    return (await listUsers(this.deps.records.db, page, order_, userVisibility(actor))).map(toApiUser);
  }

  async search(actor: Actor, keyword: string): Promise<User[]> {
    const rows = await searchUsers(this.deps.records.db, keyword.trim(), SEARCH_LIMIT, userVisibility(actor));
    return rows.map(toApiUser);
  }

  async updateByAdmin(actor: Actor, input: UpdateUserInput): Promise<User> {
    const { records, options } = this.deps;
    const current = await records.getRow(input.id);
    if (!canManageUser(actor, current.role)) {
      throw new DomainError('user_update_forbidden');
    }
    if (
      (input.role !== undefined && input.role !== current.role) ||
      (input.status !== undefined && input.status !== current.status)
    ) {
      throw new DomainError('user_role_by_actions');
    }
    const changes: UserChanges = {};
    if (input.username && input.username !== current.username) {
      await records.ensureUsernameFree(input.username);
      changes.username = input.username;
    }
    if (input.display_name !== undefined) changes.display_name = input.display_name;
    if (input.email !== undefined) changes.email = input.email;
    if (input.password) changes.password = await this.deps.passwords.hash(input.password);
    if (input.group !== undefined && input.group !== current.group) {
      if (!options.groups().includes(input.group)) {
        throw new DomainError('user_group_unknown', { group: input.group });
      }
      changes.group = input.group;
    }
    for (const field of RATE_LIMIT_FIELDS) {
      const value = input[field];
      if (value !== undefined) changes[field] = value > 0 ? value : null;
    }
    const quotaChanged = input.quota !== undefined && input.quota !== Number(current.quota);
    if (quotaChanged) changes.quota = input.quota;
    await inTransaction(records.db, async (tx) => {
      await updateUser(tx, current.id, changes, { endSessions: changes.password !== undefined });
      if (quotaChanged) {
        await insertLog(tx, {
          user_id: current.id,
          type: LogType.manage,
          username: current.username,
          content: `Administrator ${actor.username} changed the quota from ${quotaText(options, Number(current.quota))} to ${quotaText(options, input.quota as number)}`,
          facts: {
            kind: 'quota_change',
            from: Number(current.quota),
            to: input.quota as number,
            by: actor.username,
          },
        });
      }
    });
    records.changed(current.id);
    return toApiUser(await records.getRow(current.id));
  }

  /** Promote, demote, disable, enable or delete; answers the new role and status. */
  async manage(actor: Actor, username: string, action: ManageAction): Promise<Pick<User, 'role' | 'status'>> {
    const { records } = this.deps;
    const target = await findUserByUsername(records.db, username);
    if (!target || target.status === UserStatus.deleted) throw new DomainError('user_not_found');
    if (!canManageUser(actor, target.role)) {
      throw new DomainError('user_manage_forbidden');
    }
    const changes = manageTransition(actor, target, action);
    if (changes === 'delete') {
      await records.softDelete(target);
      return { role: target.role, status: UserStatus.deleted };
    }
    // A ban or a demotion ends the target's sessions: re-enabling does not bring them back.
    const endSessions = changes.status === UserStatus.disabled || (changes.role ?? target.role) < target.role;
    await records.update(target.id, changes, { endSessions });
    return { role: changes.role ?? target.role, status: changes.status ?? target.status };
  }

  async deleteByAdmin(actor: Actor, id: number): Promise<void> {
    const target = await this.deps.records.getRow(id);
    if (!canManageUser(actor, target.role)) {
      throw new DomainError('user_delete_forbidden');
    }
    if (isRootRole(target.role)) throw new DomainError('root_undeletable');
    await this.deps.records.softDelete(target);
  }
}

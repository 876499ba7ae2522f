import { isRootRole } from '@switchyard/contract/roles';
import type { UpdateSelfInput } from '@switchyard/contract/users';
import { modelsForGroup } from '../../db/repos/abilities';
import type { UserChanges } from '../../db/repos/users';
import { DomainError } from '../errors';
import type { Actor } from '../permissions';
import type { Passwords } from './passwords';
import { newAccessToken, type UserRecords } from './records';

/** What a signed-in user does to their own account: edit, delete, access token, invitation code, models. */
export class SelfService {
  constructor(
    private readonly records: UserRecords,
    private readonly passwords: Passwords,
  ) {}

  async updateSelf(actor: Actor, input: UpdateSelfInput): Promise<void> {
    const current = await this.records.getRow(actor.id);
    const changes: UserChanges = {};
    if (input.username && input.username !== current.username) {
      await this.records.ensureUsernameFree(input.username);
      changes.username = input.username;
    }
    if (input.display_name !== undefined) changes.display_name = input.display_name;
    if (input.password) changes.password = await this.passwords.hash(input.password);
    // A new password ends every session; the route gives the caller's browser a new one.
    await this.records.updateNamed(actor.id, changes, { endSessions: Boolean(input.password) });
  }

  /** "Sign out everywhere": every session of the user ends, on every process. */
  async endSessions(actor: Actor): Promise<void> {
    await this.records.update(actor.id, {}, { endSessions: true });
  }

  async deleteSelf(actor: Actor): Promise<void> {
    const row = await this.records.getRow(actor.id);
    if (isRootRole(row.role)) throw new DomainError('root_account_undeletable');
    await this.records.softDelete(row);
  }

  async regenerateAccessToken(actor: Actor): Promise<string> {
    const token = newAccessToken();
    await this.records.update(actor.id, { access_token: token });
    return token;
  }

  async affCode(actor: Actor): Promise<string> {
    const row = await this.records.getRow(actor.id);
    if (row.aff_code) return row.aff_code;
    const code = await this.records.uniqueAffCode();
    await this.records.update(actor.id, { aff_code: code });
    return code;
  }

  async availableModels(actor: Actor): Promise<string[]> {
    const row = await this.records.getRow(actor.id);
    return modelsForGroup(this.records.db, row.group || 'default');
  }
}

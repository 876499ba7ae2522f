import { UserStatus } from '@switchyard/contract/roles';
import type { Sql } from '../../db/connect';
import { isUniqueViolation } from '../../db/insert';
import {
  findUserByAffCode,
  findUserById,
  findUserByUsername,
  type UserChanges,
  updateUser,
} from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { DomainError } from '../errors';
import { randomAlphanumeric, randomHex } from '../random';

export const newAccessToken = (): string => randomAlphanumeric(32);

/** Reads and writes of user rows that every user service shares; each write tells the caches. */
export class UserRecords {
  constructor(
    private readonly deps: {
      db: Sql;
      /** Told after a user row changes, so caches of it (the relay's) drop it. */
      onUserChanged?: (id: number) => void;
    },
  ) {}

  get db(): Sql {
    return this.deps.db;
  }

  async getRow(id: number): Promise<UserRow> {
    const row = await findUserById(this.db, id);
    if (!row || row.status === UserStatus.deleted) throw new DomainError('user_not_found');
    return row;
  }

  /** With `endSessions`, every session of the user ends in the same statement. */
  async update(id: number, changes: UserChanges, options?: { endSessions?: boolean }): Promise<void> {
    await updateUser(this.db, id, changes, options);
    this.changed(id);
  }

  changed(id: number): void {
    this.deps.onUserChanged?.(id);
  }

  /** An update that may rename: a name taken meanwhile is refused, not a database error. */
  async updateNamed(id: number, changes: UserChanges, options?: { endSessions?: boolean }): Promise<void> {
    try {
      await this.update(id, changes, options);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('username_taken');
      throw error;
    }
  }

  async ensureUsernameFree(username: string): Promise<void> {
    if (await findUserByUsername(this.db, username)) throw new DomainError('username_taken');
  }

  /** One-api's soft delete: the row stays (logs keep their owner), the username is freed, sessions end. */
  async softDelete(row: UserRow): Promise<void> {
    await this.update(
      row.id,
      { username: `deleted_${randomHex(32)}`, status: UserStatus.deleted, access_token: newAccessToken() },
      { endSessions: true },
    );
  }

  async uniqueAffCode(db: Sql = this.db): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const code = randomAlphanumeric(4);
      if (!(await findUserByAffCode(db, code))) return code;
    }
    throw new DomainError('aff_code_exhausted');
  }
}

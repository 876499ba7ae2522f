import { Role, UserStatus } from '@switchyard/contract/roles';
import type { Sql } from '../connect';
import type { UserRow } from '../schema';

/** The columns that link a user to an outside account. */
export type IdentityColumn = 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_subject';

/** The live (not deleted) user linked to an outside account, if any. */
export const findUserByIdentity = (
  db: Sql,
  column: IdentityColumn,
  value: string,
): Promise<UserRow | undefined> =>
  db.kysely
    .selectFrom('users')
    .selectAll()
    .where(column, '=', value)
    .where('status', '!=', UserStatus.deleted)
    .orderBy('id')
    .executeTakeFirst();

export const findUserByEmail = (db: Sql, email: string): Promise<UserRow | undefined> =>
  db.kysely
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('status', '!=', UserStatus.deleted)
    .orderBy('id')
    .executeTakeFirst();

/** The first super administrator: who hears about channel trouble. */
export const findRootUser = (db: Sql): Promise<UserRow | undefined> =>
  db.kysely
    .selectFrom('users')
    .selectAll()
    .where('role', '>=', Role.root)
    .where('status', '!=', UserStatus.deleted)
    .orderBy('id')
    .executeTakeFirst();

export async function maxUserId(db: Sql): Promise<number> {
  const row = await db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export async function setIdentity(
  db: Sql,
  userId: number,
  column: IdentityColumn,
  value: string,
): Promise<void> {
  await db.kysely
    .updateTable('users')
    .set({ [column]: value })
    .where('id', '=', userId)
    .execute();
}

export async function setEmail(db: Sql, userId: number, email: string): Promise<void> {
  await db.kysely.updateTable('users').set({ email }).where('id', '=', userId).execute();
}

/**
 * Sets the password of every live user with this email (one-api resets them all) and ends their
 * sessions. Answers how many.
 */
export async function setPasswordByEmail(db: Sql, email: string, passwordHash: string): Promise<number> {
  const result = await db.kysely
    .updateTable('users')
    .set((eb) => ({ password: passwordHash, session_epoch: eb('session_epoch', '+', 1) }))
    .where('email', '=', email)
    .where('status', '!=', UserStatus.deleted)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

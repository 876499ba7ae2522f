import { ITEMS_PER_PAGE, wholeNumberText } from '@switchyard/contract/envelope';
import { UserStatus } from '@switchyard/contract/roles';
import type { userListOrders } from '@switchyard/contract/users';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { NewUserRow, UserRow, UsersTable } from '../schema';

export type UserListOrder = (typeof userListOrders)[number] | 'id';
export type UserChanges = Partial<Omit<UsersTable, 'id' | 'held_quota'>>;

export const findUserById = (db: Sql, id: number): Promise<UserRow | undefined> =>
  db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByUsername = (db: Sql, username: string): Promise<UserRow | undefined> =>
  db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

export const findUserByAccessToken = (db: Sql, accessToken: string): Promise<UserRow | undefined> =>
  db.kysely.selectFrom('users').selectAll().where('access_token', '=', accessToken).executeTakeFirst();

export const findUserByAffCode = (db: Sql, affCode: string): Promise<UserRow | undefined> =>
  db.kysely.selectFrom('users').selectAll().where('aff_code', '=', affCode).executeTakeFirst();

/** Login accepts a username or an email; the username wins when both match different rows. */
export async function findUserByLogin(db: Sql, login: string): Promise<UserRow | undefined> {
  const byName = await findUserByUsername(db, login);
  if (byName) return byName;
  if (!login.includes('@')) return undefined;
  return db.kysely
    .selectFrom('users')
    .selectAll()
    .where('email', '=', login)
    .where('status', '!=', UserStatus.deleted)
    .orderBy('id')
    .executeTakeFirst();
}

export async function countUsers(db: Sql): Promise<number> {
  const row = await db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export const insertUser = (db: Sql, user: NewUserRow): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('users').values(user));

export async function updateUser(db: Sql, id: number, changes: UserChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.kysely.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Adds (or, with a negative amount, removes) quota in one atomic statement. */
export async function addUserQuota(db: Sql, id: number, amount: number): Promise<void> {
  await db.kysely
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', id)
    .execute();
}

export function listUsers(db: Sql, page: number, order: UserListOrder): Promise<UserRow[]> {
  return db.kysely
    .selectFrom('users')
    .selectAll()
    .where('status', '!=', UserStatus.deleted)
    .orderBy(order, 'desc')
    .$if(order !== 'id', (query) => query.orderBy('id', 'desc'))
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();
}

/** Prefix match on username, email and display name, or an exact id. */
export function searchUsers(db: Sql, keyword: string, limit: number): Promise<UserRow[]> {
  const id = wholeNumberText(keyword);
  return db.kysely
    .selectFrom('users')
    .selectAll()
    .where('status', '!=', UserStatus.deleted)
    .where((eb) =>
      eb.or([
        ...(id === undefined ? [] : [eb('id', '=', id)]),
        startsWith('username', keyword),
        startsWith('email', keyword),
        startsWith('display_name', keyword),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

import { ITEMS_PER_PAGE, wholeNumberText } from '@switchyard/contract/envelope';
import { UserStatus } from '@switchyard/contract/roles';
import type { userListOrders } from '@switchyard/contract/users';
import type { SelectQueryBuilder } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { Database, NewUserRow, UserRow, UsersTable } from '../schema';

export type UserListOrder = (typeof userListOrders)[number] | 'id';

/**
 * Which users a reader may see (built by permissions.ts's userVisibility): those below a role and
 * the reader's own row. Undefined: everyone.
 */
export interface UserVisibility {
  belowRole: number;
  selfId: number;
}

/** The query narrowed to the users the reader may see. */
function visibleOnly<Q extends SelectQueryBuilder<Database, 'users', object>>(
  query: Q,
  visibility: UserVisibility | undefined,
): Q {
  if (!visibility) return query;
  return query.where((eb) =>
    eb.or([eb('role', '<', visibility.belowRole), eb('id', '=', visibility.selfId)]),
  ) as Q;
}

/**
 * The ids of the users a reader may not see: few (the administrators and root), so that logs, which
 * may be kept in another database, can be read without theirs.
 */
export async function hiddenUserIds(db: Sql, visibility: UserVisibility | undefined): Promise<number[]> {
  if (!visibility) return [];
  const rows = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('role', '>=', visibility.belowRole)
    .where('id', '!=', visibility.selfId)
    .execute();
  return rows.map((row) => row.id);
}
export type UserChanges = Partial<Omit<UsersTable, 'id' | 'held_quota' | 'session_epoch'>>;

export const findUserById = (db: Sql, id: number): Promise<UserRow | undefined> =>
  db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** Who a session cookie says is signed in, and the user's session epoch when it was issued. */
export interface SignedInSession {
  id: number;
  epoch: number;
}

/** Whether a session still holds for its user: their sessions were not ended since it was issued. */
export const sessionHolds = (user: UserRow, session: SignedInSession): boolean =>
  Number(user.session_epoch) === session.epoch;

/** The user of a session that still holds. */
export async function findSessionUser(db: Sql, session: SignedInSession): Promise<UserRow | undefined> {
  const user = await findUserById(db, session.id);
  return user && sessionHolds(user, session) ? user : undefined;
}

/** Ends the sessions of that user issued at that epoch, if they still hold (one statement). */
export async function endSessionsAt(db: Sql, session: SignedInSession): Promise<void> {
  await db.kysely
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', session.id)
    .where('session_epoch', '=', session.epoch)
    .execute();
}

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

/** With `endSessions`, the same statement ends every session of the user (it raises the epoch). */
export async function updateUser(
  db: Sql,
  id: number,
  changes: UserChanges,
  { endSessions = false } = {},
): Promise<void> {
  if (Object.keys(changes).length === 0 && !endSessions) return;
  await db.kysely
    .updateTable('users')
    .set((eb) => (endSessions ? { ...changes, session_epoch: eb('session_epoch', '+', 1) } : changes))
    .where('id', '=', id)
    .execute();
}

/** Adds (or, with a negative amount, removes) quota in one atomic statement. */
export async function addUserQuota(db: Sql, id: number, amount: number): Promise<void> {
  await db.kysely
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', id)
    .execute();
}

/** Takes `amount` of a user's quota in one guarded statement: never below zero. Answers whether it did. */
export async function takeUserQuota(db: Sql, id: number, amount: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', id)
    .where('quota', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A user's quota read with the row locked until the transaction ends (on SQLite the transaction's
 * first write already holds the database), for a change that must not go below zero.
 */
export async function lockedUserQuota(db: Sql, id: number): Promise<number | undefined> {
  const query = db.kysely.selectFrom('users').select('quota').where('id', '=', id);
  const row = await (db.dialect === 'sqlite' ? query : query.forUpdate()).executeTakeFirst();
  return row === undefined ? undefined : Number(row.quota);
}

export function listUsers(
  db: Sql,
  page: number,
  order: UserListOrder,
  visibility: UserVisibility | undefined,
): Promise<UserRow[]> {
  return visibleOnly(db.kysely.selectFrom('users').selectAll(), visibility)
    .where('status', '!=', UserStatus.deleted)
    .orderBy(order, 'desc')
    .$if(order !== 'id', (query) => query.orderBy('id', 'desc'))
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();
}

/** Prefix match on username, email and display name, or an exact id. */
export function searchUsers(
  db: Sql,
  keyword: string,
  limit: number,
  visibility: UserVisibility | undefined,
): Promise<UserRow[]> {
  const id = wholeNumberText(keyword);
  return visibleOnly(db.kysely.selectFrom('users').selectAll(), visibility)
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

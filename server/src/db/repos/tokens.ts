import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import { TokenStatus } from '@switchyard/contract/roles';
import type { tokenListOrders } from '@switchyard/contract/tokens';
import type { Insertable } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { TokenRow, TokensTable } from '../schema';

export type TokenListOrder = (typeof tokenListOrders)[number] | 'id';
export type TokenChanges = Partial<Omit<TokensTable, 'id' | 'user_id' | 'key' | 'held_quota'>>;

export const insertToken = (db: Sql, token: Insertable<TokensTable>): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('tokens').values(token));

/** Every token query is scoped to its owner: a user never reaches another user's token. */
export const findOwnToken = (db: Sql, userId: number, id: number): Promise<TokenRow | undefined> =>
  db.kysely
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** A user's enabled keys, newest first (the playground's choice). */
export function listOwnEnabledTokens(db: Sql, userId: number, limit: number): Promise<TokenRow[]> {
  return db.kysely
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', TokenStatus.enabled)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function listOwnTokens(
  db: Sql,
  userId: number,
  page: number,
  order: TokenListOrder,
): Promise<TokenRow[]> {
  let query = db.kysely.selectFrom('tokens').selectAll().where('user_id', '=', userId);
  if (order === 'remain_quota')
    query = query.orderBy('unlimited_quota', 'desc').orderBy('remain_quota', 'desc');
  if (order === 'used_quota') query = query.orderBy('used_quota', 'desc');
  return query
    .orderBy('id', 'desc')
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();
}

export const searchOwnTokens = (
  db: Sql,
  userId: number,
  keyword: string,
  limit: number,
): Promise<TokenRow[]> =>
  db.kysely
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where(startsWith('name', keyword))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export async function updateOwnToken(
  db: Sql,
  userId: number,
  id: number,
  changes: TokenChanges,
): Promise<void> {
  await db.kysely
    .updateTable('tokens')
    .set(changes)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteOwnToken(db: Sql, userId: number, id: number): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const findTokenByKey = (db: Sql, key: string): Promise<TokenRow | undefined> =>
  db.kysely.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirst();

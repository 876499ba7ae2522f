import { ITEMS_PER_PAGE, wholeNumberText } from '@switchyard/contract/envelope';
import { RedemptionStatus } from '@switchyard/contract/roles';
import type { Insertable } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { RedemptionRow, RedemptionsTable } from '../schema';

export const insertRedemption = (db: Sql, row: Insertable<RedemptionsTable>): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('redemptions').values(row));

export const findRedemption = (db: Sql, id: number): Promise<RedemptionRow | undefined> =>
  db.kysely.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();

export const findRedemptionByKey = (db: Sql, key: string): Promise<RedemptionRow | undefined> =>
  db.kysely.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirst();

export const listRedemptions = (db: Sql, page: number): Promise<RedemptionRow[]> =>
  db.kysely
    .selectFrom('redemptions')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();

export function searchRedemptions(db: Sql, keyword: string, limit: number): Promise<RedemptionRow[]> {
  const id = wholeNumberText(keyword);
  return db.kysely
    .selectFrom('redemptions')
    .selectAll()
    .where((eb) => eb.or([...(id === undefined ? [] : [eb('id', '=', id)]), startsWith('name', keyword)]))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function updateRedemption(
  db: Sql,
  id: number,
  changes: Partial<Pick<RedemptionsTable, 'name' | 'quota' | 'status'>>,
): Promise<void> {
  await db.kysely.updateTable('redemptions').set(changes).where('id', '=', id).execute();
}

export async function deleteRedemption(db: Sql, id: number): Promise<boolean> {
  const result = await db.kysely.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Marks an unused code as used by `userId` in one conditional statement: of any number of
 * concurrent attempts, exactly one changes the row. Answers whether this call was that one.
 */
export async function claimRedemption(db: Sql, key: string, userId: number, now: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable('redemptions')
    .set({ status: RedemptionStatus.used, redeemed_time: now, user_id: userId })
    .where('key', '=', key)
    .where('status', '=', RedemptionStatus.unused)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

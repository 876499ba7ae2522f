import type { channelListOrders } from '@switchyard/contract/channels';
import { ITEMS_PER_PAGE, wholeNumberText } from '@switchyard/contract/envelope';
import { ChannelStatus } from '@switchyard/contract/roles';
import { type Insertable, sql } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { ChannelRow, ChannelsTable } from '../schema';

export type ChannelChanges = Partial<Omit<ChannelsTable, 'id'>>;

export const insertChannel = (db: Sql, row: Insertable<ChannelsTable>): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('channels').values(row));

export const findChannel = (db: Sql, id: number): Promise<ChannelRow | undefined> =>
  db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();

export type ChannelListOrder = (typeof channelListOrders)[number] | 'id';

/** One page, largest first by `order`, then newest first (an unset priority counts as 0 on every database). */
export const listChannels = (db: Sql, page: number, order: ChannelListOrder): Promise<ChannelRow[]> =>
  db.kysely
    .selectFrom('channels')
    .selectAll()
    .$if(order === 'priority', (query) => query.orderBy(sql`coalesce(priority, 0)`, 'desc'))
    .$if(order === 'balance' || order === 'response_time', (query) =>
      query.orderBy(order as 'balance' | 'response_time', 'desc'),
    )
    .orderBy('id', 'desc')
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();

export const allChannels = (db: Sql): Promise<ChannelRow[]> =>
  db.kysely.selectFrom('channels').selectAll().orderBy('id', 'desc').execute();

export function searchChannels(db: Sql, keyword: string, limit: number): Promise<ChannelRow[]> {
  const id = wholeNumberText(keyword);
  return db.kysely
    .selectFrom('channels')
    .selectAll()
    .where((eb) => eb.or([...(id === undefined ? [] : [eb('id', '=', id)]), startsWith('name', keyword)]))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function updateChannel(db: Sql, id: number, changes: ChannelChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.kysely.updateTable('channels').set(changes).where('id', '=', id).execute();
}

export async function deleteChannel(db: Sql, id: number): Promise<boolean> {
  const result = await db.kysely.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const disabledChannelIds = async (db: Sql): Promise<number[]> =>
  (
    await db.kysely
      .selectFrom('channels')
      .select('id')
      .where('status', 'in', [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled])
      .execute()
  ).map((row) => row.id);

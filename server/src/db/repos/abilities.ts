import type { Sql } from '../connect';

/** Models that enabled channels serve to a group, sorted. */
export async function modelsForGroup(db: Sql, group: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', true)
    .orderBy('model')
    .execute();
  return rows.map((row) => row.model);
}

export interface AbilityRow {
  group: string;
  model: string;
  channel_id: number;
  enabled: boolean;
  priority: number;
}

/** Replaces a channel's abilities; callers run it in the transaction that writes the channel. */
export async function replaceChannelAbilities(db: Sql, channelId: number, rows: AbilityRow[]): Promise<void> {
  await db.kysely.deleteFrom('abilities').where('channel_id', '=', channelId).execute();
  for (let start = 0; start < rows.length; start += 500) {
    await db.kysely
      .insertInto('abilities')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

export async function deleteAbilitiesOf(db: Sql, channelIds: number[]): Promise<void> {
  if (channelIds.length === 0) return;
  await db.kysely.deleteFrom('abilities').where('channel_id', 'in', channelIds).execute();
}

export async function allAbilities(db: Sql): Promise<AbilityRow[]> {
  const rows = await db.kysely.selectFrom('abilities').selectAll().execute();
  return rows.map((row) => ({ ...row, enabled: Boolean(row.enabled), priority: Number(row.priority ?? 0) }));
}

/** The models enabled channels serve to these groups, with each channel's type (prices depend on it). */
export async function servedModels(
  db: Sql,
  groups: readonly string[],
): Promise<Array<{ group: string; model: string; type: number }>> {
  if (groups.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select(['abilities.group as group', 'abilities.model as model', 'channels.type as type'])
    .distinct()
    .where('abilities.group', 'in', groups)
    .where('abilities.enabled', '=', true)
    .execute();
  return rows.map((row) => ({ group: row.group, model: row.model, type: Number(row.type ?? 0) }));
}

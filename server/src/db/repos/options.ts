import type { Sql } from '../connect';

export async function loadOptionRows(db: Sql): Promise<Map<string, string>> {
  const rows = await db.kysely.selectFrom('options').select(['key', 'value']).execute();
  return new Map(rows.map((row) => [row.key, row.value ?? '']));
}

export async function saveOption(db: Sql, key: string, value: string): Promise<void> {
  await db.kysely
    .insertInto('options')
    .values({ key, value })
    .$call((query) =>
      db.dialect === 'mysql'
        ? query.onDuplicateKeyUpdate({ value })
        : query.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })),
    )
    .execute();
}

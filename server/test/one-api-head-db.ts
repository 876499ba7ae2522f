import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../src/db/database';
import { TEST_DIALECT, type TestDatabase } from './databases';

/** The channels and abilities tables as gorm creates them for one-api HEAD (`config`, `system_prompt`). */
function headDdl(): string[] {
  const q = (name: string) => (TEST_DIALECT === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const id = {
    sqlite: 'integer primary key autoincrement',
    postgres: 'bigserial primary key',
    mysql: 'bigint auto_increment primary key',
  }[TEST_DIALECT];
  const str = TEST_DIALECT === 'mysql' ? 'varchar(191)' : 'text';
  const big = TEST_DIALECT === 'sqlite' ? 'integer' : 'bigint';
  const long = TEST_DIALECT === 'mysql' ? 'longtext' : 'text';
  const bool = TEST_DIALECT === 'sqlite' ? 'numeric' : 'boolean';
  return [
    `create table channels (id ${id}, type ${big} default 0, ${q('key')} ${long}, status ${big} default 1,
      name ${str}, weight ${big} default 0, created_time ${big}, test_time ${big}, response_time ${big},
      base_url ${str} default '', other ${long}, balance double precision, balance_updated_time ${big},
      models ${long}, ${q('group')} varchar(32) default 'default', used_quota ${big} default 0,
      model_mapping varchar(1024) default '', priority ${big} default 0, config ${long}, system_prompt ${long})`,
    `create table abilities (${q('group')} varchar(32), model varchar(191), channel_id ${big}, enabled ${bool},
      priority ${big} default 0, primary key (${q('group')}, model, channel_id))`,
  ];
}

/** One enabled channel row of group `default` as one-api HEAD stores it. */
export interface HeadChannelRow {
  id: number;
  type: number;
  key: string;
  baseUrl: string;
  models: string;
  modelMapping?: string | null;
  config?: string | null;
  other?: string | null;
  systemPrompt?: string | null;
}

/**
 * The config column as one-api HEAD's console saves it: its whole config object, empty strings
 * included, with the given settings filled in.
 */
export const headConfig = (settings: Record<string, string> = {}) =>
  JSON.stringify({
    region: '',
    sk: '',
    ak: '',
    user_id: '',
    vertex_ai_project_id: '',
    vertex_ai_adc: '',
    ...settings,
  });

async function insertHeadChannel(db: Kysely<unknown>, row: HeadChannelRow): Promise<void> {
  await sql`insert into channels (id, type, ${sql.ref('key')}, status, name, weight, created_time, base_url,
      other, models, ${sql.ref('group')}, model_mapping, priority, config, system_prompt)
    values (${row.id}, ${row.type}, ${row.key}, 1, ${`head-${row.type}`}, 0, 1700000000, ${row.baseUrl},
      ${row.other ?? null}, ${row.models}, 'default', ${row.modelMapping ?? ''}, 0, ${row.config ?? null},
      ${row.systemPrompt ?? null})`.execute(db);
  for (const model of row.models.split(',').filter(Boolean)) {
    await sql`insert into abilities (${sql.ref('group')}, model, channel_id, enabled, priority)
      values ('default', ${model}, ${row.id}, ${true}, 0)`.execute(db);
  }
}

/**
 * Fills an empty test database with one-api HEAD's channels and abilities tables and the rows given
 * (with their abilities); `more` may add rows of its own before the database is closed.
 */
export async function seedHeadDatabase(
  database: TestDatabase,
  rows: HeadChannelRow[],
  more?: (db: Kysely<unknown>) => Promise<void>,
): Promise<void> {
  const db = openDatabase(database.target);
  try {
    for (const statement of headDdl()) await sql.raw(statement).execute(db.kysely);
    for (const row of rows) await insertHeadChannel(db.kysely as Kysely<unknown>, row);
    await more?.(db.kysely as Kysely<unknown>);
  } finally {
    await db.close();
  }
}

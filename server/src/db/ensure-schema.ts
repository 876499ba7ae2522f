import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from './connect';
import type { ColumnDefinition, ColumnType, IndexDefinition, TableDefinition } from './table-definitions';

// Migrations run against the untyped schema: they create what the typed interface describes.
// biome-ignore lint/suspicious/noExplicitAny: schema operations are not table-typed
type AnyDb = Kysely<any>;

function columnSqlType(type: ColumnType, dialect: Dialect): RawBuilder<unknown> {
  switch (type.kind) {
    case 'id':
      return sql.raw(dialect === 'postgres' ? 'bigserial' : dialect === 'sqlite' ? 'integer' : 'bigint');
    case 'bigint':
      return sql.raw(dialect === 'sqlite' ? 'integer' : 'bigint');
    case 'varchar':
      return sql.raw(`varchar(${type.length})`);
    case 'char':
      return sql.raw(`char(${type.length})`);
    case 'text':
      return sql.raw(dialect === 'mysql' ? 'longtext' : 'text');
    case 'bool':
      return sql.raw('boolean');
    case 'double':
      return sql.raw(dialect === 'postgres' ? 'double precision' : dialect === 'sqlite' ? 'real' : 'double');
  }
}

function defineColumn(column: ColumnDefinition, dialect: Dialect) {
  return (builder: ColumnDefinitionBuilder): ColumnDefinitionBuilder => {
    let result = builder;
    if (column.type.kind === 'id') {
      result = result.primaryKey();
      if (dialect !== 'postgres') result = result.autoIncrement();
      return result;
    }
    if (column.notNull) result = result.notNull();
    if (column.default !== undefined) result = result.defaultTo(column.default);
    return result;
  };
}

async function existingColumns(db: AnyDb, dialect: Dialect, table: string): Promise<Set<string> | undefined> {
  const tables = await db.introspection.getTables();
  const matches = tables.filter((candidate) => candidate.name === table);
  const found =
    dialect === 'postgres' ? (matches.find((t) => t.schema === 'public') ?? matches[0]) : matches[0];
  return found ? new Set(found.columns.map((column) => column.name)) : undefined;
}

async function indexExists(db: AnyDb, dialect: Dialect, table: string, name: string): Promise<boolean> {
  const query =
    dialect === 'sqlite'
      ? sql`select name from sqlite_master where type = 'index' and name = ${name}`
      : dialect === 'postgres'
        ? sql`select indexname from pg_indexes where schemaname = current_schema() and indexname = ${name}`
        : sql`select index_name from information_schema.statistics
              where table_schema = database() and table_name = ${table} and index_name = ${name}`;
  const result = await query.execute(db);
  return result.rows.length > 0;
}

async function ensureIndex(
  db: AnyDb,
  dialect: Dialect,
  table: string,
  index: IndexDefinition,
): Promise<void> {
  if (await indexExists(db, dialect, table, index.name)) return;
  let builder = db.schema.createIndex(index.name).on(table).columns(index.columns);
  if (index.unique) builder = builder.unique();
  await builder.execute();
}

async function ensureTable(db: AnyDb, dialect: Dialect, table: TableDefinition): Promise<void> {
  const columns = await existingColumns(db, dialect, table.name);
  if (!columns) {
    let builder = db.schema.createTable(table.name);
    for (const column of table.columns) {
      builder = builder.addColumn(
        column.name,
        columnSqlType(column.type, dialect),
        defineColumn(column, dialect),
      );
    }
    if (table.primaryKey)
      builder = builder.addPrimaryKeyConstraint(`${table.name}_pkey`, table.primaryKey as never);
    await builder.execute();
  } else {
    for (const column of table.columns) {
      if (columns.has(column.name)) continue;
      await db.schema
        .alterTable(table.name)
        .addColumn(column.name, columnSqlType(column.type, dialect), defineColumn(column, dialect))
        .execute();
    }
  }
  for (const index of table.indexes) await ensureIndex(db, dialect, table.name, index);
}

/** Creates missing tables, columns and indexes; never drops or rewrites what is there. */
export async function ensureSchema(db: AnyDb, dialect: Dialect, tables: TableDefinition[]): Promise<void> {
  for (const table of tables) await ensureTable(db, dialect, table);
}

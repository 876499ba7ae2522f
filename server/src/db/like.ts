import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** `column LIKE 'keyword%'` with the keyword's own wildcards escaped, on every dialect. */
export function startsWith(column: string, keyword: string): RawBuilder<SqlBool> {
  const pattern = `${keyword.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '!'`;
}

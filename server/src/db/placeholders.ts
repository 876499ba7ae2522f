import type { Dialect } from './connect';

/** SQL written with `?` placeholders, as the dialect takes it: PostgreSQL numbers them ($1, $2, …). */
export function withPlaceholders(dialect: Dialect, sql: string): string {
  if (dialect !== 'postgres') return sql;
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

import type { Pool, QueryResult } from 'pg';
import { maskParameter, type SqlLogger } from './sql-log';

/** A statement with PostgreSQL's numbered placeholders and the values they stand for. */
export interface ScriptStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** What one statement of a script did. */
export interface ScriptResult {
  rowCount: number;
  rows: Array<Record<string, unknown>>;
}

/**
 * One transaction of many statements in one round trip to PostgreSQL, instead of one per statement:
 * BEGIN and the statements go as one simple query, then COMMIT or ROLLBACK as `keep` decides from
 * what the statements did.
 */
export interface PgScripts {
  /** Answers whether it committed; undefined (nothing sent) when a value cannot be written as a literal. */
  run(
    statements: ScriptStatement[],
    keep: (results: ScriptResult[]) => boolean,
  ): Promise<boolean | undefined>;
}

/**
 * A value as a quoted literal of unknown type, which PostgreSQL types from its context as it types a
 * parameter; undefined when it has no such text (a NUL would end the query string early).
 */
function literal(value: unknown, quote: (text: string) => string): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    text = String(value);
  else return undefined;
  return text.includes('\u0000') ? undefined : quote(text);
}

/**
 * The statement with its values written in as literals. Only for statements this program writes
 * itself (the ledger's, and the inserts its query builder compiles), where `$n` is never inside a
 * quoted string or name.
 */
export function inlineParameters(
  statement: ScriptStatement,
  quote: (text: string) => string,
): string | undefined {
  let failed = false;
  const text = statement.sql.replace(/\$(\d+)/g, (_, index: string) => {
    const position = Number(index) - 1;
    const written =
      position < statement.parameters.length ? literal(statement.parameters[position], quote) : undefined;
    if (written === undefined) failed = true;
    return written ?? '';
  });
  return failed ? undefined : text;
}

const asResult = (result: QueryResult): ScriptResult => ({
  rowCount: result.rowCount ?? 0,
  rows: result.rows,
});

export function createPgScripts(pool: Pool, quote: (text: string) => string, log?: SqlLogger): PgScripts {
  return {
    async run(statements, keep) {
      const texts: string[] = ['BEGIN'];
      for (const statement of statements) {
        const text = inlineParameters(statement, quote);
        if (text === undefined) return undefined;
        texts.push(text);
      }
      const started = performance.now();
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const answer = (await client.query(texts.join(';\n'))) as unknown as QueryResult[];
        const committed = keep(answer.slice(1).map(asResult));
        await client.query(committed ? 'COMMIT' : 'ROLLBACK');
        return committed;
      } catch (error) {
        // A statement that failed leaves the transaction aborted: end it before the connection goes back.
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
        if (log) {
          const ms = Math.round((performance.now() - started) * 10) / 10;
          for (const { sql, parameters } of statements)
            log({ sql, params: parameters.map(maskParameter), ms });
        }
      }
    },
  };
}

import type { Pool, QueryResult } from 'pg';
import { boundedMemo } from '../bounded-memo';
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
 * Sends statements as one query inside the open transaction; answers what each one did. With
 * `commit`, the same query commits the transaction after them (it ends there: nothing more is sent).
 */
export type SendStatements = (
  statements: ScriptStatement[],
  options?: { commit?: boolean },
) => Promise<ScriptResult[]>;

/** What a change expectingRows checked says when it touched another number of rows. */
const WRONG_ROW_COUNT = 'switchyard: rows changed other than guessed:';

/**
 * The change, made to fail (and the transaction with it) unless it touches exactly `rows` rows: a
 * check the database makes, so that a trip can commit without its answers seen first. Plain SQL has
 * no statement that raises, so the check fails by reading its own message as a number.
 */
export function expectingRows(statement: ScriptStatement, rows: number): ScriptStatement {
  return {
    sql:
      `WITH changed AS (${statement.sql} RETURNING 1) SELECT CASE WHEN count(*) = ${rows} THEN 1 ` +
      `ELSE ('${WRONG_ROW_COUNT} ' || count(*))::int END AS checked FROM changed`,
    parameters: statement.parameters,
  };
}

/** The error of a change expectingRows checked that touched another number of rows. */
export function isWrongRowCount(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '22P02' && typeof message === 'string' && message.includes(WRONG_ROW_COUNT);
}

/**
 * Transactions on PostgreSQL that send many statements per round trip instead of one: each `send`
 * is one simple query (the first one begins the transaction, the last may commit it), and the
 * transaction is otherwise committed or rolled back as `work` decides.
 */
export interface PgScripts {
  /**
   * Runs `work` in a transaction on one connection: COMMIT when it answers true, ROLLBACK when it
   * answers false or throws. Answers whether it committed; undefined, rolled back, when a value
   * could not be written as a literal.
   */
  transaction(work: (send: SendStatements) => Promise<boolean>): Promise<boolean | undefined>;
}

/**
 * Text as a PostgreSQL string literal, the same text as pg's `escapeLiteral` writes (quotes doubled;
 * with a backslash, an escape string with backslashes doubled, which reads the same whatever
 * standard_conforming_strings says), without building it a character at a time: that made a string
 * for every character of a log's content.
 */
export function quoteLiteral(text: string): string {
  const quoted = text.includes("'") ? text.replaceAll("'", "''") : text;
  return text.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A value that has no literal form was to be sent: the transaction is given up. */
class NotWritable extends Error {}

/**
 * A value as a quoted literal of unknown type, which PostgreSQL types from its context as it types a
 * parameter; undefined when it has no such text (a NUL would end the query string early).
 */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    text = String(value);
  else return undefined;
  return text.includes('\u0000') ? undefined : quoteLiteral(text);
}

/** Statements whose parts are kept at most; the ledger's are a few dozen, by row count. */
const SPLIT_TEXTS_KEPT = 1000;

/** A statement's text split at its placeholders: text, index, text, …, text (indices from 0). */
const placeholderParts = boundedMemo(
  SPLIT_TEXTS_KEPT,
  (sql: string): Array<string | number> =>
    sql.split(/\$(\d+)/).map((part, at) => (at % 2 === 1 ? Number(part) - 1 : part)),
);

/**
 * The statement with its values written in as literals. Only for statements this program writes
 * itself (the ledger's, and the inserts its query builder compiles), where `$n` is never inside a
 * quoted string or name.
 */
export function inlineParameters(statement: ScriptStatement): string | undefined {
  const parts = placeholderParts(statement.sql);
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const written =
      part >= 0 && part < statement.parameters.length ? literal(statement.parameters[part]) : undefined;
    if (written === undefined) return undefined;
    text += written;
  }
  return text;
}

const asResult = (result: QueryResult): ScriptResult => ({
  rowCount: result.rowCount ?? 0,
  rows: result.rows,
});

export function createPgScripts(pool: Pool, log?: SqlLogger): PgScripts {
  return {
    async transaction(work) {
      const client = await pool.connect();
      let begun = false;
      let committedInTrip = false;
      let broken: Error | undefined;
      const send: SendStatements = async (statements, options) => {
        if (committedInTrip) throw new Error('the transaction was committed: nothing more can be sent');
        const texts: string[] = begun ? [] : ['BEGIN'];
        for (const statement of statements) {
          const text = inlineParameters(statement);
          if (text === undefined) throw new NotWritable();
          texts.push(text);
        }
        if (options?.commit) texts.push('COMMIT');
        const started = performance.now();
        // Once BEGIN is on its way the transaction must be ended, even when this trip fails part-way.
        const opening = !begun;
        begun = true;
        const answer = (await client.query(texts.join(';\n'))) as unknown as QueryResult | QueryResult[];
        committedInTrip = options?.commit === true;
        const results = (Array.isArray(answer) ? answer : [answer]).map(asResult);
        if (committedInTrip) results.pop();
        if (log) {
          const ms = Math.round((performance.now() - started) * 10) / 10;
          for (const { sql, parameters } of statements)
            log({ sql, params: parameters.map(maskParameter), ms });
        }
        return opening ? results.slice(1) : results;
      };
      try {
        const committed = await work(send);
        if (committedInTrip) return true;
        if (begun) await client.query(committed ? 'COMMIT' : 'ROLLBACK');
        return committed;
      } catch (error) {
        // A statement that failed leaves the transaction aborted: end it before the connection goes back.
        if (begun && !committedInTrip)
          await client.query('ROLLBACK').catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        if (error instanceof NotWritable) return undefined;
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
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

/** Statement texts whose derived texts are kept at most; the ledger's are a few dozen, by row count. */
const SPLIT_TEXTS_KEPT = 1000;

/** What a change expectingRows checked says when it touched another number of rows. */
const WRONG_ROW_COUNT = 'switchyard: rows changed other than guessed:';

/**
 * The change, made to fail (and the transaction with it) unless it touches exactly `rows` rows: a
 * check the database makes, so that a trip can commit without its answers seen first. Plain SQL has
 * no statement that raises, so the check fails by reading its own message as a number.
 */
export function expectingRows(statement: ScriptStatement, rows: number): ScriptStatement {
  return { sql: checkedText(statement.sql, rows), parameters: statement.parameters };
}

/**
 * expectingRows' text, kept per statement and count: the same text object every time, so that its
 * prepared name is found without the text built, flattened and hashed again per transaction.
 */
const checkedTexts = new Map<number, (sql: string) => string>();
function checkedText(sql: string, rows: number): string {
  let memo = checkedTexts.get(rows);
  if (!memo) {
    memo = boundedMemo(
      SPLIT_TEXTS_KEPT,
      (text: string) =>
        `WITH changed AS (${text} RETURNING 1) SELECT CASE WHEN count(*) = ${rows} THEN 1 ` +
        `ELSE ('${WRONG_ROW_COUNT} ' || count(*))::int END AS checked FROM changed`,
    );
    checkedTexts.set(rows, memo);
  }
  return memo(sql);
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
  // A number's or a boolean's text holds no quote, backslash or NUL.
  if (typeof value === 'number' || typeof value === 'boolean') return `'${value}'`;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'bigint') text = String(value);
  else return undefined;
  return text.includes('\u0000') ? undefined : quoteLiteral(text);
}

/** A statement's text split at its placeholders: text, index, text, …, text (indices from 0). */
const placeholderParts = boundedMemo(
  SPLIT_TEXTS_KEPT,
  (sql: string): Array<string | number> =>
    sql.split(/\$(\d+)/).map((part, at) => (at % 2 === 1 ? Number(part) - 1 : part)),
);

/** The statement's values as literals, in order (`EXECUTE`'s arguments); undefined when one has no literal. */
function literalParameters(statement: ScriptStatement): string | undefined {
  const { parameters } = statement;
  let text = '';
  for (let at = 0; at < parameters.length; at++) {
    const written = literal(parameters[at]);
    if (written === undefined) return undefined;
    text += at === 0 ? written : `, ${written}`;
  }
  return text;
}

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

/** `EXECUTE` of a prepared statement with the statement's values; undefined when one has no literal. */
function executeByName(name: string, statement: ScriptStatement): string | undefined {
  if (statement.parameters.length === 0) return `EXECUTE ${name}`;
  const values = literalParameters(statement);
  return values === undefined ? undefined : `EXECUTE ${name}(${values})`;
}

/**
 * Statements with at most this many values are prepared on a connection the first time it sends
 * them, and executed by name after: PostgreSQL then neither parses nor plans them again. A log
 * insert of many rows (a busy batch, whose one statement many calls share) goes with its values
 * written in, so that a connection keeps few plans.
 */
const PREPARED_MAX_PARAMETERS = 100;
/** Prepared statements a connection holds at most; past that, statements go with their values written in. */
const PREPARED_PER_CONNECTION = 200;

/** What PREPARE takes: a query or a change, not a command such as SET or LOCK. */
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i;

/**
 * A prepared statement's name, from its text (null for one PREPARE does not take): the same text
 * has the same name on every connection, so that a connection shared behind a pooler (PgBouncer) can
 * never run another statement by it.
 */
export const preparedStatementName = boundedMemo(SPLIT_TEXTS_KEPT, (sql: string): string | null =>
  PREPARABLE.test(sql) ? `sy_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}` : null,
);

/**
 * What a failed trip says of the statements prepared on its connection: `lost` for a name the
 * connection does not hold (26000) or already holds (42P05), as behind a pooler that hands each
 * transaction another connection; `stale` for a prepared read whose columns a migration changed since.
 */
function preparedTrouble(error: unknown): 'lost' | 'stale' | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '26000' || code === '42P05') return 'lost';
  if (code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change'))
    return 'stale';
  return undefined;
}

const asResult = (result: QueryResult): ScriptResult => ({
  rowCount: result.rowCount ?? 0,
  rows: result.rows,
});

export function createPgScripts(pool: Pool, log?: SqlLogger): PgScripts {
  /** The names prepared on each connection. */
  const preparedOn = new WeakMap<PoolClient, Set<string>>();
  /** Cleared for good once a connection proved not to keep what was prepared on it (a pooler's). */
  let preparing = true;

  async function transaction(work: (send: SendStatements) => Promise<boolean>): Promise<boolean | undefined> {
    const client = await pool.connect();
    let prepared = preparedOn.get(client);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(client, prepared);
    }
    const known = prepared;
    let begun = false;
    let committedInTrip = false;
    let broken: Error | undefined;
    const send: SendStatements = async (statements, options) => {
      if (committedInTrip) throw new Error('the transaction was committed: nothing more can be sent');
      const texts: string[] = begun ? [] : ['BEGIN'];
      /** Where the statements' own results are among the query's (a PREPARE's is not one). */
      const answers: number[] = [];
      const preparedNow: string[] = [];
      for (const statement of statements) {
        const name =
          preparing && statement.parameters.length <= PREPARED_MAX_PARAMETERS
            ? preparedStatementName(statement.sql)
            : null;
        const ready = name !== null && (known.has(name) || preparedNow.includes(name));
        if (name !== null && !ready && known.size + preparedNow.length < PREPARED_PER_CONNECTION) {
          texts.push(`PREPARE ${name} AS ${statement.sql}`);
          preparedNow.push(name);
        }
        const text =
          name !== null && (ready || preparedNow.includes(name))
            ? executeByName(name, statement)
            : inlineParameters(statement);
        if (text === undefined) throw new NotWritable();
        answers.push(texts.length);
        texts.push(text);
      }
      if (options?.commit) texts.push('COMMIT');
      const started = performance.now();
      // Once BEGIN is on its way the transaction must be ended, even when this trip fails part-way.
      begun = true;
      let answer: QueryResult | QueryResult[];
      try {
        answer = (await client.query(texts.join(';\n'))) as unknown as QueryResult | QueryResult[];
      } catch (error) {
        // Which of its PREPAREs ran is unknown: the connection is not used again.
        if (preparedNow.length > 0 || preparedTrouble(error)) broken = error as Error;
        throw error;
      }
      for (const name of preparedNow) known.add(name);
      committedInTrip = options?.commit === true;
      const all = Array.isArray(answer) ? answer : [answer];
      const results = answers.map((at) => asResult(all[at] as QueryResult));
      if (log) {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        for (const { sql, parameters } of statements) log({ sql, params: parameters.map(maskParameter), ms });
      }
      return results;
    };
    try {
      const committed = await work(send);
      if (committedInTrip) return true;
      if (begun) await client.query(committed ? 'COMMIT' : 'ROLLBACK');
      return committed;
    } catch (error) {
      // A statement that failed leaves the transaction aborted: end it before the connection goes
      // back (a connection that will be dropped needs no ROLLBACK).
      if (begun && !committedInTrip && !broken)
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      if (error instanceof NotWritable) return undefined;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  return {
    async transaction(work) {
      // Each stale connection is dropped in turn: as many tries as the pool may hold connections.
      for (let tries = 1; ; tries++) {
        const usedPrepared = preparing;
        try {
          return await transaction(work);
        } catch (error) {
          // Rolled back, its connection dropped: once more, on another connection (a stale plan),
          // or with values written in from now on (statements lost).
          const trouble = usedPrepared ? preparedTrouble(error) : undefined;
          if (!trouble || tries > pool.options.max) throw error;
          if (trouble === 'lost') preparing = false;
        }
      }
    },
  };
}

import { CompiledQuery as Compiled } from 'kysely';
import type { Sql } from '../connect';
import { outboxRows } from '../log-outbox';
import {
  expectingRows,
  isWrongRowCount,
  type PgScripts,
  type ScriptStatement,
  type SendStatements,
} from '../pg-script';
import { summarizeLogs } from '../repos/log-summaries/buckets';
import { leftToFold } from '../repos/log-summaries/state';
import { logSummaryUpserts } from '../repos/log-summaries/upserts';
import type { NewLogRow } from '../schema';
import { inTransaction, retryOnConflict } from '../transaction';
import { ProgramLedger } from './program-ledger';
import type { LedgerStep, Program } from './programs';
import { LOG_VALUES_PER_ROW, ledgerStatements, logInsert, logValues } from './statements';

const LOG_ROWS_PER_INSERT = 200;

function byColumns<T>(...columns: Array<keyof T>) {
  return (a: T, b: T): number => {
    for (const column of columns) {
      const [x, y] = [a[column], b[column]];
      if (x !== y) return (x as number | string) < (y as number | string) ? -1 : 1;
    }
    return 0;
  };
}

/** The rows a change is guessed to touch until the database says. */
const GUESSED_ROWS = 1;

/** The last trip's check found a change that touched another number of rows than guessed. */
const WRONG_GUESS = Symbol('wrong guess');

/** A step the program took, and the answer it was given: the database's, or a guess until it is sent. */
interface Taken {
  step: LedgerStep;
  answer: unknown;
}

/** What the program did on the database's answers: its value, or the error it threw. */
type Replayed<T> = { value: T } | { error: unknown };

/** The same row: the same object, or one made again with the same values (a replay's). */
function sameRow(a: NewLogRow, b: NewLogRow | undefined): boolean {
  if (a === b) return true;
  if (!b) return false;
  const columns = Object.keys(a) as Array<keyof NewLogRow>;
  return columns.length === Object.keys(b).length && columns.every((column) => a[column] === b[column]);
}

function sameStep(step: LedgerStep, taken: LedgerStep | undefined): boolean {
  if (!taken || step.kind !== taken.kind) return false;
  if (step.kind === 'logs' && taken.kind === 'logs')
    return step.logs.length === taken.logs.length && step.logs.every((log, i) => sameRow(log, taken.logs[i]));
  if (step.kind === 'logs' || taken.kind === 'logs') return false;
  return (
    step.statement === taken.statement &&
    step.params.length === taken.params.length &&
    step.params.every((param, i) => param === taken.params[i])
  );
}

/**
 * The ledger on PostgreSQL and MySQL: through Kysely a round trip per statement (MySQL, and
 * PostgreSQL's fallback, and all of it with PG_PIPELINE=false), or pipelined on PostgreSQL (`scripts`).
 */
export class KyselyLedger extends ProgramLedger {
  constructor(
    private readonly db: Sql,
    /** PostgreSQL's pipelined transactions, when the connection has them. */
    private readonly scripts?: PgScripts,
  ) {
    super();
  }

  #logsLeftToFold = 0;

  override get logsLeftToFold(): number {
    return this.#logsLeftToFold;
  }

  /**
   * The statements that write a batch's logs: its rows (or outbox rows) and, in the logs' table, their
   * summaries. A lone log (every batch at concurrency 1) goes without them where a fold adds them
   * after the commit (PostgreSQL: log-summaries/fold.ts), as on SQLite (sqlite-ledger.ts).
   */
  #logWrites(logs: NewLogRow[]): ScriptStatement[] {
    const { kysely, dialect } = this.db;
    if (this.db.logOutbox)
      return outboxRows(logs, LOG_ROWS_PER_INSERT).map((rows) =>
        kysely.insertInto('log_outbox').values(rows).compile(),
      );
    if (leftToFold(dialect, logs.length)) {
      const values: unknown[] = new Array(LOG_VALUES_PER_ROW);
      logValues(logs[0] as NewLogRow, values);
      this.#logsLeftToFold += 1;
      return [{ sql: logInsert(dialect, 1, true), parameters: values }];
    }
    const writes: ScriptStatement[] = [];
    for (let start = 0; start < logs.length; start += LOG_ROWS_PER_INSERT) {
      const rows = logs.slice(start, start + LOG_ROWS_PER_INSERT);
      const values: unknown[] = new Array(rows.length * LOG_VALUES_PER_ROW);
      for (const [index, log] of rows.entries()) logValues(log, values, index * LOG_VALUES_PER_ROW);
      writes.push({ sql: logInsert(dialect, rows.length), parameters: values });
    }
    // Upserted in key order, like every other row the ledger locks (see programs.ts).
    const { hourly, daily } = summarizeLogs(logs);
    const upserts = logSummaryUpserts(dialect, {
      hourly: hourly.sort(
        byColumns('bucket', 'type', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'),
      ),
      daily: daily.sort(byColumns('bucket', 'type', 'model_name', 'channel_id')),
    });
    return [...writes, ...upserts];
  }

  /** A step's statement, as the pipeline sends it (no query builder's objects on the hot path). */
  #statement(step: Extract<LedgerStep, { statement: unknown }>): ScriptStatement {
    return { sql: ledgerStatements(this.db.dialect)[step.statement], parameters: step.params };
  }

  async #step(tx: Sql, step: LedgerStep): Promise<unknown> {
    const execute = ({ sql, parameters }: ScriptStatement) =>
      tx.kysely.executeQuery(Compiled.raw(sql, [...parameters]));
    if (step.kind === 'logs') {
      for (const write of this.#logWrites(step.logs)) await execute(write);
      return undefined;
    }
    const result = await execute(this.#statement(step));
    if (step.kind === 'change') return undefined;
    if (step.kind === 'run') return Number(result.numAffectedRows ?? 0);
    if (step.kind === 'get') return result.rows[0];
    return result.rows;
  }

  #stepByStep<T>(program: () => Program<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      const steps = program();
      let next = steps.next();
      while (!next.done) next = steps.next(await this.#step(tx, next.value));
      return next.value;
    });
  }

  /**
   * Runs the program in few round trips: its changes wait and go together with its next read or at
   * its end, each guessed meanwhile to touch one row (the usual case). When every guess held, answers
   * its value; when one did not, what the program does on the real answers (`#replay`).
   */
  async #pipelined<T>(
    program: () => Program<T>,
    send: SendStatements,
    commitInTrip: boolean,
  ): Promise<Replayed<T> | typeof WRONG_GUESS | undefined> {
    const taken: Taken[] = [];
    const waiting: ScriptStatement[] = [];
    /** Of the waiting statements, the changes: where they stand, and which step they are. */
    const guesses: Array<{ at: number; step: number }> = [];
    let guessedWrong = false;
    const sendWaiting = async (read?: ScriptStatement) => {
      const results = await send(read ? [...waiting, read] : waiting);
      for (const guess of guesses) {
        const rows = results[guess.at]?.rowCount ?? 0;
        if (rows !== GUESSED_ROWS) {
          guessedWrong = true;
          (taken[guess.step] as Taken).answer = rows;
        }
      }
      waiting.length = 0;
      guesses.length = 0;
      return results.at(-1);
    };
    const steps = program();
    // Only the program's own throws are caught here; the database's errors go to the caller.
    let thrown: { error: unknown } | undefined;
    const advance = (answer?: unknown): IteratorResult<LedgerStep, T> | undefined => {
      try {
        return steps.next(answer);
      } catch (error) {
        thrown = { error };
        return undefined;
      }
    };
    let next = advance();
    while (next && !next.done) {
      const step = next.value;
      let answer: unknown;
      if (step.kind === 'run') {
        guesses.push({ at: waiting.length, step: taken.length });
        waiting.push(this.#statement(step));
        answer = GUESSED_ROWS;
      } else if (step.kind === 'change') {
        waiting.push(this.#statement(step));
      } else if (step.kind === 'logs') {
        waiting.push(...this.#logWrites(step.logs));
      } else {
        const result = await sendWaiting(this.#statement(step));
        if (guessedWrong) return this.#replay(program, taken);
        answer = step.kind === 'get' ? result?.rows[0] : (result?.rows ?? []);
      }
      taken.push({ step, answer });
      next = advance(answer);
    }
    // Thrown on answers the database gave (none still a guess), the error stands; else, step by step.
    if (!next) return guesses.length === 0 ? thrown : undefined;
    if (waiting.length === 0) return { value: next.value };
    if (!commitInTrip) {
      await sendWaiting();
      return guessedWrong ? this.#replay(program, taken) : { value: next.value };
    }
    // The last trip commits as well, each of its guesses checked by the database: a wrong one fails
    // the trip and rolls it all back.
    const checked: ScriptStatement[] = [...waiting];
    for (const guess of guesses)
      checked[guess.at] = expectingRows(checked[guess.at] as ScriptStatement, GUESSED_ROWS);
    try {
      await send(checked, { commit: true });
    } catch (error) {
      if (isWrongRowCount(error)) return WRONG_GUESS;
      throw error;
    }
    return { value: next.value };
  }

  /**
   * Runs the program again on the database's answers to the steps taken. It is kept only when it
   * takes those steps exactly; when it throws on the way (a charge not covered), it threw on what
   * this transaction did: the error stands as it would have step by step.
   */
  #replay<T>(program: () => Program<T>, taken: Taken[]): Replayed<T> | undefined {
    const steps = program();
    let index = 0;
    try {
      let next = steps.next();
      while (!next.done) {
        const step = next.value;
        const done = taken[index];
        if (!done || !sameStep(step, done.step)) return undefined;
        index += 1;
        next = steps.next(done.answer);
      }
      return index === taken.length ? { value: next.value } : undefined;
    } catch (error) {
      return { error };
    }
  }

  protected async execute<T>(program: () => Program<T>): Promise<T> {
    const scripts = this.scripts;
    if (!scripts) return this.#stepByStep(program);
    // First with the commit in the last trip; when a guess there was wrong, again with the last trip's
    // answers seen before the commit, so the program's course on them is known (the replay check).
    for (const commitInTrip of [true, false]) {
      let outcome: Replayed<T> | typeof WRONG_GUESS | undefined;
      const committed = await retryOnConflict(this.db, () =>
        scripts.transaction(async (send) => {
          outcome = await this.#pipelined(program, send, commitInTrip);
          return outcome !== undefined && outcome !== WRONG_GUESS && 'value' in outcome;
        }),
      );
      if (outcome === WRONG_GUESS) continue;
      if (committed && outcome && 'value' in outcome) return outcome.value;
      if (committed !== undefined && outcome && 'error' in outcome) throw outcome.error;
      break;
    }
    // Rolled back (a change touched another number of rows than guessed) or not sent: step by step.
    return this.#stepByStep(program);
  }
}

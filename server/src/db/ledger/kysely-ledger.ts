import { CompiledQuery as Compiled, type CompiledQuery } from 'kysely';
import type { Sql } from '../connect';
import { outboxRows } from '../log-outbox';
import type { PgScripts, ScriptResult } from '../pg-script';
import { asSummarized, summarizeLogs } from '../repos/log-summaries/buckets';
import { logSummaryUpserts } from '../repos/log-summaries/upserts';
import type { NewLogRow } from '../schema';
import { inTransaction, retryOnConflict } from '../transaction';
import { ProgramLedger } from './program-ledger';
import type { LedgerStep, Program } from './programs';
import { ledgerStatements } from './statements';

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

/** A step the program took when every change was guessed to touch one row. */
type PlannedStep = Exclude<LedgerStep, { kind: 'get' | 'all' }>;

const GUESSED_ROWS = 1;

/** What the program did on the statements' real answers: its value, or the error it threw. */
type Replayed<T> = { value: T } | { error: unknown };

function sameStep(step: LedgerStep, planned: PlannedStep | undefined): boolean {
  if (!planned || step.kind !== planned.kind) return false;
  if (step.kind === 'logs' && planned.kind === 'logs')
    return step.logs.length === planned.logs.length && step.logs.every((log, i) => log === planned.logs[i]);
  if (step.kind !== 'run' || planned.kind !== 'run') return false;
  return (
    step.statement === planned.statement &&
    step.params.length === planned.params.length &&
    step.params.every((param, i) => param === planned.params[i])
  );
}

/** The ledger through Kysely: PostgreSQL and MySQL (a network round trip per statement anyway). */
export class KyselyLedger extends ProgramLedger {
  constructor(
    private readonly db: Sql,
    /** PostgreSQL's one-round-trip transactions, when the connection has them. */
    private readonly scripts?: PgScripts,
  ) {
    super();
  }

  /** The statements that write a batch's logs: its rows (or outbox rows) and, in the logs' table, their summaries. */
  #logWrites(logs: NewLogRow[]): CompiledQuery[] {
    const { kysely } = this.db;
    if (this.db.logOutbox)
      return outboxRows(logs, LOG_ROWS_PER_INSERT).map((rows) =>
        kysely.insertInto('log_outbox').values(rows).compile(),
      );
    const writes: CompiledQuery[] = [];
    for (let start = 0; start < logs.length; start += LOG_ROWS_PER_INSERT)
      writes.push(
        kysely
          .insertInto('logs')
          .values(asSummarized(logs.slice(start, start + LOG_ROWS_PER_INSERT)))
          .compile(),
      );
    // Upserted in key order, like every other row the ledger locks (see programs.ts).
    const { hourly, daily } = summarizeLogs(logs);
    const upserts = logSummaryUpserts(this.db, {
      hourly: hourly.sort(
        byColumns('bucket', 'type', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'),
      ),
      daily: daily.sort(byColumns('bucket', 'type', 'model_name', 'channel_id')),
    });
    for (const upsert of upserts) writes.push(upsert.compile());
    return writes;
  }

  #statement(step: Extract<LedgerStep, { statement: unknown }>): CompiledQuery {
    return Compiled.raw(ledgerStatements(this.db.dialect)[step.statement], step.params);
  }

  async #step(tx: Sql, step: LedgerStep): Promise<unknown> {
    if (step.kind === 'logs') {
      for (const write of this.#logWrites(step.logs)) await tx.kysely.executeQuery(write);
      return undefined;
    }
    const result = await tx.kysely.executeQuery(this.#statement(step));
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
   * The program's steps when each change touches one row (the usual case), or undefined when it
   * reads rows, whose answers cannot be guessed.
   */
  #plan<T>(program: () => Program<T>): PlannedStep[] | undefined {
    const planned: PlannedStep[] = [];
    const steps = program();
    try {
      let next = steps.next();
      while (!next.done) {
        const step = next.value;
        if (step.kind === 'get' || step.kind === 'all') return undefined;
        planned.push(step);
        next = steps.next(step.kind === 'run' ? GUESSED_ROWS : undefined);
      }
    } catch {
      return undefined;
    } finally {
      steps.return(undefined as T);
    }
    return planned;
  }

  /**
   * Runs the program again on what the statements really did (`first`: where each planned step's
   * statements start in the script). It is kept only when it takes the planned steps exactly; when
   * it throws on the way (a charge not covered), it threw on what this transaction did: the error
   * stands as it would have step by step.
   */
  #replay<T>(
    program: () => Program<T>,
    planned: PlannedStep[],
    first: number[],
    results: ScriptResult[],
  ): Replayed<T> | undefined {
    const steps = program();
    let taken = 0;
    try {
      let next = steps.next();
      while (!next.done) {
        const step = next.value;
        if (!sameStep(step, planned[taken])) return undefined;
        const answer = step.kind === 'run' ? results[first[taken] as number]?.rowCount : undefined;
        taken += 1;
        next = steps.next(answer);
      }
      return taken === planned.length ? { value: next.value } : undefined;
    } catch (error) {
      return { error };
    }
  }

  protected async execute<T>(program: () => Program<T>): Promise<T> {
    const scripts = this.scripts;
    const planned = scripts ? this.#plan(program) : undefined;
    if (!scripts || !planned || planned.length === 0) return this.#stepByStep(program);
    const statements: CompiledQuery[] = [];
    const first = planned.map((step) => {
      const start = statements.length;
      if (step.kind === 'run') statements.push(this.#statement(step));
      else statements.push(...this.#logWrites(step.logs));
      return start;
    });
    let replayed: Replayed<T> | undefined;
    const committed = await retryOnConflict(this.db, () =>
      scripts.run(statements, (results) => {
        replayed = this.#replay(program, planned, first, results);
        return replayed !== undefined && 'value' in replayed;
      }),
    );
    if (committed && replayed && 'value' in replayed) return replayed.value;
    if (committed !== undefined && replayed && 'error' in replayed) throw replayed.error;
    // Rolled back (a change touched another number of rows than guessed) or not sent: step by step.
    return this.#stepByStep(program);
  }
}

import { logFactsText } from '@switchyard/contract/log-facts';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Dialect, Sql } from '../../src/db/connect';
import { ProgramLedger } from '../../src/db/ledger/program-ledger';
import type { LedgerStep, Program } from '../../src/db/ledger/programs';
import { ledgerStatements, type StatementName } from '../../src/db/ledger/statements';
import { inlineParameters, type PgScripts } from '../../src/db/pg-script';
import type { Database, NewLogRow } from '../../src/db/schema';

type Row = Record<string, unknown>;

/** What the scripted database answers a statement: rows changed (run), a row (get), rows (all), or an error it throws. */
export type Answer = number | Row | Row[] | undefined | Error;

/**
 * The answers, by statement, in the order the statements come; a function answers from the
 * parameters. Unscripted: a change touches one row, a read finds nothing.
 */
export type Script = Partial<Record<StatementName, Answer[] | ((params: unknown[]) => Answer)>>;

/** A step as the scripted database saw it: the statement's name and parameters, or `logs` and the rows. */
export interface SeenStep {
  statement: StatementName | 'logs';
  params: unknown[];
}

const unscripted = (step: Exclude<LedgerStep, { kind: 'logs' }>): Answer =>
  step.kind === 'run' ? 1 : step.kind === 'all' ? [] : undefined;

/** Answers one step from the script (queues are consumed). */
export function answer(script: Script, step: LedgerStep): Answer {
  if (step.kind === 'logs') return undefined;
  const scripted = script[step.statement];
  if (typeof scripted === 'function') return scripted(step.params);
  if (scripted && scripted.length > 0) return scripted.shift();
  return unscripted(step);
}

export const seen = (step: LedgerStep): SeenStep =>
  step.kind === 'logs'
    ? { statement: 'logs', params: step.logs }
    : { statement: step.statement, params: step.params };

/** Drives a program to its end on the script: the steps it took, and its value or what it threw. */
export function runScripted<T>(
  program: Program<T>,
  script: Script,
): { steps: SeenStep[]; value?: T; thrown?: unknown } {
  const steps: SeenStep[] = [];
  try {
    let next = program.next();
    while (!next.done) {
      steps.push(seen(next.value));
      const reply = answer(script, next.value);
      if (reply instanceof Error) throw reply;
      next = program.next(reply);
    }
    return { steps, value: next.value };
  } catch (thrown) {
    return { steps, thrown };
  }
}

/**
 * The ledger's operations (ProgramLedger) on a scripted database: each transaction is a program
 * driven on the script, committed when it returns, rolled back when it throws.
 */
export class ScriptedLedger extends ProgramLedger {
  readonly transactions: Array<{ steps: SeenStep[]; committed: boolean }> = [];

  /** `commitOutcomeKnown`: as the embedded database's (see ProgramLedger). */
  constructor(
    private readonly script: Script,
    commitOutcomeKnown = false,
  ) {
    super(commitOutcomeKnown);
  }

  protected async execute<T>(program: () => Program<T>, committed?: (value: T) => void): Promise<T> {
    const { steps, value, thrown } = runScripted(program(), this.script);
    this.transactions.push({ steps, committed: thrown === undefined });
    if (thrown !== undefined) throw thrown;
    committed?.(value as T);
    return value as T;
  }

  /** The statements of each transaction, by name. */
  statements(): string[][] {
    return this.transactions.map((transaction) => transaction.steps.map((step) => step.statement));
  }
}

/** The statement a ledger's SQL text is, by name; anything else (log rows, their summaries) is `logs`. */
function statementNamed(dialect: Dialect, text: string): StatementName | 'logs' {
  const statements = ledgerStatements(dialect);
  const name = (Object.keys(statements) as StatementName[]).find((key) => statements[key] === text);
  return name ?? 'logs';
}

/** The answer to a statement of the given text, as a driver gives it: rows changed, and rows. */
function scriptedResult(
  dialect: Dialect,
  script: Script,
  text: string,
  params: readonly unknown[],
): { name: StatementName | 'logs'; rowCount: number; rows: Row[] } {
  const name = statementNamed(dialect, text);
  if (name === 'logs') return { name, rowCount: 1, rows: [] };
  const read = /^SELECT/.test(text);
  const step: LedgerStep = read
    ? {
        kind: name === 'expiredHolders' || name === 'holdsOf' ? 'all' : 'get',
        statement: name,
        params: [...params],
      }
    : { kind: 'run', statement: name, params: [...params] };
  const reply = answer(script, step);
  if (reply instanceof Error) throw reply;
  if (typeof reply === 'number') return { name, rowCount: reply, rows: [] };
  const rows = reply === undefined ? [] : Array.isArray(reply) ? reply : [reply];
  return { name, rowCount: rows.length, rows };
}

/**
 * A Kysely database that answers from the script: what the ledger's step-by-step path runs on (MySQL,
 * PostgreSQL without its pipeline). `events` lists BEGIN, each statement by name, COMMIT or ROLLBACK.
 */
export function scriptedSql(dialect: 'postgres' | 'mysql', script: Script): { sql: Sql; events: string[] } {
  const events: string[] = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery) {
      const { name, rowCount, rows } = scriptedResult(dialect, script, query.sql, query.parameters);
      events.push(name);
      return { rows: rows as R[], numAffectedRows: BigInt(rowCount) };
    },
    streamQuery() {
      throw new Error('the ledger streams nothing');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => void events.push('BEGIN'),
    commitTransaction: async () => void events.push('COMMIT'),
    rollbackTransaction: async () => void events.push('ROLLBACK'),
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const kysely = new Kysely<Database>({
    dialect: {
      createAdapter: () => (dialect === 'postgres' ? new PostgresAdapter() : new MysqlAdapter()),
      createDriver: () => driver,
      createIntrospector: (db) =>
        dialect === 'postgres' ? new PostgresIntrospector(db) : new MysqlIntrospector(db),
      createQueryCompiler: () =>
        dialect === 'postgres' ? new PostgresQueryCompiler() : new MysqlQueryCompiler(),
    },
  });
  return { sql: { kysely, dialect }, events };
}

/** A statement no literal can stand for was to be sent (see PgScripts). */
class NotWritable extends Error {}

/** A change expectingRows wrapped: the change, and the row count it must touch. */
function checkedChange(text: string): { sql: string; rows: number } | undefined {
  const match = /^WITH changed AS \((.*) RETURNING 1\) SELECT CASE WHEN count\(\*\) = (\d+) /s.exec(text);
  return match ? { sql: match[1] as string, rows: Number(match[2]) } : undefined;
}

/** One pipelined transaction as the script saw it. */
export interface ScriptedTrip {
  /** Each trip's statements, by name. */
  sends: string[][];
  committed: boolean | undefined;
  /** Whether the last trip carried the COMMIT (committed only if it did not fail). */
  commitInTrip: boolean;
}

/**
 * PostgreSQL's pipelined transactions (PgScripts) on the script: each `send` is one trip, answered
 * statement by statement; a value `inlineParameters` cannot write gives the transaction up
 * (undefined), and a checked change (expectingRows) that touches another count fails the trip, as
 * the real ones do. `trips` lists each transaction's trips.
 */
export function scriptedPgScripts(script: Script): { scripts: PgScripts; trips: ScriptedTrip[] } {
  const trips: ScriptedTrip[] = [];
  const scripts: PgScripts = {
    async transaction(work) {
      const trip: ScriptedTrip = { sends: [], committed: undefined, commitInTrip: false };
      trips.push(trip);
      try {
        trip.committed = await work(async (statements, options) => {
          for (const statement of statements)
            if (inlineParameters(statement) === undefined) throw new NotWritable();
          const names: string[] = [];
          trip.sends.push(names);
          trip.commitInTrip = options?.commit === true;
          return statements.map((statement) => {
            const checked = checkedChange(statement.sql);
            const { name, rowCount, rows } = scriptedResult(
              'postgres',
              script,
              checked?.sql ?? statement.sql,
              statement.parameters,
            );
            names.push(name);
            if (!checked) return { rowCount, rows };
            if (rowCount !== checked.rows) {
              const message = `invalid input syntax for type integer: "switchyard: rows changed other than guessed: ${rowCount}"`;
              throw Object.assign(new Error(message), { code: '22P02' });
            }
            return { rowCount: 1, rows: [{ checked: 1 }] };
          });
        });
        return trip.committed;
      } catch (error) {
        trip.committed = false;
        if (error instanceof NotWritable) return undefined;
        throw error;
      }
    },
  };
  return { scripts, trips };
}

/** A consumption log row as a settlement writes it. */
export const consumeLog = (quota: number, over: Partial<NewLogRow> = {}): NewLogRow => ({
  user_id: 1,
  created_at: 1_800_000_000,
  type: 2,
  content: 'model ratio 1',
  facts: logFactsText({ kind: 'consume', modelRatio: 1, groupRatio: 1, completionRatio: 1 }),
  username: 'ann',
  token_name: 'key',
  model_name: 'gpt-4o',
  quota,
  prompt_tokens: 10,
  completion_tokens: 20,
  channel_id: 5,
  request_id: 'request',
  elapsed_time: 300,
  is_stream: false,
  system_prompt_reset: false,
  ...over,
});

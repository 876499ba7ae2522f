import { ProgramLedger } from '../../src/db/ledger/program-ledger';
import type { LedgerStep, Program } from '../../src/db/ledger/programs';
import type { StatementName } from '../../src/db/ledger/statements';

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

  constructor(private readonly script: Script) {
    super();
  }

  protected async execute<T>(program: () => Program<T>): Promise<T> {
    const { steps, value, thrown } = runScripted(program(), this.script);
    this.transactions.push({ steps, committed: thrown === undefined });
    if (thrown !== undefined) throw thrown;
    return value as T;
  }

  /** The statements of each transaction, by name. */
  statements(): string[][] {
    return this.transactions.map((transaction) => transaction.steps.map((step) => step.statement));
  }
}

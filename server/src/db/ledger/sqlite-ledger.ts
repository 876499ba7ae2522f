import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { MaybePromise } from '../../maybe-promise';
import { summarizeLogs } from '../repos/log-summaries/buckets';
import { leftToFold } from '../repos/log-summaries/state';
import { dailyValues, hourlyValues, summaryUpsert } from '../repos/log-summaries/upserts';
import type { Database, NewLogRow } from '../schema';
import type { SqliteBusyTimeout } from '../sqlite-busy-timeout';
import { ProgramLedger } from './program-ledger';
import type { LedgerStep, Program } from './programs';
import { LOG_VALUES_PER_ROW, ledgerStatements, logInsert, logValues, type StatementName } from './statements';

type Statement = SqliteDatabase.Statement;

/** How often a transaction the database refused for a moment (SQLITE_BUSY) is tried again. */
const BUSY_RETRY_MS = 1;

const sqliteValue = (value: unknown): unknown =>
  typeof value === 'boolean' ? (value ? 1 : 0) : (value ?? null);

/**
 * The ledger on the embedded database: prepared statements run synchronously in one transaction,
 * without a query builder or a promise per statement. SQLite has one connection, shared with Kysely:
 * when Kysely holds a transaction open across awaits, the ledger waits for the connection;
 * otherwise nothing can be half-way through it, and the ledger's transaction runs at once.
 */
export class SqliteLedger extends ProgramLedger {
  readonly #prepared = new Map<string, Statement>();
  /** The ledger's statements by name: one lookup a step. */
  readonly #named = new Map<StatementName, Statement>();
  /** Every settlement runs these: prepared once, not looked up by their text each time. */
  readonly #begin: Statement;
  readonly #commit: Statement;
  /** The log rows' inserts and their summaries' upserts, prepared on first use. */
  #logStatements?: Record<'summarized' | 'awaitingFold' | 'hourly' | 'daily', Statement>;
  #logsLeftToFold = 0;

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly database: SqliteDatabase.Database,
    private readonly busyTimeout: SqliteBusyTimeout,
    /** LOG_SQL_DSN is set: the logs go to the outbox (see db/log-outbox.ts). */
    private readonly logOutbox = false,
  ) {
    super(true);
    this.#begin = database.prepare('BEGIN IMMEDIATE');
    this.#commit = database.prepare('COMMIT');
  }

  /** Prepared on first use: the tables exist only once migrations have run. */
  #statement(sql: string): Statement {
    let statement = this.#prepared.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.#prepared.set(sql, statement);
    }
    return statement;
  }

  #sql(name: StatementName): Statement {
    let statement = this.#named.get(name);
    if (!statement) {
      statement = this.#statement(ledgerStatements('sqlite')[name]);
      this.#named.set(name, statement);
    }
    return statement;
  }

  #step(step: LedgerStep): unknown {
    switch (step.kind) {
      case 'run':
        return this.#sql(step.statement).run(...step.params).changes;
      case 'change':
        this.#sql(step.statement).run(...step.params);
        return undefined;
      case 'get':
        return this.#sql(step.statement).get(...step.params);
      case 'all':
        return this.#sql(step.statement).all(...step.params);
      case 'logs':
        if (this.logOutbox) this.#insertOutbox(step.logs);
        else this.#insertLogs(step.logs);
        return undefined;
    }
  }

  #insertOutbox(logs: NewLogRow[]): void {
    const insert = this.#statement('INSERT INTO log_outbox (payload) VALUES (?)');
    for (const log of logs) insert.run(JSON.stringify(log));
  }

  /**
   * A batch's logs and their summaries: one upsert per distinct key, in the transaction. A lone log
   * (every batch at concurrency 1) would pay both upserts for itself: it is written marked as
   * awaiting a fold instead, which adds it after the commit, off the answer's path, at a fraction of
   * that (log-summaries/fold.ts); the totals read it from the logs until then.
   */
  #insertLogs(logs: NewLogRow[]): void {
    this.#logStatements ??= {
      summarized: this.#statement(logInsert('sqlite', 1)),
      awaitingFold: this.#statement(logInsert('sqlite', 1, true)),
      hourly: this.#statement(summaryUpsert('sqlite', 'log_summaries', 1)),
      daily: this.#statement(summaryUpsert('sqlite', 'log_daily_summaries', 1)),
    };
    const { summarized, awaitingFold, hourly, daily } = this.#logStatements;
    const lone = leftToFold('sqlite', logs.length);
    const insert = lone ? awaitingFold : summarized;
    const values: unknown[] = new Array(LOG_VALUES_PER_ROW);
    for (const log of logs) {
      logValues(log, values);
      for (let index = 0; index < values.length; index++) values[index] = sqliteValue(values[index]);
      // Spread: better-sqlite3 reads an array's values one N-API call each, its arguments at once.
      insert.run(...values);
    }
    if (lone) {
      this.#logsLeftToFold += 1;
      return;
    }
    const summaries = summarizeLogs(logs);
    for (const row of summaries.hourly) hourly.run(...hourlyValues(row));
    for (const row of summaries.daily) daily.run(...dailyValues(row));
  }

  override get logsLeftToFold(): number {
    return this.#logsLeftToFold;
  }

  /**
   * BEGIN IMMEDIATE without sleeping on the event loop: false when another connection holds the
   * database (the checkpointer starting the WAL over, another process), true once begun.
   */
  #beginAtOnce(): boolean {
    this.busyTimeout.noWait();
    try {
      this.#begin.run();
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
      throw error;
    }
  }

  #run<T>(program: () => Program<T>, committed?: (value: T) => void): T {
    try {
      const steps = program();
      let next = steps.next();
      while (!next.done) next = steps.next(this.#step(next.value));
      this.#commit.run();
      committed?.(next.value);
      return next.value;
    } catch (error) {
      if (this.database.inTransaction) this.#statement('ROLLBACK').run();
      throw error;
    }
  }

  /**
   * Begins as soon as the database is free, looking again every millisecond, for as long as the
   * driver would have waited (SQLITE_BUSY_TIMEOUT); then fails as the driver does.
   */
  async #runWhenFree<T>(program: () => Program<T>, committed?: (value: T) => void): Promise<T> {
    const giveUpAt = performance.now() + this.busyTimeout.waitMs;
    do {
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      if (this.database.inTransaction)
        return this.kysely.connection().execute(async () => this.#blocking(program, committed));
      if (this.#beginAtOnce()) return this.#run(program, committed);
    } while (performance.now() < giveUpAt);
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  }

  #blocking<T>(program: () => Program<T>, committed?: (value: T) => void): T {
    this.busyTimeout.wait();
    this.#begin.run();
    return this.#run(program, committed);
  }

  protected override executeNow<T>(
    program: () => Program<T>,
    committed?: (value: T) => void,
  ): MaybePromise<T> {
    if (this.database.inTransaction) return this.execute(program, committed);
    return this.#beginAtOnce() ? this.#run(program, committed) : this.#runWhenFree(program, committed);
  }

  protected execute<T>(program: () => Program<T>, committed?: (value: T) => void): Promise<T> {
    if (this.database.inTransaction) {
      return this.kysely.connection().execute(async () => this.#blocking(program, committed));
    }
    try {
      return this.#beginAtOnce()
        ? Promise.resolve(this.#run(program, committed))
        : this.#runWhenFree(program, committed);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

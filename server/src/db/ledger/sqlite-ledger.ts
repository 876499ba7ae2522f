import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { asSummarized, summarizeLogs } from '../repos/log-summaries/buckets';
import {
  dailyValues,
  hourlyValues,
  SQLITE_UPSERT_DAILY,
  SQLITE_UPSERT_HOURLY,
} from '../repos/log-summaries/sqlite-upserts';
import type { Database, NewLogRow } from '../schema';
import { ProgramLedger } from './program-ledger';
import type { LedgerStep, Program } from './programs';
import { ledgerStatements, type StatementName } from './statements';

type Statement = SqliteDatabase.Statement;

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

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly database: SqliteDatabase.Database,
    /** LOG_SQL_DSN is set: the logs go to the outbox (see db/log-outbox.ts). */
    private readonly logOutbox = false,
  ) {
    super();
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
    return this.#statement(ledgerStatements('sqlite')[name]);
  }

  #step(step: LedgerStep): unknown {
    switch (step.kind) {
      case 'run':
        return this.#sql(step.statement).run(...step.params).changes;
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

  #insertLogs(logs: NewLogRow[]): void {
    for (const log of asSummarized(logs)) {
      const columns = Object.keys(log);
      this.#statement(
        `INSERT INTO logs (${columns.join(',')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ).run(Object.values(log).map(sqliteValue));
    }
    // The summaries: one upsert per distinct key of the batch.
    const { hourly, daily } = summarizeLogs(logs);
    for (const row of hourly) this.#statement(SQLITE_UPSERT_HOURLY).run(hourlyValues(row));
    for (const row of daily) this.#statement(SQLITE_UPSERT_DAILY).run(dailyValues(row));
  }

  protected execute<T>(program: () => Program<T>): Promise<T> {
    const run = (): T => {
      this.#statement('BEGIN IMMEDIATE').run();
      try {
        const steps = program();
        let next = steps.next();
        while (!next.done) next = steps.next(this.#step(next.value));
        this.#statement('COMMIT').run();
        return next.value;
      } catch (error) {
        if (this.database.inTransaction) this.#statement('ROLLBACK').run();
        throw error;
      }
    };
    if (!this.database.inTransaction) {
      try {
        return Promise.resolve(run());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.kysely.connection().execute(async () => run());
  }
}

import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import {
  dailyValues,
  hourlyValues,
  SQLITE_UPSERT_DAILY,
  SQLITE_UPSERT_HOURLY,
  summarizeLogs,
} from '../repos/log-summaries';
import type { Database, NewLogRow } from '../schema';
import type { Debit, DebitResult, QuotaLedger } from './ledger';
import { type Settlement, totalSettlements } from './settlements';

type Statement = SqliteDatabase.Statement;

const sqliteValue = (value: unknown): unknown =>
  typeof value === 'boolean' ? (value ? 1 : 0) : (value ?? null);

function prepareStatements(database: SqliteDatabase.Database) {
  const prepare = (sql: string) => database.prepare(sql);
  return {
    begin: prepare('BEGIN IMMEDIATE'),
    commit: prepare('COMMIT'),
    rollback: prepare('ROLLBACK'),
    takeUser: prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?'),
    takeToken: prepare(
      'UPDATE tokens SET remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? ' +
        'WHERE id = ? AND remain_quota >= ?',
    ),
    giveUser: prepare('UPDATE users SET quota = quota + ? WHERE id = ?'),
    giveToken: prepare(
      'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota - ? WHERE id = ?',
    ),
    settleUser: prepare(
      'UPDATE users SET quota = quota - ?, used_quota = used_quota + ?, request_count = request_count + ? ' +
        'WHERE id = ?',
    ),
    settleToken: prepare(
      'UPDATE tokens SET remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? ' +
        'WHERE id = ?',
    ),
    settleChannel: prepare('UPDATE channels SET used_quota = used_quota + ?, response_time = ? WHERE id = ?'),
    summarizeHour: prepare(SQLITE_UPSERT_HOURLY),
    summarizeDay: prepare(SQLITE_UPSERT_DAILY),
  };
}

/**
 * The ledger on the embedded database: prepared statements run synchronously in one transaction,
 * without a query builder or a promise per statement. SQLite has one connection, shared with Kysely:
 * when Kysely holds a transaction open across awaits, the ledger waits for the connection;
 * otherwise nothing can be half-way through it, and the ledger's transaction runs at once.
 */
export class SqliteLedger implements QuotaLedger {
  #statements: ReturnType<typeof prepareStatements> | undefined;
  readonly #logInserts = new Map<string, Statement>();

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly database: SqliteDatabase.Database,
  ) {}

  /** Prepared on first use: the tables exist only once migrations have run. */
  get #sql() {
    this.#statements ??= prepareStatements(this.database);
    return this.#statements;
  }

  debit(batch: Debit[], now: number): Promise<DebitResult[]> {
    return this.#transaction(() =>
      batch.map(({ userId, tokenId, unlimitedToken, amount }): DebitResult => {
        if (this.#sql.takeUser.run(amount, userId, amount).changes !== 1) return 'user-quota';
        if (!unlimitedToken && this.#sql.takeToken.run(amount, amount, now, tokenId, amount).changes !== 1) {
          this.#sql.giveUser.run(amount, userId);
          return 'token-quota';
        }
        return 'ok';
      }),
    );
  }

  credit(batch: Debit[]): Promise<void> {
    return this.#transaction(() => {
      for (const { userId, tokenId, unlimitedToken, amount } of batch) {
        if (amount <= 0) continue;
        this.#sql.giveUser.run(amount, userId);
        if (!unlimitedToken) this.#sql.giveToken.run(amount, amount, tokenId);
      }
    });
  }

  settle(batch: Settlement[], now: number): Promise<void> {
    const totals = totalSettlements(batch);
    return this.#transaction(() => {
      for (const [userId, { delta, spent, calls }] of totals.users)
        this.#sql.settleUser.run(delta, spent, calls, userId);
      for (const [tokenId, { remainDelta, usedDelta }] of totals.tokens)
        this.#sql.settleToken.run(remainDelta, usedDelta, now, tokenId);
      for (const [channelId, { spent, responseTimeMs }] of totals.channels)
        this.#sql.settleChannel.run(spent, responseTimeMs, channelId);
      if (totals.logs.length === 0) return;
      for (const log of totals.logs) this.#insertLog(log);
      // The summaries: one upsert per distinct key of the batch.
      const { hourly, daily } = summarizeLogs(totals.logs);
      for (const row of hourly) this.#sql.summarizeHour.run(hourlyValues(row));
      for (const row of daily) this.#sql.summarizeDay.run(dailyValues(row));
    });
  }

  #insertLog(log: NewLogRow): void {
    const columns = Object.keys(log);
    const key = columns.join(',');
    let statement = this.#logInserts.get(key);
    if (!statement) {
      statement = this.database.prepare(
        `INSERT INTO logs (${key}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      this.#logInserts.set(key, statement);
    }
    statement.run(Object.values(log).map(sqliteValue));
  }

  /** Runs `work` as one transaction on the shared connection (rolled back whole if it throws). */
  #transaction<T>(work: () => T): Promise<T> {
    const run = () => {
      this.#sql.begin.run();
      try {
        const result = work();
        this.#sql.commit.run();
        return result;
      } catch (error) {
        if (this.database.inTransaction) this.#sql.rollback.run();
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

import type { Dialect } from '../connect';
import { withPlaceholders } from '../placeholders';
import type { NewLogRow } from '../schema';

/**
 * Every statement of the ledger, written once with `?` placeholders. The embedded database runs
 * them as prepared statements; MySQL through Kysely's raw queries; PostgreSQL as well, or with
 * their values written in as literals when its transactions are pipelined (db/pg-script.ts).
 */
function statements(dialect: Dialect) {
  // SQLite serialises writers (BEGIN IMMEDIATE); the servers lock the rows read before a change.
  const lock = dialect === 'sqlite' ? '' : ' FOR UPDATE';
  const addHold =
    'INSERT INTO quota_holds (holder, user_id, token_id, amount, token_amount) VALUES (?, ?, ?, ?, ?) ' +
    (dialect === 'mysql'
      ? 'ON DUPLICATE KEY UPDATE amount = amount + VALUES(amount), token_amount = token_amount + VALUES(token_amount)'
      : 'ON CONFLICT (holder, user_id, token_id) DO UPDATE SET amount = quota_holds.amount + excluded.amount, ' +
        'token_amount = quota_holds.token_amount + excluded.token_amount');
  return {
    registerHolder:
      'INSERT INTO quota_holders (holder, expires_at, settled_seq, released_at) VALUES (?, ?, 0, 0)',
    renewHolder: 'UPDATE quota_holders SET expires_at = ? WHERE holder = ? AND released_at = 0',
    readSettled: 'SELECT settled_seq FROM quota_holders WHERE holder = ?',
    markSettled: 'UPDATE quota_holders SET settled_seq = ? WHERE holder = ?',
    expiredHolders:
      'SELECT holder FROM quota_holders WHERE released_at = 0 AND expires_at < ? AND holder <> ?',
    claimHolder:
      'UPDATE quota_holders SET released_at = ? WHERE holder = ? AND released_at = 0 AND expires_at < ?',
    pruneHolders: 'DELETE FROM quota_holders WHERE released_at > 0 AND released_at < ?',

    readUser: `SELECT quota, held_quota FROM users WHERE id = ?${lock}`,
    readToken:
      'SELECT remain_quota, held_quota, budget_quota, budget_period, budget_used, budget_start ' +
      `FROM tokens WHERE id = ?${lock}`,
    holdUser: 'UPDATE users SET held_quota = held_quota + ? WHERE id = ?',
    holdToken: 'UPDATE tokens SET held_quota = held_quota + ?, accessed_time = ? WHERE id = ?',
    addHold,
    releaseHold:
      'UPDATE quota_holds SET amount = amount - ?, token_amount = token_amount - ? ' +
      'WHERE holder = ? AND user_id = ? AND token_id = ? AND amount >= ? AND token_amount >= ?',
    releaseUser: 'UPDATE users SET held_quota = held_quota - ? WHERE id = ?',
    releaseToken: 'UPDATE tokens SET held_quota = held_quota - ? WHERE id = ?',
    /**
     * Locking: a give-back of the holder still in flight commits first and is read (a plain read
     * could see the rows as they were, MySQL's snapshot, and give the same quota back again).
     */
    holdsOf: `SELECT user_id, token_id, amount, token_amount FROM quota_holds WHERE holder = ?${lock}`,
    dropHolds: 'DELETE FROM quota_holds WHERE holder = ?',
    heldByOthers:
      'SELECT COALESCE(SUM(amount), 0) AS held FROM quota_holds WHERE user_id = ? AND holder <> ?',

    /**
     * A charge the spendable balance covers once the batch's holds of this user (the second `?`)
     * are released, released in the same statement (one row version, not two).
     */
    chargeUser:
      'UPDATE users SET held_quota = held_quota - ?, quota = quota - ?, used_quota = used_quota + ?, ' +
      'request_count = request_count + ? WHERE id = ? AND quota - held_quota + ? >= ? AND quota >= ?',
    chargeToken:
      'UPDATE tokens SET held_quota = held_quota - ?, remain_quota = remain_quota - ?, ' +
      'used_quota = used_quota + ?, accessed_time = ? ' +
      'WHERE id = ? AND remain_quota - held_quota + ? >= ? AND remain_quota >= ?',
    /** Unguarded: the careful path has read and locked the row and worked out what it can pay. */
    chargeUserExactly:
      'UPDATE users SET quota = quota - ?, used_quota = used_quota + ?, request_count = request_count + ? ' +
      'WHERE id = ?',
    chargeTokenExactly:
      'UPDATE tokens SET remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? ' +
      'WHERE id = ?',
    /** The use of a key without a limit of its own, and what it gets back of the batch's holds. */
    useToken:
      'UPDATE tokens SET held_quota = held_quota - ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
    /**
     * Counts a charge into the key's budget period starting at the first `?`: added to what the
     * period spent, or the first of a new period. Guarded like chargeToken: the budget covers it.
     */
    chargeBudget:
      'UPDATE tokens SET budget_used = CASE WHEN budget_start = ? THEN COALESCE(budget_used, 0) + ? ELSE ? END, ' +
      'budget_start = ? WHERE id = ? AND budget_period = ? AND budget_quota > 0 AND budget_quota - held_quota - ' +
      'CASE WHEN budget_start = ? THEN COALESCE(budget_used, 0) ELSE 0 END >= ?',
    setBudgetUsed: 'UPDATE tokens SET budget_used = ?, budget_start = ? WHERE id = ?',
    chargeChannel: 'UPDATE channels SET used_quota = used_quota + ?, response_time = ? WHERE id = ?',
  };
}

export type LedgerStatements = ReturnType<typeof statements>;
export type StatementName = keyof LedgerStatements;

const cache = new Map<Dialect, LedgerStatements>();

/** The ledger's SQL for a dialect, with PostgreSQL's numbered placeholders. */
export function ledgerStatements(dialect: Dialect): LedgerStatements {
  let found = cache.get(dialect);
  if (!found) {
    const raw = statements(dialect);
    found = Object.fromEntries(
      Object.entries(raw).map(([name, text]) => [name, withPlaceholders(dialect, text)]),
    ) as LedgerStatements;
    cache.set(dialect, found);
  }
  return found;
}

/**
 * Every column the ledger writes a log row with, in one order. A column a row leaves out is nullable
 * and has no default, so NULL is what the database would have put.
 */
const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'channel_id',
  'request_id',
  'elapsed_time',
  'is_stream',
  'system_prompt_reset',
  'facts',
] as const satisfies ReadonlyArray<keyof NewLogRow>;
/** Fails to compile when a log column is added without being written here. */
const EVERY_LOG_COLUMN: Exclude<
  keyof NewLogRow,
  (typeof LOG_COLUMNS)[number] | 'id' | 'summarized'
> extends never
  ? true
  : never = true;
void EVERY_LOG_COLUMN;

const logInserts = new Map<string, string>();

/**
 * The INSERT of `rows` log rows (their values from logValues, one row after another), each marked as
 * in the summaries, which the ledger adds to in the same transaction (see asSummarized), or, where
 * a fold adds them after the commit (`awaitingFold`: see log-summaries/fold.ts), marked false.
 */
export function logInsert(dialect: Dialect, rows: number, awaitingFold = false): string {
  const key = `${dialect} ${rows} ${awaitingFold}`;
  let sql = logInserts.get(key);
  if (!sql) {
    const row = `(${LOG_COLUMNS.map(() => '?').join(', ')}, ${awaitingFold ? 'FALSE' : 'TRUE'})`;
    sql = withPlaceholders(
      dialect,
      `INSERT INTO logs (${LOG_COLUMNS.join(', ')}, summarized) VALUES ${new Array(rows).fill(row).join(', ')}`,
    );
    logInserts.set(key, sql);
  }
  return sql;
}

/** A log row's values in logInsert's column order, into `values` from `at`. */
export function logValues(log: NewLogRow, values: unknown[], at = 0): void {
  for (let index = 0; index < LOG_COLUMNS.length; index++) {
    values[at + index] = log[LOG_COLUMNS[index] as (typeof LOG_COLUMNS)[number]] ?? null;
  }
}

export const LOG_VALUES_PER_ROW = LOG_COLUMNS.length;

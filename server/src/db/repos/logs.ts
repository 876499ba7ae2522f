import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import { type LogFacts, logFactsText } from '@switchyard/contract/log-facts';
import type { LogFilter } from '@switchyard/contract/logs';
import { LogType } from '@switchyard/contract/roles';
import { type SelectQueryBuilder, sql } from 'kysely';
import { nowSeconds } from '../../clock';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { enqueueLog } from '../log-outbox';
import type { Database, LogRow, NewLogRow } from '../schema';
import { inTransaction } from '../transaction';
import { DAY, HOUR, summarizeLogs } from './log-summaries/buckets';
import { removeLogsFromSummaries } from './log-summaries/removal';
import { keepFoldedBelowNewest, leavesLoneLogsToFold, logsAwaitingFold } from './log-summaries/state';
import { splitRange, type TimeRange } from './log-summaries/time-ranges';
import { addLogSummaries } from './log-summaries/upserts';

/** A log to write: `content` in English for one-api's readers, `facts` for the console. */
export type NewLog = Pick<NewLogRow, 'user_id' | 'type' | 'content'> &
  Partial<Omit<NewLogRow, 'facts'>> & { facts?: LogFacts };

/** Writes one log and adds it to the summaries (marked so), in one transaction (the caller's, when it has one). */
export function insertLog(db: Sql, log: NewLog): Promise<number> {
  const row: NewLogRow = {
    created_at: nowSeconds(),
    username: '',
    token_name: '',
    model_name: '',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: 0,
    request_id: '',
    elapsed_time: 0,
    is_stream: false,
    system_prompt_reset: false,
    ...log,
    facts: log.facts ? logFactsText(log.facts) : null,
    summarized: true,
  };
  return insertLogRow(db, row);
}

/** Writes a whole log row (facts already as text) and adds it to the summaries, as insertLog does. */
export function insertLogRow(db: Sql, row: NewLogRow): Promise<number> {
  // LOG_SQL_DSN: the log waits in this database's outbox, in the caller's transaction.
  if (db.logOutbox) return enqueueLog(db, row);
  return inTransaction(db, async (tx) => {
    const id = await insertReturningId(tx, tx.kysely.insertInto('logs').values(row));
    await addLogSummaries(tx, summarizeLogs([row]));
    return id;
  });
}

/**
 * The scope of a log query: one user's, or everyone's but the users a reader may not see
 * (`hiddenUserIds`, from users.ts: administrators' and root's, for an administrator).
 */
export type LogScope = { userId?: number; hiddenUserIds?: readonly number[] };

/** Leaves out the rows of the users the scope hides (the same column in the logs and their summaries). */
function withoutHidden<T extends 'logs' | 'log_summaries', O>(
  query: SelectQueryBuilder<Database, T, O>,
  scope: LogScope,
): SelectQueryBuilder<Database, T, O> {
  const hidden = scope.hiddenUserIds ?? [];
  if (hidden.length === 0) return query;
  return (query as SelectQueryBuilder<Database, 'logs', O>).where('user_id', 'not in', [
    ...hidden,
  ]) as unknown as SelectQueryBuilder<Database, T, O>;
}

function filtered<O>(
  query: SelectQueryBuilder<Database, 'logs', O>,
  filter: Partial<LogFilter>,
  scope: LogScope,
): SelectQueryBuilder<Database, 'logs', O> {
  let q = withoutHidden(query, scope);
  if (scope.userId !== undefined) q = q.where('user_id', '=', scope.userId);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.startTimestamp) q = q.where('created_at', '>=', filter.startTimestamp);
  if (filter.endTimestamp) q = q.where('created_at', '<=', filter.endTimestamp);
  if (filter.modelName) q = q.where('model_name', '=', filter.modelName);
  if (filter.tokenName) q = q.where('token_name', '=', filter.tokenName);
  if (filter.username) q = q.where('username', '=', filter.username);
  if (filter.channel) q = q.where('channel_id', '=', filter.channel);
  return q;
}

/**
 * One page, newest first. Without a time range the newest rows come straight from the id order (or
 * the filter's index, which keeps its rows in id order). A time range (or a username, which has no
 * index of its own) would read every matching row whole to sort them: there the page's ids come
 * first from an index alone, and only the ten rows shown are read whole.
 */
export function listLogs(
  db: Sql,
  filter: Partial<LogFilter>,
  scope: LogScope,
  page: number,
): Promise<LogRow[]> {
  if (!filter.startTimestamp && !filter.endTimestamp && !filter.username)
    return filtered(db.kysely.selectFrom('logs').selectAll(), filter, scope)
      .orderBy('id', 'desc')
      .limit(ITEMS_PER_PAGE)
      .offset(page * ITEMS_PER_PAGE)
      .execute();
  return db.kysely
    .selectFrom(
      filtered(db.kysely.selectFrom('logs').select('id'), filter, scope)
        .orderBy('id', 'desc')
        .limit(ITEMS_PER_PAGE)
        .offset(page * ITEMS_PER_PAGE)
        .as('page'),
    )
    .innerJoin('logs', 'logs.id', 'page.id')
    .selectAll('logs')
    .orderBy('logs.id', 'desc')
    .execute();
}

/**
 * The sum of quota over the filters; without a type filter, of consumption only. Exactly the SUM
 * over the matching logs, read mostly from the summaries: whole days from the daily one (when no
 * user or token is chosen), whole hours from the hourly one, raw logs only for the partial hours
 * at the range's edges. One statement, so one snapshot.
 */
export async function sumLogQuota(db: Sql, filter: Partial<LogFilter>, scope: LogScope): Promise<number> {
  const f = { ...filter, type: filter.type || LogType.consume };
  const byUser =
    scope.userId !== undefined ||
    Boolean(scope.hiddenUserIds?.length) ||
    Boolean(f.username) ||
    Boolean(f.tokenName);
  const k = db.kysely;
  const parts: Array<SelectQueryBuilder<Database, keyof Database, { quota: number | null }>> = [];
  /** The logs of whole buckets a summary lacks yet: the ledger's lone logs until they are folded. */
  const awaitingFold = (whole: { from?: number; before?: number }) => {
    if (!leavesLoneLogsToFold(db.dialect)) return;
    const range = { startTimestamp: whole.from, endTimestamp: whole.before && whole.before - 1 };
    parts.push(
      filtered(
        logsAwaitingFold(db).select((eb) => eb.fn.sum<number | null>('quota').as('quota')),
        { ...f, ...range },
        scope,
      ) as never,
    );
  };
  const hourlyOrRaw = (range: TimeRange) => {
    const { whole, edges } = splitRange(range, HOUR);
    if (whole) {
      awaitingFold(whole);
      let q = k
        .selectFrom('log_summaries')
        .select((eb) => eb.fn.sum<number | null>('quota').as('quota'))
        .where('type', '=', f.type);
      if (whole.from !== undefined) q = q.where('bucket', '>=', whole.from);
      if (whole.before !== undefined) q = q.where('bucket', '<', whole.before);
      if (scope.userId !== undefined) q = q.where('user_id', '=', scope.userId);
      q = withoutHidden(q, scope);
      if (f.modelName) q = q.where('model_name', '=', f.modelName);
      if (f.tokenName) q = q.where('token_name', '=', f.tokenName);
      if (f.username) q = q.where('username', '=', f.username);
      if (f.channel) q = q.where('channel_id', '=', f.channel);
      parts.push(q as never);
    }
    for (const edge of edges)
      parts.push(
        filtered(
          k.selectFrom('logs').select((eb) => eb.fn.sum<number | null>('quota').as('quota')),
          { ...f, startTimestamp: edge.from, endTimestamp: edge.to },
          scope,
        ) as never,
      );
  };
  const range: TimeRange = { from: f.startTimestamp || undefined, to: f.endTimestamp || undefined };
  if (byUser) hourlyOrRaw(range);
  else {
    const { whole, edges } = splitRange(range, DAY);
    if (whole) {
      awaitingFold(whole);
      let q = k
        .selectFrom('log_daily_summaries')
        .select((eb) => eb.fn.sum<number | null>('quota').as('quota'))
        .where('type', '=', f.type);
      if (whole.from !== undefined) q = q.where('bucket', '>=', whole.from);
      if (whole.before !== undefined) q = q.where('bucket', '<', whole.before);
      if (f.modelName) q = q.where('model_name', '=', f.modelName);
      if (f.channel) q = q.where('channel_id', '=', f.channel);
      parts.push(q as never);
    }
    for (const edge of edges) hourlyOrRaw(edge);
  }
  if (parts.length === 0) return 0;
  // Scalar subqueries added up, not a UNION: PostgreSQL would run a union's parts in parallel
  // workers, whose start costs more than these few small index scans.
  const row = await k
    .selectNoFrom(
      sql<number>`${sql.join(
        parts.map((part) => sql`coalesce((${part}), 0)`),
        sql` + `,
      )}`.as('quota'),
    )
    .executeTakeFirst();
  return Number(row?.quota ?? 0);
}

/** The plain SUM over the matching logs (what the summaries must always agree with). */
export async function sumLogQuotaRaw(db: Sql, filter: Partial<LogFilter>, scope: LogScope): Promise<number> {
  const row = await filtered(
    db.kysely
      .selectFrom('logs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota')),
    { ...filter, type: filter.type || LogType.consume },
    scope,
  ).executeTakeFirst();
  return Number(row?.quota ?? 0);
}

/** Deletes the logs created before `timestamp` and takes them out of the summaries, in one transaction. */
export function deleteLogsBefore(db: Sql, timestamp: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await removeLogsFromSummaries(tx, timestamp);
    const result = await tx.kysely.deleteFrom('logs').where('created_at', '<', timestamp).executeTakeFirst();
    await keepFoldedBelowNewest(tx);
    return Number(result.numDeletedRows);
  });
}

export const searchLogs = (db: Sql, keyword: string, scope: LogScope, limit: number): Promise<LogRow[]> =>
  filtered(db.kysely.selectFrom('logs').selectAll(), {}, scope)
    .where((eb) =>
      eb.or([
        eb('token_name', '=', keyword),
        eb('model_name', '=', keyword),
        eb('username', '=', keyword),
        eb('request_id', '=', keyword),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** Consumption per UTC day and model between two times (seconds), in one aggregated query. */
export async function dailyUsage(db: Sql, since: number, until: number, scope: LogScope) {
  const dayNumber =
    db.dialect === 'mysql' ? sql<number>`created_at div 86400` : sql<number>`created_at / 86400`;
  const rows = await filtered(db.kysely.selectFrom('logs'), {}, scope)
    .select((eb) => [
      dayNumber.as('day_number'),
      'model_name',
      eb.fn.countAll<number>().as('request_count'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
    ])
    .where('type', '=', LogType.consume)
    .where('created_at', '>=', since)
    .where('created_at', '<=', until)
    .groupBy([dayNumber, 'model_name'])
    .orderBy(dayNumber)
    .execute();
  return rows.map((row) => ({
    Day: new Date(Number(row.day_number) * 86400 * 1000).toISOString().slice(0, 10),
    ModelName: row.model_name,
    RequestCount: Number(row.request_count),
    Quota: Number(row.quota ?? 0),
    PromptTokens: Number(row.prompt_tokens ?? 0),
    CompletionTokens: Number(row.completion_tokens ?? 0),
  }));
}

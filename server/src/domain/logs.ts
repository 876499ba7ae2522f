import { SEARCH_LIMIT } from '@switchyard/contract/envelope';
import { parseLogFacts } from '@switchyard/contract/log-facts';
import type { DashboardRow, LogEntry, LogFilter } from '@switchyard/contract/logs';
import { LogType } from '@switchyard/contract/roles';
import { nowSeconds } from '../clock';
import type { Sql } from '../db/connect';
import {
  dailyUsage,
  deleteLogsBefore,
  insertLog,
  type LogScope,
  listLogs,
  searchLogs,
  sumLogQuota,
} from '../db/repos/logs';
import { findUserByUsername, hiddenUserIds } from '../db/repos/users';
import type { LogRow } from '../db/schema';
import { DomainError } from './errors';
import { type Actor, canSeeUser, userVisibility } from './permissions';

/** Whose logs a call reads: one user's own, or everyone's that a reader may see (permissions.ts). */
export type LogReader = { own: number } | { visibleTo: Actor };

const DASHBOARD_DEFAULT_DAYS = 7;
const DASHBOARD_MAX_DAYS = 366;

export const toApiLog = (row: LogRow): LogEntry => ({
  id: row.id,
  user_id: row.user_id,
  created_at: row.created_at,
  type: row.type,
  content: row.content ?? '',
  username: row.username ?? '',
  token_name: row.token_name ?? '',
  model_name: row.model_name ?? '',
  quota: Number(row.quota ?? 0),
  prompt_tokens: Number(row.prompt_tokens ?? 0),
  completion_tokens: Number(row.completion_tokens ?? 0),
  channel: Number(row.channel_id ?? 0),
  request_id: row.request_id ?? '',
  elapsed_time: Number(row.elapsed_time ?? 0),
  is_stream: Boolean(row.is_stream),
  facts: parseLogFacts(row.facts) ?? null,
});

/** Usage logs: everyone's for administrators, one's own for everybody. */
export class LogService {
  /** `db` is where logs are written (with LOG_SQL_DSN its outbox), `logs` where they are read. */
  constructor(private readonly deps: { db: Sql; logs: Sql }) {}

  async list(filter: Partial<LogFilter>, reader: LogReader, page: number): Promise<LogEntry[]> {
    return (await listLogs(this.deps.logs, filter, await this.#scope(reader), page)).map(toApiLog);
  }

  async stat(filter: Partial<LogFilter>, reader: LogReader): Promise<number> {
    return sumLogQuota(this.deps.logs, filter, await this.#scope(reader));
  }

  async search(keyword: string, reader: LogReader): Promise<LogEntry[]> {
    const rows = await searchLogs(this.deps.logs, keyword.trim(), await this.#scope(reader), SEARCH_LIMIT);
    return rows.map(toApiLog);
  }

  /** The users are read where they live (the logs may be in another database). */
  async #scope(reader: LogReader): Promise<LogScope> {
    if ('own' in reader) return { userId: reader.own };
    return { hiddenUserIds: await hiddenUserIds(this.deps.db, userVisibility(reader.visibleTo)) };
  }

  /** A channel test's line: which channel, the model it asked, how long it took and what came back. */
  async recordChannelTest(test: {
    channel: { id: number; name: string };
    model: string;
    elapsedMs: number;
    success: boolean;
    message: string;
  }): Promise<void> {
    const { channel, success, message } = test;
    await insertLog(this.deps.db, {
      user_id: 0,
      type: LogType.test,
      channel_id: channel.id,
      model_name: test.model,
      elapsed_time: test.elapsedMs,
      content: success
        ? `Channel ${channel.name} test succeeded, response: ${message}`
        : `Channel ${channel.name} test failed, error: ${message}`,
      facts: { kind: 'channel_test', channel: channel.name, success, message },
    });
  }

  /** A channel the system switched off or on, as a system log line (one-api writes it to its server log). */
  async recordChannelSwitch(channel: { id: number; name: string }, content: string): Promise<void> {
    await insertLog(this.deps.db, { user_id: 0, type: LogType.system, channel_id: channel.id, content });
  }

  async deleteBefore(timestamp: number): Promise<number> {
    if (!timestamp || timestamp <= 0) throw new DomainError('logs_before_missing');
    return deleteLogsBefore(this.deps.logs, timestamp);
  }

  /** Daily consumption per model: one's own, or (for an administrator) everyone's or one user's it may see. */
  async dashboard(
    range: { start?: number; end?: number },
    who: { own: number } | { visibleTo: Actor; username?: string },
  ): Promise<DashboardRow[]> {
    const end = range.end || nowSeconds();
    const start = range.start || end - DASHBOARD_DEFAULT_DAYS * 86400;
    if (start > end) throw new DomainError('range_reversed');
    if (end - start > DASHBOARD_MAX_DAYS * 86400)
      throw new DomainError('range_too_long', { days: DASHBOARD_MAX_DAYS });
    if ('own' in who || !who.username) return dailyUsage(this.deps.logs, start, end, await this.#scope(who));
    const user = await findUserByUsername(this.deps.db, who.username);
    // A user the reader may not see is as unknown as one that does not exist.
    if (!user || !canSeeUser(who.visibleTo, user)) throw new DomainError('user_not_found');
    return dailyUsage(this.deps.logs, start, end, { userId: user.id });
  }
}

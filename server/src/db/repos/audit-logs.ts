import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { Insertable } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import { startsWith } from '../like';
import type { AuditLogRow, AuditLogsTable } from '../schema';
import type { UserVisibility } from './users';

/** What a page of the audit log is filtered by; `visibleTo` keeps the entries of the users a reader may see. */
export interface AuditLogFilter {
  actor?: string;
  action?: string;
  target?: string;
  start?: number;
  end?: number;
  visibleTo?: UserVisibility;
}

/** Retention: deletes up to `limit` of the oldest entries from before `timestamp`; answers how many. */
export async function deleteOldestAuditLogsBefore(
  db: Sql,
  timestamp: number,
  limit: number,
): Promise<number> {
  const rows = await db.kysely
    .selectFrom('audit_logs')
    .select('id')
    .where('created_at', '<', timestamp)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (rows.length === 0) return 0;
  await db.kysely
    .deleteFrom('audit_logs')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows.length;
}

export const insertAuditLog = (db: Sql, row: Insertable<AuditLogsTable>): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('audit_logs').values(row));

/** One page of entries, newest first. Actor and target match from their start; an action exactly, or
 * every action under a prefix ending with a dot (`user.`). */
export function listAuditLogs(db: Sql, filter: AuditLogFilter, page: number): Promise<AuditLogRow[]> {
  let query = db.kysely.selectFrom('audit_logs').selectAll();
  if (filter.actor) query = query.where(startsWith('actor_name', filter.actor));
  if (filter.action) {
    query = filter.action.endsWith('.')
      ? query.where(startsWith('action', filter.action))
      : query.where('action', '=', filter.action);
  }
  if (filter.target) {
    const target = filter.target;
    query = query.where((eb) =>
      eb.or([
        startsWith('target_name', target),
        eb('target_id', '=', target),
        startsWith('target_type', target),
      ]),
    );
  }
  if (filter.start !== undefined) query = query.where('created_at', '>=', filter.start);
  if (filter.end !== undefined) query = query.where('created_at', '<=', filter.end);
  const visibility = filter.visibleTo;
  if (visibility) {
    query = query.where((eb) =>
      eb.or([eb('actor_role', '<', visibility.belowRole), eb('actor_id', '=', visibility.selfId)]),
    );
  }
  return query
    .orderBy('id', 'desc')
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();
}

/** Whether an entry of this action already names this actor and IP (a known address). */
export async function auditEntryExists(
  db: Sql,
  actorId: number,
  action: string,
  ip: string,
): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('audit_logs')
    .select('id')
    .where('actor_id', '=', actorId)
    .where('action', '=', action)
    .where('ip', '=', ip)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

import type { AuditAction, AuditEntry } from '@switchyard/contract/audit';
import { nowSeconds } from '../../clock';
import type { Sql } from '../../db/connect';
import {
  type AuditLogFilter,
  auditEntryExists,
  insertAuditLog,
  listAuditLogs,
} from '../../db/repos/audit-logs';
import type { AuditLogRow } from '../../db/schema';
import type { OptionsStore } from '../options';
import { type Actor, userVisibility } from '../permissions';
import { maskFields } from './secrets';
import { loadSnapshot, type Snapshot, type TargetRef } from './snapshots';

/** Who did it; a failed sign-in has only the name that was tried (id 0). */
export type AuditActor = Actor;

export interface AuditRecord {
  actor: AuditActor;
  ip: string;
  action: AuditAction;
  targetType?: TargetRef['type'] | '';
  target?: Snapshot;
  before?: Snapshot;
  after?: Snapshot;
  /** Facts of an action without a stored target (how many codes, up to when logs were removed). */
  details?: Record<string, unknown>;
}

const ACCESS_TOKEN_NEW_IP: AuditAction = 'auth.access_token_new_ip';
/** Bound on the addresses remembered per process; beyond it the table answers. */
const KNOWN_ADDRESSES_MAX = 10_000;

const withoutEmpty = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== '' && value != null));

/** The fields that differ (every one with a value when one side is missing), each side masked. */
function changedFields(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  if (!before || !after) {
    const whole = (record: Record<string, unknown> | undefined) =>
      record ? maskFields(withoutEmpty(record)) : null;
    return { before: whole(before), after: whole(after) };
  }
  const changed = Object.keys({ ...before, ...after }).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const only = (record: Record<string, unknown>) =>
    maskFields(Object.fromEntries(changed.map((key) => [key, record[key]])));
  return { before: only(before), after: only(after) };
}

const parseJson = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

export const toAuditEntry = (row: AuditLogRow): AuditEntry => ({
  ...row,
  before: parseJson(row.before),
  after: parseJson(row.after),
});

/**
 * The audit log: entries are only ever added (no route changes or removes one). Root reads all of
 * them, anyone else its own and those of actors below its role (permissions.ts's userVisibility).
 */
export class AuditLog {
  readonly #knownAddresses = new Set<string>();

  constructor(private readonly deps: { db: Sql; options: OptionsStore }) {}

  snapshot(ref: TargetRef): Promise<Snapshot | undefined> {
    return loadSnapshot(this.deps.db, this.deps.options, ref);
  }

  /** Writes the entry; `db` a transaction when the entry must land with the change it records. */
  async record(record: AuditRecord, db: Sql = this.deps.db): Promise<void> {
    // The target as it was named when the change began (a deleted user's name is overwritten).
    const target = record.before ?? record.after ?? record.target;
    const changes = changedFields(record.before?.fields, record.after?.fields ?? record.details);
    await insertAuditLog(db, {
      created_at: nowSeconds(),
      actor_id: record.actor.id,
      actor_name: record.actor.username.slice(0, 191),
      actor_role: record.actor.role,
      ip: record.ip.slice(0, 64),
      action: record.action,
      target_type: record.targetType ?? '',
      target_id: target?.id ?? '',
      target_name: (target?.name ?? '').slice(0, 191),
      before: changes.before ? JSON.stringify(changes.before) : null,
      after: changes.after ? JSON.stringify(changes.after) : null,
    });
  }

  async list(viewer: Actor, filter: Omit<AuditLogFilter, 'visibleTo'>, page: number): Promise<AuditEntry[]> {
    const visibleTo = userVisibility(viewer);
    return (await listAuditLogs(this.deps.db, { ...filter, visibleTo }, page)).map(toAuditEntry);
  }

  /** An access token used from an address this user's token was never seen from is recorded once. */
  async noteAccessTokenUse(user: Actor, ip: string): Promise<void> {
    const key = `${user.id}|${ip}`;
    if (this.#knownAddresses.has(key)) return;
    if (!(await auditEntryExists(this.deps.db, user.id, ACCESS_TOKEN_NEW_IP, ip))) {
      await this.record({
        actor: user,
        ip,
        action: ACCESS_TOKEN_NEW_IP,
        targetType: 'user',
        target: selfTarget(user),
      });
    }
    if (this.#knownAddresses.size >= KNOWN_ADDRESSES_MAX) this.#knownAddresses.clear();
    this.#knownAddresses.add(key);
  }
}

const selfTarget = (user: Actor): Snapshot => ({ id: String(user.id), name: user.username, fields: {} });

import type { AuditAction } from '@switchyard/contract/audit';
import { UserStatus } from '@switchyard/contract/roles';
import type { Sql } from '../../db/connect';
import { findUserById } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import type { AuditLog } from '../audit/audit-log';
import { DomainError } from '../errors';
import type { Actor } from '../permissions';

/**
 * The user whose first sign-in step passed at `epoch`. Banned, deleted or signed out everywhere
 * since: that sign-in is over.
 */
export async function waitingUser(db: Sql, pending: { id: number; epoch: number }): Promise<UserRow> {
  const user = await findUserById(db, pending.id);
  if (!user || user.status !== UserStatus.enabled || user.session_epoch !== pending.epoch) {
    throw new DomainError('two_factor_not_pending');
  }
  return user;
}

/** An audit entry of a second factor: who did it, to whose account. */
export async function recordTwoFactor(
  audit: AuditLog,
  action: AuditAction,
  actor: Actor,
  target: Actor,
  ip: string,
): Promise<void> {
  await audit.record({
    actor: { id: actor.id, username: actor.username, role: actor.role },
    ip,
    action,
    targetType: 'user',
    target: { id: String(target.id), name: target.username, fields: {} },
  });
}

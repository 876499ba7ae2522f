import { isRootRole, Role, UserStatus } from '@switchyard/contract/roles';
import type { ManageAction } from '@switchyard/contract/users';
import type { UserChanges } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { DomainError } from '../errors';
import type { Actor } from '../permissions';

/**
 * What an administrator's promote, demote, disable, enable or delete does to the target's role and
 * status ('delete' is the soft delete), or a refusal. The caller has checked it may manage the target.
 */
export function manageTransition(
  actor: Actor,
  target: UserRow,
  action: ManageAction,
): UserChanges | 'delete' {
  const targetIsRoot = isRootRole(target.role);
  switch (action) {
    case 'disable':
      if (targetIsRoot) throw new DomainError('root_undisableable');
      return { status: UserStatus.disabled };
    case 'enable':
      return { status: UserStatus.enabled };
    case 'delete':
      if (targetIsRoot) throw new DomainError('root_undeletable');
      return 'delete';
    case 'promote':
      if (!isRootRole(actor.role)) throw new DomainError('promote_root_only');
      if (target.role >= Role.admin) throw new DomainError('user_already_admin');
      return { role: Role.admin };
    case 'demote':
      if (targetIsRoot) throw new DomainError('root_undemotable');
      if (target.role === Role.common) throw new DomainError('user_already_common');
      return { role: Role.common };
  }
}

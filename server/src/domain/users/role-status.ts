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
      if (targetIsRoot) throw new DomainError('The super administrator cannot be disabled');
      return { status: UserStatus.disabled };
    case 'enable':
      return { status: UserStatus.enabled };
    case 'delete':
      if (targetIsRoot) throw new DomainError('The super administrator cannot be deleted');
      return 'delete';
    case 'promote':
      if (!isRootRole(actor.role)) throw new DomainError('Only the super administrator can promote users');
      if (target.role >= Role.admin) throw new DomainError('This user is already an administrator');
      return { role: Role.admin };
    case 'demote':
      if (targetIsRoot) throw new DomainError('The super administrator cannot be demoted');
      if (target.role === Role.common) throw new DomainError('This user is already a normal user');
      return { role: Role.common };
  }
}

import { isRootRole } from '@switchyard/contract/roles';

export interface Actor {
  id: number;
  username: string;
  role: number;
}

/** Nobody but root manages a user of equal or higher role. */
export const canManageUser = (actor: Actor, targetRole: number): boolean =>
  isRootRole(actor.role) || actor.role > targetRole;

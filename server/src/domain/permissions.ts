import { isRootRole } from '@switchyard/contract/roles';
import type { UserVisibility } from '../db/repos/users';

export interface Actor {
  id: number;
  username: string;
  role: number;
}

/** Nobody but root manages a user of equal or higher role. */
export const canManageUser = (actor: Actor, targetRole: number): boolean =>
  isRootRole(actor.role) || actor.role > targetRole;

/**
 * Whose rows a reader sees in every list, search, log, statistic and the audit log: root everyone's
 * (undefined); anyone else its own and those of the users it may manage (below its role).
 */
export const userVisibility = (actor: Actor): UserVisibility | undefined =>
  isRootRole(actor.role) ? undefined : { belowRole: actor.role, selfId: actor.id };

/** The same rule for one user. */
export function canSeeUser(actor: Actor, target: { id: number; role: number }): boolean {
  const visibility = userVisibility(actor);
  return !visibility || target.role < visibility.belowRole || target.id === visibility.selfId;
}

/**
 * Channel keys are root's alone: nobody else reads one (they are blanked), nor sends one somewhere
 * new by changing where the channel's requests go (see `ChannelService.update`).
 */
export const canSeeChannelKeys = (actor: Pick<Actor, 'role'>): boolean => isRootRole(actor.role);

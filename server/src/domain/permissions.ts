import { isRootRole } from '@switchyard/contract/roles';

export interface Actor {
  id: number;
  username: string;
  role: number;
}

/** Nobody but root manages a user of equal or higher role. */
export const canManageUser = (actor: Actor, targetRole: number): boolean =>
  isRootRole(actor.role) || actor.role > targetRole;

/**
 * Channel keys are root's alone: nobody else reads one (they are blanked), nor sends one somewhere
 * new by changing where the channel's requests go (see `ChannelService.update`).
 */
export const canSeeChannelKeys = (actor: Pick<Actor, 'role'>): boolean => isRootRole(actor.role);

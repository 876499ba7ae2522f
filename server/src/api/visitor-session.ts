import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeSession } from './access';
import type { SessionCodec, SessionData } from './session';

/** A session for someone not signed in (it carries an OAuth state or a passed bot check); id 0 is nobody. */
export const VISITOR: SessionData = { id: 0, username: '', role: 0, status: 0, epoch: 0 };

/** Adds fields to the caller's session (signed in or not) and sends it back. */
export function updateSession(
  request: FastifyRequest,
  reply: FastifyReply,
  codec: SessionCodec,
  fields: Partial<SessionData>,
): void {
  const session = { ...(request.session ?? VISITOR), ...fields };
  request.session = session;
  writeSession(reply, codec, session);
}

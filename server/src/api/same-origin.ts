import { CONSOLE_CALL_HEADER } from '@switchyard/contract/console-call';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { DomainError } from '../domain/errors';
import { languageOf, refusal } from './envelope';
import { SESSION_COOKIE } from './session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes something (kept a GET for one-api's clients): a browser may run it only
     * from this site, since a Lax session cookie rides along on another site's link.
     */
    changesState?: boolean;
  }
}

export const changesState = (route: RouteOptions): boolean => route.config?.changesState === true;

type Provenance = 'this site' | 'another site' | 'unknown';

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Where a call came from, by what browsers send: the console's header, Sec-Fetch-Site, Origin, Referer. */
function provenance(request: FastifyRequest): Provenance {
  if (request.headers[CONSOLE_CALL_HEADER.toLowerCase()]) return 'this site';
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return 'this site';
  if (fetchSite) return 'another site';
  const own = `${request.protocol}://${request.host}`;
  const origin = request.headers.origin ?? request.headers.referer;
  if (!origin) return 'unknown';
  return originOf(origin) === own ? 'this site' : 'another site';
}

/**
 * Refuses a state-changing GET that a browser sent from another site, or that carries the session
 * cookie with no sign of this site. Access-token calls (Authorization) are no browser's ambient
 * credential and pass; so do cookie-less calls with no browser signals (scripts, curl).
 */
export async function sameOriginGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.headers.authorization) return;
  const from = provenance(request);
  if (from === 'this site') return;
  if (from === 'unknown' && !request.cookies[SESSION_COOKIE]) return;
  await reply.code(403).send(refusal(new DomainError('cross_site_call'), languageOf(request)));
}

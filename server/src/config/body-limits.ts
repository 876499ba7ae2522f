import { type Env, fail, readInteger } from './env';

const MB = 1024 * 1024;

/** What one address may hold of the budget while its caller is unknown: a few sign-in-sized forms. */
const ANONYMOUS_ADDRESS_SHARE = 4 * MB;

export interface BodyLimits {
  /** Largest body a /v1 relay call may send (RELAY_BODY_LIMIT MB): uploads of images and audio. */
  relayBodyLimit: number;
  /** Bytes of request bodies all calls together may have in memory at once (REQUEST_BODY_BUDGET MB). */
  bodyBudget: number;
  /** Bytes of the budget one user (its keys and sessions together) may hold (REQUEST_BODY_USER_SHARE MB). */
  bodyUserShare: number;
  /** Bytes of the budget all callers not yet known (no key, no session) may hold together: a quarter. */
  bodyAnonymousShare: number;
  /** Bytes of the budget one address may hold while its caller is unknown. */
  bodyAddressShare: number;
  /** A body that sends nothing for this long is answered 408 (REQUEST_BODY_IDLE_TIMEOUT seconds). */
  bodyIdleTimeoutMs: number;
  /** The whole request, head and body, must arrive within this (REQUEST_TIMEOUT seconds), or 408. */
  requestTimeoutMs: number;
}

/**
 * RELAY_BODY_LIMIT, REQUEST_BODY_BUDGET and the shares of it, in bytes (one relay call must fit in
 * the budget and in a user's share), and the deadlines for a body to arrive, in milliseconds.
 */
export function readBodyLimits(env: Env): BodyLimits {
  const relayMb = readInteger(env, 'RELAY_BODY_LIMIT', 32, 1, 1024);
  const budgetMb = readInteger(env, 'REQUEST_BODY_BUDGET', Math.max(256, relayMb), 16, 65536);
  if (budgetMb < relayMb) {
    fail('REQUEST_BODY_BUDGET', `must be at least RELAY_BODY_LIMIT (${relayMb}), got ${budgetMb}`);
  }
  const shareMb = readInteger(
    env,
    'REQUEST_BODY_USER_SHARE',
    Math.max(relayMb, Math.floor(budgetMb / 4)),
    1,
    budgetMb,
  );
  if (shareMb < relayMb) {
    fail('REQUEST_BODY_USER_SHARE', `must be at least RELAY_BODY_LIMIT (${relayMb}), got ${shareMb}`);
  }
  const anonymousShare = Math.floor((budgetMb * MB) / 4);
  return {
    relayBodyLimit: relayMb * MB,
    bodyBudget: budgetMb * MB,
    bodyUserShare: shareMb * MB,
    bodyAnonymousShare: anonymousShare,
    bodyAddressShare: Math.min(ANONYMOUS_ADDRESS_SHARE, anonymousShare),
    bodyIdleTimeoutMs: readInteger(env, 'REQUEST_BODY_IDLE_TIMEOUT', 30, 1, 3600) * 1000,
    requestTimeoutMs: readInteger(env, 'REQUEST_TIMEOUT', 300, 1, 86400) * 1000,
  };
}

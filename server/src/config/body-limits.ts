import { type Env, fail, readInteger } from './env';

const MB = 1024 * 1024;

export interface BodyLimits {
  /** Largest body a /v1 relay call may send (RELAY_BODY_LIMIT MB): uploads of images and audio. */
  relayBodyLimit: number;
  /** Bytes of request bodies all calls together may have in memory at once (REQUEST_BODY_BUDGET MB). */
  bodyBudget: number;
}

/** RELAY_BODY_LIMIT and REQUEST_BODY_BUDGET, in bytes: one relay call must fit in the budget. */
export function readBodyLimits(env: Env): BodyLimits {
  const relayMb = readInteger(env, 'RELAY_BODY_LIMIT', 32, 1, 1024);
  const budgetMb = readInteger(env, 'REQUEST_BODY_BUDGET', Math.max(256, relayMb), 16, 65536);
  if (budgetMb < relayMb) {
    fail('REQUEST_BODY_BUDGET', `must be at least RELAY_BODY_LIMIT (${relayMb}), got ${budgetMb}`);
  }
  return { relayBodyLimit: relayMb * MB, bodyBudget: budgetMb * MB };
}

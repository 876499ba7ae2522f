import type { Sql } from '../../db/connect';
import { takeAttempt } from '../../db/repos/two-factor';
import { DomainError } from '../errors';

/** Second factors tried per user in a window, right or wrong; a right one starts the count afresh. */
const ATTEMPT_LIMIT = 5;
const ATTEMPT_WINDOW_MINUTES = 15;

/** Counts one try of a code or passkey for the user, or refuses it once the window's tries are used up. */
export async function countAttempt(db: Sql, userId: number, nowMs: number): Promise<void> {
  const now = Math.floor(nowMs / 1000);
  if (!(await takeAttempt(db, userId, now, now - ATTEMPT_WINDOW_MINUTES * 60, ATTEMPT_LIMIT))) {
    throw new DomainError('two_factor_too_many_attempts', { minutes: ATTEMPT_WINDOW_MINUTES });
  }
}

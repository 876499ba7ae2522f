import { hash, verify } from '@node-rs/bcrypt';

const BCRYPT_COST = 10;

// Native bcrypt on libuv's thread pool: a check costs tens of milliseconds of CPU, which in
// JavaScript held the event loop (a burst of sign-ins stalled every relay call for seconds).
// It writes `$2y$` hashes: the same algorithm as one-api's `$2a$`, which Go's bcrypt reads.
export const hashPassword = (password: string): Promise<string> => hash(password, BCRYPT_COST);

/** False for a wrong password and for a stored hash that is not bcrypt's. */
export const passwordMatches = (password: string, stored: string): Promise<boolean> =>
  verify(password, stored).catch(() => false);

/**
 * A hash of BCRYPT_COST that no password is checked against for real: a sign-in for an account that
 * does not exist (or has no password) is compared with it, so that it takes as long as a wrong
 * password and the answer's time does not tell which accounts exist.
 */
export const NO_ACCOUNT_HASH = '$2b$10$v3oLKK6b3W.qxIY4ZUKbOOwIAlvViw3iWBhqKch1W9sPQwukhqFve';

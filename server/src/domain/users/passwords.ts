import bcrypt from 'bcryptjs';

const BCRYPT_COST = 10;

export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, BCRYPT_COST);

export const passwordMatches = (password: string, hash: string): Promise<boolean> =>
  bcrypt.compare(password, hash);

/**
 * A hash of BCRYPT_COST that no password is checked against for real: a sign-in for an account that
 * does not exist (or has no password) is compared with it, so that it takes as long as a wrong
 * password and the answer's time does not tell which accounts exist.
 */
export const NO_ACCOUNT_HASH = '$2b$10$v3oLKK6b3W.qxIY4ZUKbOOwIAlvViw3iWBhqKch1W9sPQwukhqFve';

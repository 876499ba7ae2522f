import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/bcrypt';

/**
 * Password hashes: bcrypt, natively on libuv's thread pool (a check costs tens of milliseconds of
 * CPU, which in JavaScript held the event loop). It writes `$2y$` hashes: the same algorithm as
 * one-api's `$2a$`, which Go's bcrypt reads; a check reads the cost from the stored hash.
 */
export class Passwords {
  #noAccountHash: Promise<string> | undefined;

  /** `cost`: PASSWORD_HASH_COST. */
  constructor(private readonly cost: number) {}

  hash(password: string): Promise<string> {
    return hash(password, this.cost);
  }

  /** False for a wrong password and for a stored hash that is not bcrypt's. */
  matches(password: string, stored: string): Promise<boolean> {
    return verify(password, stored).catch(() => false);
  }

  /**
   * For a sign-in to an account that does not exist (or has no password): compared with a hash of
   * this cost that no password matches, so it takes as long as a wrong password and the answer's time
   * does not tell which accounts exist.
   */
  matchesNoAccount(password: string): Promise<boolean> {
    // Made once, off the event loop like every hash.
    this.#noAccountHash ??= this.hash(randomBytes(16).toString('hex'));
    return this.#noAccountHash.then((stored) => this.matches(password, stored));
  }
}

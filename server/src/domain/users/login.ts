import { UserStatus } from '@switchyard/contract/roles';
import type { Sql } from '../../db/connect';
import { endSessionsAt, findUserByLogin, type SignedInSession } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { Passwords } from './passwords';

/** Checks a password login; the same message for every failure so accounts cannot be probed. */
export async function verifyLogin(
  db: Sql,
  options: OptionsStore,
  passwords: Passwords,
  login: string,
  password: string,
): Promise<UserRow> {
  if (!options.bool('PasswordLoginEnabled')) {
    throw new DomainError('password_login_off');
  }
  const row = await findUserByLogin(db, login.trim());
  // The same hashing work whether or not the account exists.
  const matches = row?.password
    ? await passwords.matches(password, row.password)
    : await passwords.matchesNoAccount(password);
  if (!row?.password || !matches || row.status !== UserStatus.enabled) {
    throw new DomainError('login_failed');
  }
  return row;
}

/**
 * Logout ends every session of the user, not only this browser's: a copy of the cookie taken
 * elsewhere must not outlive it. A session that no longer holds changes nothing.
 */
export async function logout(db: Sql, session: SignedInSession | undefined): Promise<void> {
  if (session) await endSessionsAt(db, session);
}

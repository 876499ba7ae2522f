import { UserStatus } from '@switchyard/contract/roles';
import type { Sql } from '../../db/connect';
import { findUserByLogin } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { passwordMatches } from './passwords';

/** Checks a password login; the same message for every failure so accounts cannot be probed. */
export async function verifyLogin(
  db: Sql,
  options: OptionsStore,
  login: string,
  password: string,
): Promise<UserRow> {
  if (!options.bool('PasswordLoginEnabled')) {
    throw new DomainError('password_login_off');
  }
  const row = await findUserByLogin(db, login.trim());
  const matches = row?.password ? await passwordMatches(password, row.password) : false;
  if (!row || !matches || row.status !== UserStatus.enabled) {
    throw new DomainError('login_failed');
  }
  return row;
}

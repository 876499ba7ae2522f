import { Role, TokenStatus } from '@switchyard/contract/roles';
import { nowSeconds } from '../clock';
import type { Sql } from '../db/connect';
import { insertToken } from '../db/repos/tokens';
import { countUsers } from '../db/repos/users';
import type { UserService } from './users';

export const DEFAULT_ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';
const ROOT_QUOTA = 500_000_000_000_000;

export interface RootBootstrap {
  initialRootToken?: string;
  initialRootAccessToken?: string;
}

/**
 * On a database without any user, creates root/123456 (and, when configured, its first API key).
 * Answers true when it did, so the caller can warn that the password must be changed.
 */
export async function ensureRootUser(db: Sql, users: UserService, settings: RootBootstrap): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  const root = await users.create({
    username: DEFAULT_ROOT_USERNAME,
    password: DEFAULT_ROOT_PASSWORD,
    display_name: 'Root User',
    role: Role.root,
    quota: ROOT_QUOTA,
    accessToken: settings.initialRootAccessToken,
  });
  if (settings.initialRootToken) {
    const now = nowSeconds();
    await insertToken(db, {
      user_id: root.id,
      key: settings.initialRootToken,
      status: TokenStatus.enabled,
      name: 'Initial Root Token',
      created_time: now,
      accessed_time: now,
      expired_time: -1,
      remain_quota: ROOT_QUOTA,
      unlimited_quota: true,
      used_quota: 0,
      models: '',
      subnet: '',
    });
  }
  return true;
}

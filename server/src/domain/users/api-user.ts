import type { User } from '@switchyard/contract/users';
import type { UserRow } from '../../db/schema';

/** The user as the API shows it in lists and to administrators: no password hash, no access token. */
export function toApiUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    password: '',
    display_name: row.display_name ?? '',
    role: row.role,
    status: row.status,
    email: row.email ?? '',
    github_id: row.github_id ?? '',
    wechat_id: row.wechat_id ?? '',
    lark_id: row.lark_id ?? '',
    oidc_id: row.oidc_id ?? '',
    oidc_subject: row.oidc_subject ?? '',
    verification_code: '',
    access_token: '',
    quota: Number(row.quota ?? 0),
    used_quota: Number(row.used_quota ?? 0),
    request_count: Number(row.request_count ?? 0),
    group: row.group || 'default',
    aff_code: row.aff_code ?? '',
    inviter_id: Number(row.inviter_id ?? 0),
    rpm_limit: Number(row.rpm_limit ?? 0),
    tpm_limit: Number(row.tpm_limit ?? 0),
    concurrency_limit: Number(row.concurrency_limit ?? 0),
  };
}

/** The caller's own row (GET /api/user/self): with their own access token, as one-api gives it. */
export const toOwnApiUser = (row: UserRow): User => ({
  ...toApiUser(row),
  access_token: row.access_token ?? '',
});

/** The audit log: who changed what through the console API, and every sign-in. */

/** What replaces a secret's value in an entry's before/after (keys, passwords, tokens, secret options). */
export const AUDIT_SECRET_MARKER = '[secret]';

/** The actions an entry may name; `user.manage.<action>` for /api/user/manage. */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.access_token_new_ip',
  'auth.two_factor_recovery_code',
  'user.create',
  'user.update',
  'user.update_self',
  'user.access_token',
  'user.two_factor_enable',
  'user.two_factor_disable',
  'user.two_factor_reset',
  'user.two_factor_recovery_codes',
  'user.passkey_add',
  'user.passkey_remove',
  'user.delete',
  'user.manage.promote',
  'user.manage.demote',
  'user.manage.disable',
  'user.manage.enable',
  'user.manage.delete',
  'user.topup',
  'token.create',
  'token.update',
  'token.delete',
  'channel.create',
  'channel.update',
  'channel.delete',
  'channel.delete_disabled',
  'option.update',
  'redemption.create',
  'redemption.update',
  'redemption.delete',
  'log.delete',
  'topup.paid',
  'topup.refused',
  'topup.refund',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  ip: string;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  /** The changed fields before and after, secrets replaced by AUDIT_SECRET_MARKER; null when none. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

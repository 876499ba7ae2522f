import {
  CHANNEL_BASE_URL_MAX,
  CHANNEL_GROUP_MAX,
  CHANNEL_MODEL_MAPPING_MAX,
} from '@switchyard/contract/channels';
import { TOKEN_SUBNET_MAX } from '@switchyard/contract/tokens';

/**
 * The portable description of every table: one-api's column names, types and index names
 * (gorm's `idx_<table>_<column>`), plus the indexes the console's filters and sorts need.
 */
export type ColumnType =
  | { kind: 'id' }
  | { kind: 'bigint' }
  | { kind: 'varchar'; length: number }
  | { kind: 'char'; length: number }
  | { kind: 'text' }
  | { kind: 'bool' }
  | { kind: 'double' };

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  notNull?: boolean;
  default?: string | number | boolean;
}

export interface IndexDefinition {
  name: string;
  columns: string[];
  unique?: boolean;
}

export interface TableDefinition {
  name: string;
  columns: ColumnDefinition[];
  /** A composite primary key; tables without one use their `id` column. */
  primaryKey?: string[];
  indexes: IndexDefinition[];
}

const id: ColumnDefinition = { name: 'id', type: { kind: 'id' } };
const bigint = (name: string, value?: number): ColumnDefinition => ({
  name,
  type: { kind: 'bigint' },
  ...(value === undefined ? {} : { default: value }),
});
const varchar = (name: string, length = 191, value?: string): ColumnDefinition => ({
  name,
  type: { kind: 'varchar', length },
  ...(value === undefined ? {} : { default: value }),
});
const text = (name: string): ColumnDefinition => ({ name, type: { kind: 'text' } });
const bool = (name: string): ColumnDefinition => ({ name, type: { kind: 'bool' }, default: false });
/**
 * Quota held for calls in flight and for a process's next calls (not part of one-api's schema; one-api
 * leaves it at 0). The spendable balance is `quota − held_quota` (`remain_quota − held_quota` for a key).
 */
const heldQuota: ColumnDefinition = {
  name: 'held_quota',
  type: { kind: 'bigint' },
  notNull: true,
  default: 0,
};
/**
 * Which sessions of a user are still good (not part of one-api's schema; one-api leaves it at 0). A
 * session cookie carries the epoch it was issued at; raising it ends every session issued before.
 */
const sessionEpoch: ColumnDefinition = {
  name: 'session_epoch',
  type: { kind: 'bigint' },
  notNull: true,
  default: 0,
};
/** Per-key and per-user limits (ours, not one-api's): nullable, NULL meaning none, so one-api never sees them. */
const nullableBigint = (name: string): ColumnDefinition => ({ name, type: { kind: 'bigint' } });
const rateLimits = ['rpm_limit', 'tpm_limit', 'concurrency_limit'].map(nullableBigint);
/** A key's periodic budget: its amount, its period (daily, weekly, monthly), spent since its start. */
const budget = [
  nullableBigint('budget_quota'),
  { name: 'budget_period', type: { kind: 'varchar', length: 16 } } satisfies ColumnDefinition,
  nullableBigint('budget_used'),
  nullableBigint('budget_start'),
];
const index = (table: string, column: string, unique = false): IndexDefinition => ({
  name: `idx_${table}_${column}`,
  columns: [column],
  unique,
});

export const TABLES: TableDefinition[] = [
  {
    name: 'users',
    columns: [
      id,
      varchar('username'),
      { name: 'password', type: { kind: 'text' }, notNull: true },
      varchar('display_name'),
      bigint('role', 1),
      bigint('status', 1),
      varchar('email'),
      varchar('github_id'),
      varchar('wechat_id'),
      varchar('lark_id'),
      varchar('oidc_id'),
      // The subject of the user's OpenID Connect account (ours; one-api's oidc_id stays its own).
      varchar('oidc_subject', 255),
      { name: 'access_token', type: { kind: 'char', length: 32 } },
      bigint('quota', 0),
      bigint('used_quota', 0),
      bigint('request_count', 0),
      varchar('group', 32, 'default'),
      varchar('aff_code', 32),
      bigint('inviter_id'),
      heldQuota,
      sessionEpoch,
      ...rateLimits,
    ],
    indexes: [
      index('users', 'username', true),
      index('users', 'display_name'),
      index('users', 'email'),
      index('users', 'github_id'),
      index('users', 'wechat_id'),
      index('users', 'lark_id'),
      index('users', 'oidc_id'),
      index('users', 'oidc_subject'),
      index('users', 'access_token', true),
      index('users', 'aff_code', true),
      index('users', 'inviter_id'),
      // No indexes on quota, used_quota or request_count: they change on every relayed call, and
      // an index on them would be rewritten each time. Sorting users by them scans a small table.
    ],
  },
  {
    name: 'tokens',
    columns: [
      id,
      bigint('user_id'),
      { name: 'key', type: { kind: 'char', length: 48 } },
      bigint('status', 1),
      varchar('name'),
      bigint('created_time'),
      bigint('accessed_time'),
      bigint('expired_time', -1),
      bigint('remain_quota', 0),
      bool('unlimited_quota'),
      bigint('used_quota', 0),
      text('models'),
      varchar('subnet', TOKEN_SUBNET_MAX, ''),
      heldQuota,
      ...rateLimits,
      ...budget,
    ],
    indexes: [index('tokens', 'key', true), index('tokens', 'name'), index('tokens', 'user_id')],
  },
  {
    name: 'channels',
    columns: [
      id,
      bigint('type', 0),
      text('key'),
      bigint('status', 1),
      varchar('name'),
      bigint('weight', 0),
      bigint('created_time'),
      bigint('test_time'),
      bigint('response_time'),
      varchar('base_url', CHANNEL_BASE_URL_MAX, ''),
      text('other'),
      { name: 'balance', type: { kind: 'double' } },
      bigint('balance_updated_time'),
      text('models'),
      varchar('group', CHANNEL_GROUP_MAX, 'default'),
      bigint('used_quota', 0),
      varchar('model_mapping', CHANNEL_MODEL_MAPPING_MAX, ''),
      bigint('priority', 0),
      text('config'),
      text('system_prompt'),
      // Why the last test failed, empty after a passed one (not part of one-api's schema).
      text('test_error'),
    ],
    indexes: [index('channels', 'name'), index('channels', 'status')],
  },
  {
    name: 'abilities',
    columns: [
      varchar('group', 32),
      varchar('model', 191),
      bigint('channel_id'),
      { name: 'enabled', type: { kind: 'bool' } },
      bigint('priority', 0),
    ],
    primaryKey: ['group', 'model', 'channel_id'],
    indexes: [index('abilities', 'channel_id'), index('abilities', 'priority')],
  },
  {
    name: 'redemptions',
    columns: [
      id,
      bigint('user_id'),
      { name: 'key', type: { kind: 'char', length: 32 } },
      bigint('status', 1),
      varchar('name'),
      bigint('quota', 100),
      bigint('created_time'),
      bigint('redeemed_time'),
    ],
    indexes: [index('redemptions', 'key', true), index('redemptions', 'name')],
  },
  {
    name: 'logs',
    columns: [
      id,
      bigint('user_id'),
      bigint('created_at'),
      bigint('type'),
      text('content'),
      varchar('username', 191, ''),
      varchar('token_name', 191, ''),
      varchar('model_name', 191, ''),
      bigint('quota', 0),
      bigint('prompt_tokens', 0),
      bigint('completion_tokens', 0),
      bigint('channel_id'),
      varchar('request_id', 191, ''),
      bigint('elapsed_time', 0),
      bool('is_stream'),
      bool('system_prompt_reset'),
      // What the line says as JSON (contract/log-facts), beside `content` (not part of one-api's schema).
      text('facts'),
    ],
    indexes: [
      { name: 'idx_created_at_type', columns: ['created_at', 'type'] },
      { name: 'index_username_model_name', columns: ['model_name', 'username'] },
      index('logs', 'user_id'),
      index('logs', 'token_name'),
      // Also needed beside index_username_model_name: it keeps rows of one model in id order.
      index('logs', 'model_name'),
      index('logs', 'channel_id'),
    ],
  },
  {
    name: 'options',
    columns: [{ name: 'key', type: { kind: 'varchar', length: 191 }, notNull: true }, text('value')],
    primaryKey: ['key'],
    indexes: [],
  },
];

/**
 * Summaries of the logs table for cheap totals (added by migration 0002, not part of one-api's schema).
 * Bucket = the start of the UTC hour or day (seconds); every row's key is its primary key.
 */
export const LOG_SUMMARY_TABLES: TableDefinition[] = [
  {
    name: 'log_summaries',
    columns: [
      bigint('bucket'),
      bigint('type'),
      bigint('user_id'),
      varchar('username', 191, ''),
      varchar('token_name', 191, ''),
      varchar('model_name', 191, ''),
      bigint('channel_id'),
      bigint('quota', 0),
      bigint('log_count', 0),
    ],
    primaryKey: ['bucket', 'type', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'],
    indexes: [
      { name: 'idx_log_summaries_user_id', columns: ['user_id', 'bucket'] },
      { name: 'idx_log_summaries_username', columns: ['username', 'bucket'] },
      { name: 'idx_log_summaries_token_name', columns: ['token_name', 'bucket'] },
    ],
  },
  {
    name: 'log_daily_summaries',
    columns: [
      bigint('bucket'),
      bigint('type'),
      varchar('model_name', 191, ''),
      bigint('channel_id'),
      bigint('quota', 0),
      bigint('log_count', 0),
    ],
    primaryKey: ['bucket', 'type', 'model_name', 'channel_id'],
    indexes: [],
  },
];

/**
 * The ledger's holds (added by migration 0003). Each running process is a holder with a lease; a
 * hold row says how much one holder holds of one user's quota and one key's (0 for an unlimited
 * key). When a lease runs out (the process died), another process gives its holds back.
 */
export const LEDGER_TABLES: TableDefinition[] = [
  {
    name: 'quota_holders',
    columns: [
      { name: 'holder', type: { kind: 'varchar', length: 64 }, notNull: true },
      bigint('expires_at', 0),
      bigint('settled_seq', 0),
      bigint('released_at', 0),
    ],
    primaryKey: ['holder'],
    indexes: [{ name: 'idx_quota_holders_expires_at', columns: ['released_at', 'expires_at'] }],
  },
  {
    name: 'quota_holds',
    columns: [
      { name: 'holder', type: { kind: 'varchar', length: 64 }, notNull: true },
      { name: 'user_id', type: { kind: 'bigint' }, notNull: true },
      { name: 'token_id', type: { kind: 'bigint' }, notNull: true },
      bigint('amount', 0),
      bigint('token_amount', 0),
    ],
    primaryKey: ['holder', 'user_id', 'token_id'],
    indexes: [{ name: 'idx_quota_holds_user_id', columns: ['user_id'] }],
  },
];

/**
 * Which logs the summaries hold (added by migration 0004). `logs.summarized` is a column of ours in
 * one-api's table, nullable and without a default: Switchyard sets it on the logs it writes with their
 * summary (false on the lone logs the ledger leaves to a fold: log-summaries/fold.ts), rows another
 * program writes leave it NULL until they are caught up. The index that finds those rows depends on
 * the dialect (partial where it can be) and is made by the migration.
 */
export const LOG_SUMMARY_MARK_TABLES: TableDefinition[] = [
  { name: 'logs', columns: [{ name: 'summarized', type: { kind: 'bool' } }], indexes: [] },
  {
    name: 'log_summary_state',
    columns: [
      { name: 'name', type: { kind: 'varchar', length: 32 }, notNull: true },
      bigint('summarized_through', 0),
      bigint('updated_at', 0),
    ],
    primaryKey: ['name'],
    indexes: [],
  },
];

/**
 * Who changed what through the console API, and every sign-in (added by migration 0008, not part of
 * one-api's schema). `before` and `after` hold the changed fields as JSON, secrets already replaced.
 */
export const AUDIT_TABLES: TableDefinition[] = [
  {
    name: 'audit_logs',
    columns: [
      id,
      bigint('created_at', 0),
      bigint('actor_id', 0),
      varchar('actor_name', 191, ''),
      bigint('actor_role', 0),
      varchar('ip', 64, ''),
      varchar('action', 64, ''),
      varchar('target_type', 32, ''),
      varchar('target_id', 64, ''),
      varchar('target_name', 191, ''),
      text('before'),
      text('after'),
    ],
    indexes: [
      index('audit_logs', 'created_at'),
      { name: 'idx_audit_logs_actor', columns: ['actor_name', 'created_at'] },
      { name: 'idx_audit_logs_action', columns: ['action', 'created_at'] },
      { name: 'idx_audit_logs_access_ip', columns: ['actor_id', 'action', 'ip'] },
    ],
  },
];

/**
 * Video generation jobs (added by migration 0010, not part of one-api's schema): which user and key
 * asked which channel for which upstream job, its state, and the quota held for it (`billing`: held,
 * settling, settled, refunded). `id` is ours and opaque; `upstream_id` the provider's (a Sora video
 * id, a Veo operation name).
 */
export const VIDEO_JOB_TABLES: TableDefinition[] = [
  {
    name: 'video_jobs',
    columns: [
      { name: 'id', type: { kind: 'varchar', length: 48 }, notNull: true },
      bigint('user_id', 0),
      varchar('username', 191, ''),
      bigint('token_id', 0),
      varchar('token_name', 191, ''),
      varchar('user_group', 64, ''),
      bool('unlimited_token'),
      varchar('budget_period', 16, ''),
      bigint('channel_id', 0),
      varchar('upstream_id', 512, ''),
      varchar('model', 191, ''),
      bigint('seconds', 0),
      varchar('size', 32, ''),
      varchar('status', 16, ''),
      bigint('progress', 0),
      bigint('quota', 0),
      varchar('holder', 64, ''),
      varchar('billing', 16, ''),
      varchar('error', 512, ''),
      bigint('created_at', 0),
      bigint('updated_at', 0),
      bigint('finished_at', 0),
    ],
    primaryKey: ['id'],
    indexes: [
      { name: 'idx_video_jobs_user', columns: ['user_id', 'created_at'] },
      { name: 'idx_video_jobs_billing', columns: ['billing', 'updated_at'] },
      index('video_jobs', 'created_at'),
    ],
  },
];

/**
 * Online top-up orders (added by migration 0011, not part of one-api's schema): who buys how much
 * quota for how much money through which gateway, and the order's state. `trade_no` is ours (what the
 * gateway is told and echoes back); `provider_ref` the gateway's (a Checkout Session id, EPay's trade_no).
 */
export const PAYMENT_ORDER_TABLES: TableDefinition[] = [
  {
    name: 'payment_orders',
    columns: [
      id,
      varchar('trade_no', 64, ''),
      bigint('user_id', 0),
      varchar('username', 191, ''),
      varchar('method', 16, ''),
      bigint('amount', 0),
      bigint('quota', 0),
      bigint('money', 0),
      varchar('currency', 8, ''),
      varchar('status', 16, ''),
      varchar('provider_ref', 255, ''),
      bigint('refunded_quota', 0),
      varchar('error', 512, ''),
      bigint('created_at', 0),
      bigint('paid_at', 0),
      bigint('updated_at', 0),
    ],
    indexes: [
      index('payment_orders', 'trade_no', true),
      { name: 'idx_payment_orders_user', columns: ['user_id', 'id'] },
    ],
  },
];

/**
 * Two-factor sign-in (added by migration 0012, not part of one-api's schema): one row per user who
 * started or finished enrolment. `secret` is the TOTP secret encrypted under SESSION_SECRET; it counts
 * only once `enabled`. `last_step` is the newest TOTP time step accepted (a code is never taken twice);
 * `recovery_codes` the SHA-256 hashes of the unused recovery codes as a JSON array; `failed_attempts`
 * the codes tried since `attempts_since` (the attempt limit's window).
 */
export const TWO_FACTOR_TABLES: TableDefinition[] = [
  {
    name: 'two_factor',
    columns: [
      { name: 'user_id', type: { kind: 'bigint' }, notNull: true },
      varchar('secret', 255, ''),
      bool('enabled'),
      bigint('last_step', 0),
      text('recovery_codes'),
      bigint('failed_attempts', 0),
      bigint('attempts_since', 0),
      bigint('created_at', 0),
    ],
    primaryKey: ['user_id'],
    indexes: [],
  },
  /** Passkeys (WebAuthn), another second factor of a user with two-factor sign-in on: `id` is the
   * credential id, `public_key` its COSE key (base64url), `counter` the authenticator's signature count. */
  {
    name: 'two_factor_passkeys',
    columns: [
      { name: 'id', type: { kind: 'varchar', length: 255 }, notNull: true },
      bigint('user_id', 0),
      varchar('name', 64, ''),
      text('public_key'),
      bigint('counter', 0),
      varchar('transports', 255, ''),
      bigint('created_at', 0),
      bigint('last_used_at', 0),
    ],
    primaryKey: ['id'],
    indexes: [index('two_factor_passkeys', 'user_id')],
  },
];

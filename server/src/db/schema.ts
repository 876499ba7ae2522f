import type { Generated, Insertable, Selectable } from 'kysely';

/** Tables and columns exactly as one-api names them, so an existing one-api database opens as it is. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  lark_id: string;
  oidc_id: string;
  /** The OpenID Connect subject bound to the user (ours; NULL in rows one-api wrote). */
  oidc_subject: string | null;
  access_token: string | null;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string | null;
  inviter_id: number;
  held_quota: Generated<number>;
  session_epoch: Generated<number>;
  /** Limits for every key of the user (ours, nullable; NULL: none). */
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean | number;
  used_quota: number;
  models: string | null;
  subnet: string | null;
  held_quota: Generated<number>;
  /** The key's own limits (ours, nullable; NULL: none). */
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
  /** Quota per period (NULL: no budget), the period, and what was spent since `budget_start`. */
  budget_quota: number | null;
  budget_period: string | null;
  budget_used: number | null;
  budget_start: number | null;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: number;
  key: string;
  status: number;
  name: string;
  weight: number | null;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string | null;
  other: string | null;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  used_quota: number;
  model_mapping: string | null;
  priority: number | null;
  config: string;
  system_prompt: string | null;
  test_error: string | null;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: boolean | number;
  priority: number | null;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
}

export interface LogsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  channel_id: number;
  request_id: string;
  elapsed_time: number;
  is_stream: boolean | number;
  system_prompt_reset: boolean | number;
  /** The line's facts as JSON (contract/log-facts); NULL in rows another program wrote. */
  facts: string | null;
  /** Set when the log is in the summaries (Switchyard's writes); NULL in rows another program wrote. */
  summarized: boolean | number | null;
}

/** Consumption per hour and every filterable column of logs (kept with each log insert and delete). */
export interface LogSummariesTable {
  bucket: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel_id: number;
  quota: number;
  log_count: number;
}

/** Consumption per day, type, model and channel: the totals that do not filter by user or token. */
export interface LogDailySummariesTable {
  bucket: number;
  type: number;
  model_name: string;
  channel_id: number;
  quota: number;
  log_count: number;
}

/** One row: orders catch-ups, clean-ups and rebuilds of the summaries, and says what the last rebuild took in. */
export interface LogSummaryStateTable {
  name: string;
  /** Every log with an id up to this one was in the last rebuild of the summaries. */
  summarized_through: number;
  updated_at: number;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  log_summaries: LogSummariesTable;
  log_daily_summaries: LogDailySummariesTable;
  log_summary_state: LogSummaryStateTable;
  options: OptionsTable;
  quota_holders: QuotaHoldersTable;
  quota_holds: QuotaHoldsTable;
  audit_logs: AuditLogsTable;
  log_outbox: LogOutboxTable;
  log_receipts: LogReceiptsTable;
  video_jobs: VideoJobsTable;
  payment_orders: PaymentOrdersTable;
  two_factor: TwoFactorTable;
  two_factor_passkeys: TwoFactorPasskeysTable;
}

/** An online top-up order (ours; see PAYMENT_ORDER_TABLES). */
export interface PaymentOrdersTable {
  id: Generated<number>;
  trade_no: string;
  user_id: number;
  username: string;
  method: string;
  amount: number;
  quota: number;
  money: number;
  currency: string;
  status: string;
  provider_ref: string;
  refunded_quota: number;
  error: string;
  created_at: number;
  paid_at: number;
  updated_at: number;
}

/** A user's two-factor enrolment (ours; see TWO_FACTOR_TABLES). */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  enabled: boolean | number;
  last_step: number;
  recovery_codes: string | null;
  failed_attempts: number;
  attempts_since: number;
  created_at: number;
}

/** A passkey of a user with two-factor sign-in on (ours; see TWO_FACTOR_TABLES). */
export interface TwoFactorPasskeysTable {
  id: string;
  user_id: number;
  name: string;
  public_key: string | null;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number;
}

/** A video generation job (ours; see VIDEO_JOB_TABLES). */
export interface VideoJobsTable {
  id: string;
  user_id: number;
  username: string;
  token_id: number;
  token_name: string;
  /** The user's group when the job was made: its price's group ratio. */
  user_group: string;
  unlimited_token: boolean | number;
  budget_period: string;
  channel_id: number;
  upstream_id: string;
  model: string;
  seconds: number;
  size: string;
  status: string;
  progress: number;
  quota: number;
  holder: string;
  billing: string;
  error: string;
  created_at: number;
  updated_at: number;
  finished_at: number;
}

/** With LOG_SQL_DSN: a log written on the main database, waiting to be shipped to the log database. */
export interface LogOutboxTable {
  id: Generated<number>;
  /** The log row as JSON (NewLogRow). */
  payload: string;
}

/** With LOG_SQL_DSN, in the log database: the outbox rows already shipped, so none lands twice. */
export interface LogReceiptsTable {
  outbox_id: number;
  /** Which shipment took the row (the shipper tells its own receipts from another's). */
  shipment: string;
  created_at: number;
}

export interface AuditLogsTable {
  id: Generated<number>;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  ip: string;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  before: string | null;
  after: string | null;
}

export interface QuotaHoldersTable {
  holder: string;
  expires_at: number;
  settled_seq: number;
  released_at: number;
}

export interface QuotaHoldsTable {
  holder: string;
  user_id: number;
  token_id: number;
  amount: number;
  token_amount: number;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLogRow = Insertable<LogsTable>;
export type LogSummaryRow = Selectable<LogSummariesTable>;
export type LogDailySummaryRow = Selectable<LogDailySummariesTable>;
export type AuditLogRow = Selectable<AuditLogsTable>;
export type VideoJobRow = Selectable<VideoJobsTable>;
export type PaymentOrderRow = Selectable<PaymentOrdersTable>;
export type TwoFactorRow = Selectable<TwoFactorTable>;
export type PasskeyRow = Selectable<TwoFactorPasskeysTable>;

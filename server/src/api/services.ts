import type { ChangeBus } from '../cluster/change-bus';
import type { KeyCounters } from '../cluster/key-counters';
import type { RateLimiter } from '../cluster/rate-limiter';
import type { Config } from '../config';
import type { Sql } from '../db/connect';
import type { AuditLog } from '../domain/audit/audit-log';
import type { Billing } from '../domain/billing';
import type { BillingDashboard } from '../domain/billing-dashboard';
import type { ChannelBalances } from '../domain/channel-balance';
import type { ChannelService } from '../domain/channels';
import type { EmailVerification } from '../domain/email-verification';
import type { LogShipper } from '../domain/log-shipper';
import type { LogSummaryCatchUp } from '../domain/log-summary-catch-up';
import type { LogService } from '../domain/logs';
import type { Mailer } from '../domain/mail';
import type { Notifier } from '../domain/notifier';
import type { OAuthAccounts } from '../domain/oauth/accounts';
import type { ExternalIdentities } from '../domain/oauth/identities';
import type { OidcSignIn } from '../domain/oauth/oidc';
import type { OptionsStore } from '../domain/options';
import type { PasswordReset } from '../domain/password-reset';
import type { PaymentCheckout } from '../domain/payments/checkout';
import type { PaymentNotifications } from '../domain/payments/notifications';
import type { PaymentOrders } from '../domain/payments/orders';
import type { PriceSheets } from '../domain/price-sheets';
import type { RedemptionService } from '../domain/redemptions';
import type { TokenService } from '../domain/tokens';
import type { TurnstileCheck } from '../domain/turnstile';
import type { TwoFactorService } from '../domain/two-factor';
import type { PasskeyService } from '../domain/two-factor/passkeys';
import type { UserService } from '../domain/users';
import type { VerificationCodes } from '../domain/verification-codes';
import type { VideoJobList } from '../domain/video-jobs';
import type { ChannelTester } from '../jobs/channel-tester';
import type { LogRetention } from '../jobs/log-retention';
import type { PeriodicChannelTests } from '../jobs/periodic-channel-tests';
import type { VideoPoller } from '../jobs/video-poller';
import type { ChannelRouter } from '../relay/pipeline/channel-router';
import type { IdentityCache } from '../relay/pipeline/identity-cache';
import type { Realtime } from '../relay/pipeline/realtime/realtime';
import type { Relay } from '../relay/pipeline/relay';
import type { VideoJobs } from '../relay/pipeline/video-jobs';
import type { SessionCodec } from './session';

/** Everything a route module may call, wired once in buildApp. */
export interface Services {
  config: Config;
  db: Sql;
  options: OptionsStore;
  codes: VerificationCodes;
  users: UserService;
  tokens: TokenService;
  redemptions: RedemptionService;
  audit: AuditLog;
  /** Online top-up: orders credited once, the gateways' pages, their notifications. */
  paymentOrders: PaymentOrders;
  paymentCheckout: PaymentCheckout;
  paymentNotifications: PaymentNotifications;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
  channels: ChannelService;
  logs: LogService;
  logSummaryCatchUp: LogSummaryCatchUp;
  logRetention: LogRetention;
  /** LOG_SQL_DSN's shipper of the outbox to the log database; undefined without LOG_SQL_DSN. */
  logShipper: LogShipper | undefined;
  channelTester: ChannelTester;
  /** CHANNEL_TEST_FREQUENCY's background test; undefined when it is not set. */
  periodicChannelTests: PeriodicChannelTests | undefined;
  channelBalances: ChannelBalances;
  billing: Billing;
  billingDashboard: BillingDashboard;
  router: ChannelRouter;
  identities: IdentityCache;
  relay: Relay;
  /** Video generation jobs: made, looked at and billed through the relay's channels. */
  videoJobs: VideoJobs;
  /** Looks at unfinished video jobs in the background (VIDEO_POLL_INTERVAL). */
  videoPoller: VideoPoller;
  /** The console's lists of video jobs. */
  videoJobList: VideoJobList;
  /** The price list, for users and (PublicPricingEnabled) visitors. */
  priceSheets: PriceSheets;
  /** OpenAI's Realtime API: WebSocket sessions billed per response, and the ephemeral-key mints. */
  realtime: Realtime;
  bus: ChangeBus;
  sessions: SessionCodec;
  startTime: number;
  mailer: Mailer;
  notifier: Notifier;
  oauth: OAuthAccounts;
  externalIdentities: ExternalIdentities;
  oidc: OidcSignIn;
  emailVerification: EmailVerification;
  passwordReset: PasswordReset;
  turnstile: TurnstileCheck;
  /** Absent when CRITICAL_RATE_LIMIT is 0. */
  criticalRateLimiter: RateLimiter | undefined;
  /** GLOBAL_API_RATE_LIMIT: /api and the dashboard billing routes; absent at 0. */
  apiRateLimiter: RateLimiter | undefined;
  /** GLOBAL_WEB_RATE_LIMIT: the console's files and its index.html fallback; absent at 0. */
  webRateLimiter: RateLimiter | undefined;
  /** The counters of the keys' limits (closed at shutdown). */
  keyCounters: KeyCounters;
}

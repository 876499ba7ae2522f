import type { FastifyBaseLogger } from 'fastify';
import type { Services } from './api/services';
import { SessionCodec } from './api/session';
import { nowSeconds } from './clock';
import { type ChangeBus, LocalChangeBus, RedisChangeBus } from './cluster/change-bus';
import { type KeyCounters, MemoryKeyCounters, RedisKeyCounters } from './cluster/key-counters';
import { createRateLimiter } from './cluster/rate-limiter';
import { RedisVerificationCodes } from './cluster/redis-verification-codes';
import { IpcChangeBus } from './cluster/workers/ipc-change-bus';
import { IpcKeyCounters } from './cluster/workers/ipc-key-counters';
import { IpcRateLimiter } from './cluster/workers/ipc-rate-limiter';
import { IpcVerificationCodes } from './cluster/workers/ipc-verification-codes';
import type { LimitRule } from './cluster/workers/messages';
import type { PrimaryLink } from './cluster/workers/primary-link';
import type { Config } from './config';
import type { Db } from './db/database';
import { relayDatabaseWaitMs } from './db/deadline';
import { prepareLogDatabase } from './db/log-database-schema';
import { findUserById } from './db/repos/users';
import { AuditLog } from './domain/audit/audit-log';
import { Billing } from './domain/billing';
import { BillingDashboard } from './domain/billing-dashboard';
import { ChannelBalances } from './domain/channel-balance';
import { channelSwitchNotices } from './domain/channel-switch-notices';
import { ChannelService } from './domain/channels';
import { EmailVerification } from './domain/email-verification';
import { LogShipper } from './domain/log-shipper';
import { LogSummaryCatchUp } from './domain/log-summary-catch-up';
import { LogService } from './domain/logs';
import { Mailer } from './domain/mail';
import { channelAlerts, Notifier } from './domain/notifier';
import { OAuthAccounts } from './domain/oauth/accounts';
import { ExternalIdentities } from './domain/oauth/identities';
import { OidcSignIn } from './domain/oauth/oidc';
import type { OptionsStore } from './domain/options';
import { PasswordReset } from './domain/password-reset';
import { PaymentCheckout } from './domain/payments/checkout';
import { PaymentNotifications } from './domain/payments/notifications';
import { PaymentOrders } from './domain/payments/orders';
import { StripeGateway } from './domain/payments/stripe-gateway';
import { PriceSheets } from './domain/price-sheets';
import { QuotaReminder } from './domain/quota-reminder';
import { RedemptionService } from './domain/redemptions';
import { TokenService } from './domain/tokens';
import { TurnstileCheck } from './domain/turnstile';
import { TwoFactorService } from './domain/two-factor';
import { PasskeyService } from './domain/two-factor/passkeys';
import { UserService } from './domain/users';
import { Passwords } from './domain/users/passwords';
import { MemoryVerificationCodes, type VerificationCodes } from './domain/verification-codes';
import { VideoJobList } from './domain/video-jobs';
import { ChannelTester } from './jobs/channel-tester';
import { LogRetention } from './jobs/log-retention';
import { PeriodicChannelTests } from './jobs/periodic-channel-tests';
import { VideoPoller } from './jobs/video-poller';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import { ChannelHealth } from './relay/pipeline/channel-health';
import { ChannelRouter } from './relay/pipeline/channel-router';
import { IdentityCache } from './relay/pipeline/identity-cache';
import { KeyLimits } from './relay/pipeline/key-limits';
import { Realtime } from './relay/pipeline/realtime/realtime';
import { Relay } from './relay/pipeline/relay';
import { SuccessRateWindow } from './relay/pipeline/success-rate-window';
import { createTokenCounter } from './relay/pipeline/tokenizer';
import { VideoJobs } from './relay/pipeline/video-jobs';
import { UpstreamClient } from './relay/upstream';

/**
 * A worker's place in the cluster. Without Redis, what the workers share (changes, rate limits,
 * mailed codes) goes through the primary; with Redis, through Redis as between separate processes.
 */
export interface WorkerRole {
  primary: PrimaryLink;
  /** Whether this worker runs the background jobs (log summary catch-up and retention, periodic channel tests): one worker of the cluster. */
  runsJobs: boolean;
}

/** Wires every service once, explicitly: the only place that knows what depends on what. */
export function createServices(
  config: Config,
  db: Db,
  options: OptionsStore,
  bus: ChangeBus,
  logger?: FastifyBaseLogger,
  clock?: () => number,
  worker?: WorkerRole,
  metrics?: GatewayMetrics,
): Services {
  const databaseWaitMs = relayDatabaseWaitMs(config.relayTimeoutMs);
  const identities = new IdentityCache(db, databaseWaitMs, clock);
  const router = new ChannelRouter(db, databaseWaitMs);
  bus.subscribe(async (change) => {
    if (change.kind === 'options') await options.reload();
    else if (change.kind === 'channels') router.invalidate();
    else if (change.kind === 'token') {
      identities.tokenChanged(change.key);
      // An edited key's balance is what the administrator set: credit held for it goes back.
      if (change.id !== undefined) await billing.returnCredit({ tokenId: change.id });
    } else if (change.kind === 'credit') await billing.returnCredit({ userId: change.userId });
    else if (change.kind === 'resync') {
      identities.clear();
      router.invalidate();
      await Promise.all([options.reload(), billing.returnAllCredit()]);
    } else {
      identities.userChanged(change.id);
      await billing.returnCredit({ userId: change.id });
    }
  });
  const limiterOf = (rule: LimitRule, { limit, windowSeconds }: { limit: number; windowSeconds: number }) => {
    // Workers without Redis count in the primary: one count for the whole cluster.
    if (limit > 0 && worker && !config.redis) {
      return new IpcRateLimiter(worker.primary, rule, (error) =>
        logger?.warn({ reason: String(error) }, 'rate limiter: the primary did not answer'),
      );
    }
    return createRateLimiter(config.redis, limit, windowSeconds * 1000, (error) =>
      logger?.warn({ reason: String(error) }, 'redis rate limiter'),
    );
  };
  const codes = createVerificationCodes(config, logger, clock, worker);
  const passwords = new Passwords(config.passwordHashCost);
  const users = new UserService({
    db,
    options,
    codes,
    passwords,
    onUserChanged: (id) => bus.publish({ kind: 'user', id }),
  });
  const channels = new ChannelService({ db, options, onChanged: () => bus.publish({ kind: 'channels' }) });
  const mailer = new Mailer(options, { trustedCertificates: config.smtpTrustedCertificates });
  const notifier = new Notifier({ db, options, mailer });
  const reminder = new QuotaReminder({
    options,
    readUser: (id) => findUserById(db, id),
    sendMail: (message) => mailer.send(message),
    onError: (error) => logger?.warn({ reason: String(error) }, 'quota reminder not sent'),
  });
  const billing = new Billing({
    ledger: db.ledger,
    options,
    leaseMs: config.quotaLeaseMs,
    settlementBacklog: config.settlementBacklog,
    databaseWaitMs,
    onQuotaSpent: (id, amount) => reminder.spent(id, amount),
    onWriteFailed: (error) => logger?.error({ err: error }, 'billing write failed'),
    onSettled: metrics
      ? (call, quota) =>
          metrics.settled(call.model, call.usage.prompt_tokens, call.usage.completion_tokens, quota)
      : undefined,
    // Credit in memory is spent only while edits of other processes can be heard.
    mayUseCredit: () => bus.connected,
    // Without Redis or other workers there is no other process to ask.
    askForCredit: config.redis || worker ? (userId) => bus.publish({ kind: 'credit', userId }) : undefined,
  });
  metrics?.observe({
    heldCredit: () => billing.heldCredit(),
    queueDepths: () => billing.queueDepths(),
    poolUse: db.poolUse,
    inFlight: () => relay.inFlight,
  });
  const logs = new LogService({ db, logs: db.logs });
  const audit = new AuditLog({ db, options });
  const health = new ChannelHealth({
    options,
    channels,
    notify: channelSwitchNotices(channelAlerts(notifier, logger), logs, logger),
    // Per process, as in one-api: each process judges the calls it relayed itself.
    successRate: config.channelMetric && new SuccessRateWindow(config.channelMetric),
    metrics,
  });
  const upstream = new UpstreamClient(config);
  const counter = createTokenCounter(() => options.bool('ApproximateTokenEnabled'));
  const keyCounters = createKeyCounters(config, logger, worker);
  const keyLimits = new KeyLimits(keyCounters, counter);
  const relay = new Relay({
    router,
    billing,
    options,
    health,
    counter,
    upstream,
    limits: keyLimits,
    logger,
    metrics,
  });
  const videoJobs = new VideoJobs({
    db,
    billing,
    router,
    upstream,
    limits: keyLimits,
    logger,
    expireAfterSeconds: config.videoJobTimeoutSeconds,
  });
  const realtime = new Realtime({
    router,
    billing,
    options,
    counter,
    upstream,
    limits: keyLimits,
    logger,
    settings: {
      messageLimit: config.realtimeMessageLimit,
      idleMs: config.realtimeIdleMs,
      sessionMs: config.realtimeSessionMs,
      connectMs: config.relayConnectTimeoutMs,
      ephemeralKeys: config.realtimeEphemeralKeys,
    },
  });
  const paymentOrders = new PaymentOrders({
    db,
    options,
    audit,
    onUserChanged: (id) => bus.publish({ kind: 'user', id }),
  });
  const stripe = new StripeGateway(config.providerUrls.stripeApi);
  const channelTester = new ChannelTester({
    logs,
    relay,
    channels,
    health,
    options,
    pauseMs: config.channelTestPauseMs,
  });
  return {
    config,
    db,
    options,
    codes,
    users,
    tokens: new TokenService({
      db,
      users,
      onTokenChanged: (key, id) => bus.publish({ kind: 'token', key, id }),
    }),
    redemptions: new RedemptionService({ db, options }),
    audit,
    paymentOrders,
    paymentCheckout: new PaymentCheckout({
      orders: paymentOrders,
      options,
      stripe,
      onGatewayError: (reason) => logger?.warn({ reason }, 'payment gateway call failed'),
    }),
    paymentNotifications: new PaymentNotifications({ orders: paymentOrders, options, stripe }),
    twoFactor: new TwoFactorService({
      db,
      options,
      audit,
      sessionSecret: config.sessionSecret,
      sessionSecretGenerated: config.sessionSecretGenerated,
      clock,
    }),
    passkeys: new PasskeyService({ db, options, audit, clock }),
    channels,
    logs,
    logSummaryCatchUp: new LogSummaryCatchUp({
      db: db.logs,
      logsLeftToFold: () => db.ledger.logsLeftToFold,
      clock,
      onCaughtUp: (logs) => logger?.info({ logs }, 'log summaries took in logs another program wrote'),
      onError: (error) => logger?.warn({ err: error }, 'log summary catch-up failed'),
    }),
    channelTester,
    periodicChannelTests:
      config.channelTestEveryMs === undefined
        ? undefined
        : new PeriodicChannelTests({
            tester: channelTester,
            everyMs: config.channelTestEveryMs,
            log: logger,
          }),
    logRetention: new LogRetention({
      db: db.logs,
      auditDb: db,
      options,
      clock,
      onDeleted: (deleted, before) =>
        logger?.info({ ...deleted, before }, 'log retention deleted old entries'),
      onError: (error) => logger?.warn({ err: error }, 'log retention failed'),
    }),
    channelBalances: new ChannelBalances({ channels }),
    logShipper: db.logDatabase
      ? new LogShipper({
          db,
          logs: db.logDatabase,
          prepare: () => prepareLogDatabase(db),
          onError: (error) =>
            logger?.warn(
              { err: error },
              'log shipping to LOG_SQL_DSN failed; retrying every 0.5 s, logs wait in the outbox',
            ),
        })
      : undefined,
    billing,
    billingDashboard: new BillingDashboard({ db, options }),
    router,
    identities,
    relay,
    videoJobs,
    videoPoller: new VideoPoller({
      videoJobs,
      everySeconds: config.videoPollSeconds,
      onError: (error) => logger?.warn({ err: error }, 'video job poll failed'),
    }),
    videoJobList: new VideoJobList(db),
    priceSheets: new PriceSheets({ db, billing, options }),
    realtime,
    bus,
    sessions: new SessionCodec(config.sessionSecret),
    startTime: nowSeconds(),
    mailer,
    notifier,
    oauth: new OAuthAccounts({ db, options, users }),
    externalIdentities: new ExternalIdentities({ options, urls: config.providerUrls }),
    oidc: new OidcSignIn({ options, codes }),
    emailVerification: new EmailVerification({ db, options, codes, mailer }),
    passwordReset: new PasswordReset({ db, options, codes, mailer, passwords }),
    turnstile: new TurnstileCheck({ options, verifyUrl: config.providerUrls.turnstileVerify }),
    criticalRateLimiter: limiterOf('critical', config.criticalRateLimit),
    apiRateLimiter: limiterOf('api', config.apiRateLimit),
    webRateLimiter: limiterOf('web', config.webRateLimit),
    keyCounters,
  };
}

/** The counters of the keys' limits: in Redis when there is one, else in the cluster's primary, else here. */
function createKeyCounters(config: Config, logger?: FastifyBaseLogger, worker?: WorkerRole): KeyCounters {
  const onError = (error: unknown) => logger?.warn({ reason: String(error) }, 'key limit counters');
  if (config.redis) return new RedisKeyCounters(config.redis, 'switchyard:limits:', onError);
  return worker ? new IpcKeyCounters(worker.primary, onError) : new MemoryKeyCounters();
}

/**
 * Mailed codes and reset links: in Redis when there is one, else in the cluster's primary, so that
 * any process takes them; in memory in a process of its own.
 */
function createVerificationCodes(
  config: Config,
  logger?: FastifyBaseLogger,
  clock?: () => number,
  worker?: WorkerRole,
): VerificationCodes {
  if (!config.redis) {
    return worker ? new IpcVerificationCodes(worker.primary) : new MemoryVerificationCodes({ clock });
  }
  return new RedisVerificationCodes(config.redis, (error) =>
    logger?.warn({ reason: String(error) }, 'redis verification codes'),
  );
}

export async function openChangeBus(
  config: Config,
  logger?: FastifyBaseLogger,
  worker?: WorkerRole,
): Promise<ChangeBus> {
  if (!config.redis) return worker ? new IpcChangeBus(worker.primary) : new LocalChangeBus();
  const bus = new RedisChangeBus(
    config.redis,
    (error) => logger?.warn({ err: error }, 'redis change bus'),
    (connected) =>
      connected
        ? logger?.info('redis change bus back: caches reloaded, credit given back')
        : logger?.warn('redis change bus down: no credit is held ahead until it is back'),
  );
  await bus.ready();
  return bus;
}

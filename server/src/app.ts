import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RouteOptions,
} from 'fastify';
import { accessGuard } from './api/access';
import { API_BODY_LIMIT } from './api/body-limits';
import { installBotCheck } from './api/bot-check';
import { consoleFallback, registerConsole, resolveConsoleDir } from './api/console';
import { installErrorHandlers } from './api/errors';
import { installApiRateLimit, installCriticalRateLimit, webRateLimit } from './api/rate-limit';
import { addRouteHook } from './api/route-hooks';
import { billingDashboardRoutes } from './api/routes/billing-dashboard';
import { channelRoutes } from './api/routes/channels';
import { logRoutes } from './api/routes/logs';
import { oauthRoutes } from './api/routes/oauth';
import { optionRoutes } from './api/routes/options';
import { redemptionRoutes } from './api/routes/redemptions';
import { statusRoutes } from './api/routes/status';
import { tokenRoutes } from './api/routes/tokens';
import { userRoutes } from './api/routes/users';
import { verificationRoutes } from './api/routes/verification';
import { changesState, sameOriginGuard } from './api/same-origin';
import { apiHeaders } from './api/security-headers';
import type { Services } from './api/services';
import { SESSION_COOKIE, SessionCodec } from './api/session';
import { installBodyBudget } from './body-budget';
import { nowSeconds } from './clock';
import { type ChangeBus, LocalChangeBus, RedisChangeBus } from './cluster/change-bus';
import { createRateLimiter } from './cluster/rate-limiter';
import { RedisVerificationCodes } from './cluster/redis-verification-codes';
import { IpcChangeBus } from './cluster/workers/ipc-change-bus';
import { IpcRateLimiter } from './cluster/workers/ipc-rate-limiter';
import { IpcVerificationCodes } from './cluster/workers/ipc-verification-codes';
import type { LimitRule } from './cluster/workers/messages';
import type { PrimaryLink } from './cluster/workers/primary-link';
import type { Config } from './config';
import type { Db } from './db/database';
import { findUserById } from './db/repos/users';
import { Billing } from './domain/billing';
import { BillingDashboard } from './domain/billing-dashboard';
import { ChannelBalances } from './domain/channel-balance';
import { ChannelService } from './domain/channels';
import { EmailVerification } from './domain/email-verification';
import { LogSummaryCatchUp } from './domain/log-summary-catch-up';
import { LogService } from './domain/logs';
import { Mailer } from './domain/mail';
import { channelAlerts, Notifier } from './domain/notifier';
import { OAuthAccounts } from './domain/oauth/accounts';
import { ExternalIdentities } from './domain/oauth/identities';
import { OptionsStore } from './domain/options';
import { PasswordReset } from './domain/password-reset';
import { QuotaReminder } from './domain/quota-reminder';
import { RedemptionService } from './domain/redemptions';
import { TokenService } from './domain/tokens';
import { TurnstileCheck } from './domain/turnstile';
import { UserService } from './domain/users';
import { MemoryVerificationCodes, type VerificationCodes } from './domain/verification-codes';
import { ChannelTester } from './jobs/channel-tester';
import { relayRoutes } from './relay/front/routes';
import { ChannelHealth } from './relay/pipeline/channel-health';
import { ChannelRouter } from './relay/pipeline/channel-router';
import { IdentityCache } from './relay/pipeline/identity-cache';
import { Relay } from './relay/pipeline/relay';
import { createTokenCounter } from './relay/pipeline/tokenizer';
import { UpstreamClient } from './relay/upstream';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Absent in tests: the app logs nothing. */
  logger?: FastifyBaseLogger;
  /** Milliseconds since the epoch for mailed codes' expiry; tests move it forward. Default Date.now. */
  clock?: () => number;
  /** Set in a worker of a cluster (WORKERS > 1); absent in a process of its own. */
  worker?: WorkerRole;
}

/**
 * A worker's place in the cluster. Without Redis, what the workers share (changes, rate limits,
 * mailed codes) goes through the primary; with Redis, through Redis as between separate processes.
 */
export interface WorkerRole {
  primary: PrimaryLink;
  /** Whether this worker runs the background jobs (the log summary catch-up): one worker of the cluster. */
  runsJobs: boolean;
}

export interface App {
  server: FastifyInstance;
  services: Services;
}

/** Wires every service once, explicitly: the only place that knows what depends on what. */
function createServices(
  config: Config,
  db: Db,
  options: OptionsStore,
  bus: ChangeBus,
  logger?: FastifyBaseLogger,
  clock?: () => number,
  worker?: WorkerRole,
): Services {
  const identities = new IdentityCache(db);
  const router = new ChannelRouter(db);
  bus.subscribe(async (change) => {
    if (change.kind === 'options') await options.reload();
    else if (change.kind === 'channels') router.invalidate();
    else if (change.kind === 'token') {
      identities.tokenChanged(change.key);
      // An edited key's balance is what the administrator set: credit held for it goes back.
      if (change.id !== undefined) await billing.returnCredit({ tokenId: change.id });
    } else if (change.kind === 'credit') await billing.returnCredit({ userId: change.userId });
    else {
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
  const users = new UserService({
    db,
    options,
    codes,
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
    onQuotaSpent: (id, amount) => reminder.spent(id, amount),
    onWriteFailed: (error) => logger?.error({ err: error }, 'billing write failed'),
    // Without Redis or other workers there is no other process to ask.
    askForCredit: config.redis || worker ? (userId) => bus.publish({ kind: 'credit', userId }) : undefined,
  });
  const health = new ChannelHealth({ options, channels, notify: channelAlerts(notifier, logger) });
  const logs = new LogService({ db });
  const upstream = new UpstreamClient(config);
  const relay = new Relay({
    router,
    billing,
    options,
    health,
    counter: createTokenCounter(() => options.bool('ApproximateTokenEnabled')),
    upstream,
    logger,
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
    channels,
    logs,
    logSummaryCatchUp: new LogSummaryCatchUp({
      db,
      onCaughtUp: (logs) => logger?.info({ logs }, 'log summaries took in logs another program wrote'),
      onError: (error) => logger?.warn({ err: error }, 'log summary catch-up failed'),
    }),
    channelTester: new ChannelTester({
      logs,
      relay,
      channels,
      health,
      options,
      pauseMs: config.channelTestPauseMs,
    }),
    channelBalances: new ChannelBalances({ channels }),
    billing,
    billingDashboard: new BillingDashboard({ db, options }),
    router,
    identities,
    relay,
    bus,
    sessions: new SessionCodec(config.sessionSecret),
    startTime: nowSeconds(),
    mailer,
    notifier,
    oauth: new OAuthAccounts({ db, options, users }),
    externalIdentities: new ExternalIdentities({ options, urls: config.providerUrls }),
    emailVerification: new EmailVerification({ db, options, codes, mailer }),
    passwordReset: new PasswordReset({ db, options, codes, mailer }),
    turnstile: new TurnstileCheck({ options, verifyUrl: config.providerUrls.turnstileVerify }),
    criticalRateLimiter: limiterOf('critical', config.criticalRateLimit),
    apiRateLimiter: limiterOf('api', config.apiRateLimit),
    webRateLimiter: limiterOf('web', config.webRateLimit),
  };
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

async function openChangeBus(
  config: Config,
  logger?: FastifyBaseLogger,
  worker?: WorkerRole,
): Promise<ChangeBus> {
  if (!config.redis) return worker ? new IpcChangeBus(worker.primary) : new LocalChangeBus();
  const bus = new RedisChangeBus(config.redis, (error) => logger?.warn({ err: error }, 'redis change bus'));
  await bus.ready();
  return bus;
}

/** How long shutdown waits for the database to take settled calls before giving up on them. */
const SHUTDOWN_SETTLEMENT_WAIT_MS = 5_000;

/** Builds the whole application on an open, migrated database. Tests call this on a fresh one. */
export async function buildApp({ config, db, logger, clock, worker }: AppDeps): Promise<App> {
  const bus = await openChangeBus(config, logger, worker);
  const options = new OptionsStore(db, () => bus.publish({ kind: 'options' }));
  await options.reload();
  const services = createServices(config, db, options, bus, logger, clock, worker);
  await services.billing.start();
  // One set of background jobs per cluster, not one per worker (see WorkerRole).
  if (worker?.runsJobs !== false) await services.logSummaryCatchUp.start();

  const server = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustedProxies,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  });
  await server.register(fastifyCookie);
  await server.register(fastifyCompress, { global: true, threshold: 1024 });

  server.decorateRequest('session', undefined);
  server.decorateRequest('caller', undefined as never);
  // The global API limit first: a refused call costs nothing more.
  installApiRateLimit(server, services.apiRateLimiter);
  const isApiRoute = (route: RouteOptions) => route.url.startsWith('/api');
  addRouteHook(server, 'onRequest', isApiRoute, apiHeaders);
  addRouteHook(server, 'onRequest', changesState, sameOriginGuard);
  addRouteHook(server, 'onRequest', isApiRoute, async (request) => {
    request.session = services.sessions.open(request.cookies[SESSION_COOKIE]);
  });
  installCriticalRateLimit(server, services.criticalRateLimiter);
  if (bus instanceof IpcChangeBus) {
    // A console call that changed something answers once the other workers applied the change, so
    // the next call sees it whichever worker takes it (Redis, between processes, makes no such promise).
    addRouteHook(server, 'onSend', isApiRoute, async (_request, _reply, payload) => {
      await bus.spread();
      return payload;
    });
  }
  // Who is calling is known from the headers: a caller without access is refused before its body is read.
  addRouteHook(server, 'onRequest', isApiRoute, accessGuard(db));
  installBodyBudget(server, config.bodyBudget);
  installBotCheck(server, services.turnstile, services.sessions);

  // Handlers first: a route takes the error handler in force when it is registered.
  const consoleDir = resolveConsoleDir(config.webDist);
  const webLimit = webRateLimit(server, services.webRateLimiter);
  installErrorHandlers(server, consoleFallback(consoleDir), webLimit?.refused);
  await registerConsole(server, consoleDir, webLimit?.hook);

  statusRoutes(server, services);
  userRoutes(server, services);
  optionRoutes(server, services);
  tokenRoutes(server, services);
  redemptionRoutes(server, services);
  channelRoutes(server, services);
  logRoutes(server, services);
  oauthRoutes(server, services);
  verificationRoutes(server, services);
  await relayRoutes(server, { ...services, bodyLimit: config.relayBodyLimit });
  billingDashboardRoutes(server, services);
  server.addHook('onClose', async () => {
    await services.logSummaryCatchUp.close();
    const unwritten = await services.billing.close(SHUTDOWN_SETTLEMENT_WAIT_MS);
    if (unwritten.calls > 0) {
      logger?.error(
        unwritten,
        'shutting down with settled calls the database did not take: quota not charged',
      );
    }
    await bus.close();
    await services.codes.close();
    const limiters = [services.criticalRateLimiter, services.apiRateLimiter, services.webRateLimiter];
    await Promise.all(limiters.map((limiter) => limiter?.close()));
  });
  return { server, services };
}

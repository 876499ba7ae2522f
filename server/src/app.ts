import type { RequestListener } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RouteOptions,
} from 'fastify';
import { accessGuard } from './api/access';
import { installAuditHooks } from './api/audit/audit-hooks';
import { installBotCheck } from './api/bot-check';
import { registerConsole, resolveConsoleDir } from './api/console';
import { installErrorHandlers } from './api/errors';
import { installApiRateLimit, installCriticalRateLimit, webRateLimit } from './api/rate-limit';
import { addRouteHook } from './api/route-hooks';
import { auditRoutes } from './api/routes/audit';
import { billingDashboardRoutes } from './api/routes/billing-dashboard';
import { channelRoutes } from './api/routes/channels';
import { healthRoutes } from './api/routes/health';
import { logRoutes } from './api/routes/logs';
import { metricsRoutes } from './api/routes/metrics';
import { oauthRoutes } from './api/routes/oauth';
import { openApiRoutes } from './api/routes/openapi';
import { optionRoutes } from './api/routes/options';
import { passkeyRoutes } from './api/routes/passkeys';
import { paymentRoutes } from './api/routes/payments';
import { playgroundRoutes } from './api/routes/playground';
import { pricingRoutes } from './api/routes/pricing';
import { redemptionRoutes } from './api/routes/redemptions';
import { statusRoutes } from './api/routes/status';
import { tokenRoutes } from './api/routes/tokens';
import { twoFactorRoutes } from './api/routes/two-factor';
import { userRoutes } from './api/routes/users';
import { verificationRoutes } from './api/routes/verification';
import { videoRoutes } from './api/routes/videos';
import { changesState, sameOriginGuard } from './api/same-origin';
import { apiHeaders } from './api/security-headers';
import type { Services } from './api/services';
import { SESSION_COOKIE } from './api/session';
import { IpcChangeBus } from './cluster/workers/ipc-change-bus';
import type { Config } from './config';
import type { Db } from './db/database';
import { OptionsStore } from './domain/options';
import { installBodyBudget } from './http/body-budget';
import { API_BODY_LIMIT } from './http/body-limits';
import { acceptEmptyJsonBodies } from './http/json-body';
import { shareMetricsWithPrimary } from './metrics/cluster';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { http } from './node-http';
import { configureGemini } from './relay/adaptors/gemini/settings';
import { DirectRelay } from './relay/front/direct';
import { relayRoutes } from './relay/front/routes';

import { createServices, openChangeBus, type WorkerRole } from './services-wiring';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Absent in tests: the app logs nothing. */
  logger?: FastifyBaseLogger;
  /**
   * Milliseconds since the epoch for mailed codes' expiry and the time between log folds; tests move
   * it forward or hold it still. Default Date.now (the folds: performance.now).
   */
  clock?: () => number;
  /** Set in a worker of a cluster (WORKERS > 1); absent in a process of its own. */
  worker?: WorkerRole;
}

export interface App {
  server: FastifyInstance;
  services: Services;
  /** Every route registered, as `METHOD url` (HEAD routes Fastify adds for GETs left out). */
  routes: string[];
  /** The relay's JSON calls served ahead of Fastify (relay/front/direct.ts). */
  direct: DirectRelay;
}

/** Fastify's own keep-alive timeout, which it sets on a server it makes itself. */
const FASTIFY_KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** How long shutdown waits for the database to take settled calls before giving up on them. */
const SHUTDOWN_SETTLEMENT_WAIT_MS = 5_000;

/** Builds the whole application on an open, migrated database. Tests call this on a fresh one. */
export async function buildApp({ config, db, logger, clock, worker }: AppDeps): Promise<App> {
  const bus = await openChangeBus(config, logger, worker);
  const options = new OptionsStore(db, () => bus.publish({ kind: 'options' }));
  await options.reload();
  configureGemini(config.gemini);
  const metrics = config.metricsToken ? new GatewayMetrics() : undefined;
  if (metrics && worker) shareMetricsWithPrimary(metrics);
  const services = createServices(config, db, options, bus, logger, clock, worker, metrics);
  await services.billing.start();
  // One set of background jobs per cluster, not one per worker (see WorkerRole).
  if (worker?.runsJobs !== false) {
    await services.logSummaryCatchUp.start();
    services.logRetention.start();
    services.logShipper?.start();
    services.videoPoller.start();
    // With several separate processes, only the master tests (NODE_TYPE=slave on the others).
    if (config.nodeType === 'master') services.periodicChannelTests?.start();
  }

  // The relay's JSON calls are served ahead of Fastify in their common case (relay/front/direct.ts).
  let fastifyListener: RequestListener = () => undefined;
  let direct: DirectRelay | undefined;
  const server = Fastify({
    serverFactory: (handler) => {
      fastifyListener = handler;
      const listener = http.createServer((req, res) =>
        direct ? direct.listener(req, res) : handler(req, res),
      );
      // What Fastify sets on a server it makes itself.
      listener.keepAliveTimeout = FASTIFY_KEEP_ALIVE_TIMEOUT_MS;
      listener.requestTimeout = config.requestTimeoutMs;
      return listener;
    },
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustedProxies,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  });
  const routes: string[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  await server.register(fastifyCookie);
  acceptEmptyJsonBodies(server);
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
  addRouteHook(
    server,
    'onRequest',
    isApiRoute,
    accessGuard(db, {
      onAccessToken: (user, ip) => services.audit.noteAccessTokenUse(user, ip),
      mustEnrol: (user) => services.twoFactor.mustEnrol(user),
    }),
  );
  installAuditHooks(server, services.audit);
  const bodies = installBodyBudget(server, config);
  metrics?.observe({ bodyBytesHeld: () => bodies.held });
  installBotCheck(server, services.turnstile, services.sessions);

  // Handlers first: a route takes the error handler in force when it is registered.
  // FRONTEND_BASE_URL: the console lives elsewhere, and its pages are redirected there.
  const consoleDir = config.frontendBaseUrl ? undefined : resolveConsoleDir(config.webDist);
  const webLimit = webRateLimit(server, services.webRateLimiter);
  installErrorHandlers(server, consoleDir !== undefined, webLimit?.refused, config.frontendBaseUrl);
  await registerConsole(server, consoleDir, webLimit?.hook);

  healthRoutes(server, { db, config });
  if (metrics && config.metricsToken) {
    metricsRoutes(server, { metrics, token: config.metricsToken, primary: worker?.primary });
  }

  statusRoutes(server, services);
  userRoutes(server, services);
  optionRoutes(server, services);
  tokenRoutes(server, services);
  redemptionRoutes(server, services);
  paymentRoutes(server, services);
  channelRoutes(server, services);
  logRoutes(server, services);
  auditRoutes(server, services);
  openApiRoutes(server, services);
  oauthRoutes(server, services);
  twoFactorRoutes(server, services);
  passkeyRoutes(server, services);
  verificationRoutes(server, services);
  const jsonRoutes = await relayRoutes(server, {
    ...services,
    bodyLimit: config.relayBodyLimit,
    realtimeMessageLimit: config.realtimeMessageLimit,
  });
  const directRelay = new DirectRelay({
    routes: jsonRoutes,
    identities: services.identities,
    budget: bodies,
    bodyLimit: config.relayBodyLimit,
    trustedProxies: config.trustedProxies,
    log: server.log,
    fastify: fastifyListener,
  });
  direct = directRelay;
  // Fastify answers 503 to what arrives while it closes: from now on it takes every call.
  server.addHook('preClose', async () => direct?.close());
  billingDashboardRoutes(server, services);
  videoRoutes(server, services);
  pricingRoutes(server, services);
  playgroundRoutes(server, services);
  server.addHook('onClose', async () => {
    await services.logSummaryCatchUp.close();
    // Calls cut at SHUTDOWN_TIMEOUT end at once (their upstream is aborted), then settle or refund.
    await services.realtime.close();
    await services.relay.idle(SHUTDOWN_SETTLEMENT_WAIT_MS);
    await services.periodicChannelTests?.close();
    await services.videoPoller.close();
    await services.logRetention.close();
    const unwritten = await services.billing.close(SHUTDOWN_SETTLEMENT_WAIT_MS);
    if (unwritten.calls > 0) {
      logger?.error(
        unwritten,
        'shutting down with settled calls the database did not take: quota not charged',
      );
    }
    // The last settlements' logs to the log database, while it answers.
    await services.logShipper?.close();
    await bus.close();
    await services.codes.close();
    const limiters = [services.criticalRateLimiter, services.apiRateLimiter, services.webRateLimiter];
    await Promise.all(limiters.map((limiter) => limiter?.close()));
    await services.keyCounters.close();
  });
  return { server, services, routes, direct: directRelay };
}

import cluster from 'node:cluster';
import v8 from 'node:v8';
import { buildApp } from './app';
import { PrimaryLink } from './cluster/workers/primary-link';
import { SharedState } from './cluster/workers/shared-state';
import { WORKER_SLOT_VARIABLE, WorkerSupervisor } from './cluster/workers/supervisor';
import { type Config, loadConfig } from './config';
import { ConfigError } from './config/env';
import { logLevelOf } from './config/operations';
import { configSummary, obsoleteVariablesLine } from './config/summary';
import { type Db, openDatabase } from './db/database';
import { ensureLogOutbox, prepareLogDatabase } from './db/log-database-schema';
import { migrateToLatest } from './db/migrate';
import { DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME, ensureRootUser } from './domain/bootstrap';
import { OptionsStore } from './domain/options';
import { UserService } from './domain/users';
import { Passwords } from './domain/users/passwords';
import { MemoryVerificationCodes } from './domain/verification-codes';
import { createLogger } from './logging';
import type { WorkerRole } from './services-wiring';

// V8 lets garbage pile up in the old generation (up to ~4× the live heap) before a full collection;
// collecting at 1.3× keeps a busy gateway's memory flat at a measured cost of nothing
// (docs/benchmarks-history.md).
// The young generation's size is set where the process starts (`npm run serve`).
v8.setFlagsFromString('--heap-growing-percent=30');

/** 1…N in a worker of a cluster (WORKERS > 1); undefined in the primary or a process of its own. */
const workerSlot = cluster.isWorker ? Number(process.env[WORKER_SLOT_VARIABLE]) || undefined : undefined;

// With several workers each line says which one wrote it; the primary's lines have no `worker`.
const baseLogger = createLogger(logLevelOf(process.env));
const logger = workerSlot ? baseLogger.child({ worker: workerSlot }) : baseLogger;

/** DEBUG_SQL: statements at debug level (LOG_LEVEL must let debug lines through, as DEBUG does). */
const sqlLogging = (config: Config) =>
  config.debugSql ? { logSql: (fields: object) => logger.debug(fields, 'sql') } : {};

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function migrate(config: Config, db: Db): Promise<void> {
  if (config.nodeType !== 'master') return;
  await migrateToLatest(db);
  await ensureLogOutbox(db);
  logger.info('database schema checked and migrated');
  if (!db.logDatabase) return;
  // The log database may be out: the relay does not need it, and the log shipper prepares it later.
  try {
    await prepareLogDatabase(db);
    logger.info('log database (LOG_SQL_DSN) schema checked');
  } catch (error) {
    logger.warn({ err: error }, 'log database (LOG_SQL_DSN) not ready: logs wait in the outbox');
  }
}

const open = (config: Config): Db =>
  openDatabase(config.database, { ...sqlLogging(config), pool: config.databasePool }, config.logDatabase);

async function createRootIfNone(config: Config, db: Db, users: UserService): Promise<void> {
  if (await ensureRootUser(db, users, config)) {
    logger.warn(
      `Created the super administrator "${DEFAULT_ROOT_USERNAME}" with password "${DEFAULT_ROOT_PASSWORD}": sign in and change it now`,
    );
  }
}

/**
 * Serves until SIGTERM or SIGINT, then closes gracefully (settled calls written first). Without
 * `worker`: the whole server in one process. With it: one worker of a cluster, whose primary has
 * already migrated the database and created root.
 */
async function serve(config: Config, worker?: WorkerRole): Promise<void> {
  const db = open(config);
  if (!worker) await migrate(config, db);
  const { server, services } = await buildApp({ config, db, logger, worker });
  if (!worker) await createRootIfNone(config, db, services.users);
  // Other processes' changes arrive over Redis (or the primary) at once; this sync is the fallback.
  const reload = setInterval(() => {
    services.options.reload().catch((error: unknown) => logger.error({ err: error }, 'option reload failed'));
    services.router.invalidate();
  }, config.syncFrequencySeconds * 1000);
  reload.unref();

  let closing = false;
  const shutdown = async (reason: string) => {
    if (closing) {
      // A worker may hear SIGINT from the terminal and SIGTERM from its primary: one shutdown; the
      // primary decides when to stop waiting. A process of its own stops at once on a second signal.
      if (worker) return;
      logger.warn(`${reason} again: exiting at once`);
      process.exit(1);
    }
    closing = true;
    logger.info(`${reason}, shutting down`);
    // In-flight calls and streams may finish within SHUTDOWN_TIMEOUT; then their connections are cut.
    const cutOff = setTimeout(() => {
      logger.warn('SHUTDOWN_TIMEOUT passed: cutting the calls still in flight');
      server.server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    try {
      // Stops accepting at once, waits for the answers in flight, then writes their settlements
      // and gives unused credit back (the app's onClose).
      await server.close();
      clearTimeout(cutOff);
      await db.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown did not finish cleanly');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT received'));
  process.on('SIGTERM', () => void shutdown('SIGTERM received'));
  // An orphaned worker (its primary was killed) must not go on serving the port alone.
  if (worker) process.once('disconnect', () => void shutdown('the primary process is gone'));

  await server.listen({ port: config.port, host: '0.0.0.0' });
  if (worker) logger.info(`worker ${workerSlot} (pid ${process.pid}) serves port ${config.port}`);
  else logger.info(`Listening on http://localhost:${config.port} (database: ${config.database.dialect})`);
}

/**
 * The primary of a cluster: migrates and creates root once, then forks the workers, which serve the
 * port (Node's cluster hands them the connections in turn). It keeps what the workers share without
 * Redis and replaces those that die.
 */
async function runPrimary(config: Config): Promise<void> {
  const db = open(config);
  try {
    await migrate(config, db);
    const options = new OptionsStore(db);
    await options.reload();
    await createRootIfNone(
      config,
      db,
      new UserService({
        db,
        options,
        codes: new MemoryVerificationCodes(),
        passwords: new Passwords(config.passwordHashCost),
      }),
    );
  } finally {
    await db.close();
  }
  const supervisor = new WorkerSupervisor({
    count: config.workers,
    // A generated secret must be the same in every worker, or a session would work on one only.
    env: { SESSION_SECRET: config.sessionSecret },
    state: new SharedState(config),
    logger,
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} received again: stopping the workers at once`);
      supervisor.kill();
      process.exit(1);
    }
    stopping = true;
    logger.info(`${signal} received, stopping the workers`);
    const clean = await supervisor.shutdown();
    if (!clean) logger.error('a worker did not shut down cleanly');
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await supervisor.start();
  } catch (error) {
    if (stopping) return;
    stopping = true;
    logger.fatal({ err: error }, 'start-up failed');
    await supervisor.shutdown();
    process.exit(1);
  }
  logger.info(
    `Listening on http://localhost:${config.port} (database: ${config.database.dialect}, ${config.workers} workers)`,
  );
}

async function main(): Promise<void> {
  const config = readConfig();
  if (!workerSlot) {
    const summary = configSummary(config);
    logger.info(
      summary,
      `Configuration: database ${summary.database}, redis ${summary.redis}, port ${config.port}, workers ${config.workers}, metrics ${summary.metrics}`,
    );
    const obsolete = obsoleteVariablesLine(config);
    if (obsolete) logger.info(obsolete);
  }
  if (workerSlot) {
    // Slot 1 runs the background jobs, once for the cluster; when it dies its replacement takes them
    // on (the catch-up runs every minute, so the pause costs nothing). Not the primary: it answers
    // every worker's rate-limit and code calls, which a long catch-up (synchronous on SQLite) would hold up.
    return serve(config, { primary: new PrimaryLink(), runsJobs: workerSlot === 1 });
  }
  if (config.sessionSecretGenerated) {
    logger.warn(
      'SESSION_SECRET is not set: using a random one, so sessions will not survive a restart or span processes',
    );
  }
  if (config.workers > 1) return runPrimary(config);
  return serve(config);
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
});

import v8 from 'node:v8';
import { buildApp } from './app';
import { type Config, loadConfig } from './config';
import { ConfigError } from './config/env';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME, ensureRootUser } from './domain/bootstrap';
import { createLogger } from './logging';

// V8 lets garbage pile up in the old generation (up to ~4× the live heap) before a full collection;
// collecting at 1.3× keeps a busy gateway's memory flat at a measured cost of nothing (see README).
// The young generation's size is set where the process starts (`npm run serve`).
v8.setFlagsFromString('--heap-growing-percent=30');

const logger = createLogger(process.env.LOG_LEVEL || 'info');

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

async function main(): Promise<void> {
  const config = readConfig();
  if (config.sessionSecretGenerated) {
    logger.warn(
      'SESSION_SECRET is not set: using a random one, so sessions will not survive a restart or span processes',
    );
  }
  const db = openDatabase(config.database);
  if (config.nodeType === 'master') await migrateToLatest(db);
  const { server, services } = await buildApp({ config, db, logger });
  if (await ensureRootUser(db, services.users, config)) {
    logger.warn(
      `Created the super administrator "${DEFAULT_ROOT_USERNAME}" with password "${DEFAULT_ROOT_PASSWORD}": sign in and change it now`,
    );
  }
  // Other processes' changes arrive over Redis at once; this sync is the fallback without it.
  const reload = setInterval(() => {
    services.options.reload().catch((error: unknown) => logger.error({ err: error }, 'option reload failed'));
    services.router.invalidate();
  }, config.syncFrequencySeconds * 1000);
  reload.unref();

  const shutdown = async (signal: string) => {
    logger.info(`${signal} received, shutting down`);
    try {
      await server.close();
      await db.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown did not finish cleanly');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await server.listen({ port: config.port, host: '0.0.0.0' });
  logger.info(`Listening on http://localhost:${config.port} (database: ${config.database.dialect})`);
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
});

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { connectRedis, type RedisClient } from '../../cluster/redis-connection';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { outboxLength } from '../../db/log-outbox';
import { pendingMigrations } from '../../db/migrate';

/** The longest a readiness check waits for the database or Redis. */
const CHECK_WITHIN_MS = 2_000;

function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_WITHIN_MS} ms`)),
      CHECK_WITHIN_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz: the process is alive. GET /readyz: it can serve (the database answers and is
 * migrated, Redis answers when configured); 503 with the failed checks otherwise. Both are cheap,
 * open, not rate-limited and not logged; while the server shuts down Fastify answers 503 itself.
 * With LOG_SQL_DSN the log database is reported beside (`log_database`, and the logs waiting in the
 * outbox) but does not make the server unready: relayed calls do not need it.
 */
export function healthRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }): void {
  let migrated = false;
  let redis: RedisClient | undefined;
  app.addHook('onClose', async () => redis?.disconnect());

  const checkDatabase = async (): Promise<string | undefined> => {
    try {
      await within(sql`select 1`.execute(db.kysely), 'the database');
      if (!migrated) {
        const pending = await within(pendingMigrations(db), 'the database');
        if (pending > 0) return `${pending} database migration(s) not run yet`;
        migrated = true;
      }
      return undefined;
    } catch (error) {
      return `database: ${(error as Error).message}`;
    }
  };
  const checkRedis = async (): Promise<string | undefined> => {
    if (!config.redis) return undefined;
    redis ??= connectRedis(config.redis, { failFast: true, onError: () => {} });
    try {
      await within(redis.ping(), 'Redis');
      return undefined;
    } catch (error) {
      return `redis: ${(error as Error).message}`;
    }
  };

  const checkLogDatabase = async (): Promise<Record<string, string | number>> => {
    const logs = db.logDatabase;
    if (!logs) return {};
    let state = 'ok';
    try {
      await within(sql`select 1`.execute(logs.kysely), 'the log database');
    } catch (error) {
      state = (error as Error).message;
    }
    try {
      return { log_database: state, log_outbox: await within(outboxLength(db), 'the database') };
    } catch {
      return { log_database: state };
    }
  };

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const [database, redisState, logDatabase] = await Promise.all([
      checkDatabase(),
      checkRedis(),
      checkLogDatabase(),
    ]);
    const failed = [database, redisState].filter(Boolean);
    if (failed.length > 0) return reply.code(503).send({ status: 'unavailable', failed, ...logDatabase });
    return { status: 'ok', ...logDatabase };
  });
}

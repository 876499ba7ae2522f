import { createRequire } from 'node:module';
import type { Cluster, Redis } from 'ioredis';
import type { RedisTarget } from '../config/redis-target';

const load = createRequire(import.meta.url);

/** A client of one server (direct or found through Sentinel) or of a whole Cluster: same commands. */
export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  /**
   * Fail a command at once when its connection drops instead of retrying it over a couple of
   * reconnects. (A Cluster that cannot be reached at all still queues commands until it can.)
   */
  failFast?: boolean;
  onError?: (error: unknown) => void;
}

/**
 * The longest any command waits for Redis's answer, queued while Redis is away included: then it
 * fails (ioredis rejects it), and each feature fails open or closed as the README says. Generous
 * enough for a loaded machine (a stalled event loop fires the timer before reading the answer).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;
/** The longest a new connection may take to open before it is retried. */
const REDIS_CONNECT_TIMEOUT_MS = 2000;

/** The one place that opens ioredis clients, for whichever topology the configuration names. */
export function connectRedis(
  target: RedisTarget,
  { failFast = false, onError }: RedisClientOptions = {},
): RedisClient {
  // ioredis is loaded only when Redis is configured.
  const { Redis: RedisServer, Cluster: RedisCluster } = load('ioredis') as typeof import('ioredis');
  // Every key carries the deployment's prefix; channel names take it from `channelName`.
  const common = {
    maxRetriesPerRequest: failFast ? 0 : 2,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  };
  const keyPrefix = target.keyPrefix;
  let client: RedisClient;
  switch (target.mode) {
    case 'standalone':
      // A password in the URL wins over this one.
      client = new RedisServer(target.url, { password: target.password, keyPrefix, ...common });
      break;
    case 'sentinel':
      client = new RedisServer({
        sentinels: target.sentinels,
        name: target.masterName,
        password: target.password,
        sentinelUsername: target.sentinelUsername,
        sentinelPassword: target.sentinelPassword,
        ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
        keyPrefix,
        ...common,
      });
      break;
    case 'cluster':
      client = new RedisCluster(target.nodes, {
        keyPrefix,
        redisOptions: {
          username: target.username,
          password: target.password,
          ...(target.tls ? { tls: {} } : {}),
          ...common,
        },
      });
      break;
  }
  if (onError) client.on('error', onError);
  return client;
}

/**
 * A pub/sub channel of this deployment. Channels, unlike keys, are shared by every database of a
 * Redis server: the name carries the database number and the key prefix.
 */
export function channelName(target: RedisTarget, client: RedisClient, name: string): string {
  const database = client.isCluster ? 0 : ((client as Redis).options.db ?? 0);
  return `${target.keyPrefix ?? ''}${name}:db${database}`;
}

/**
 * Redis's answer, or an error once `ms` have passed: a Cluster that cannot be reached queues
 * commands in a queue of its own, which the command timeout does not cover.
 */
export async function answerWithin<T>(answer: Promise<T>, ms = REDIS_COMMAND_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

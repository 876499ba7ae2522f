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

/** The one place that opens ioredis clients, for whichever topology the configuration names. */
export function connectRedis(
  target: RedisTarget,
  { failFast = false, onError }: RedisClientOptions = {},
): RedisClient {
  // ioredis is loaded only when Redis is configured.
  const { Redis: RedisServer, Cluster: RedisCluster } = load('ioredis') as typeof import('ioredis');
  const maxRetriesPerRequest = failFast ? 0 : 2;
  let client: RedisClient;
  switch (target.mode) {
    case 'standalone':
      // A password in the URL wins over this one.
      client = new RedisServer(target.url, { password: target.password, maxRetriesPerRequest });
      break;
    case 'sentinel':
      client = new RedisServer({
        sentinels: target.sentinels,
        name: target.masterName,
        password: target.password,
        sentinelUsername: target.sentinelUsername,
        sentinelPassword: target.sentinelPassword,
        ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
        maxRetriesPerRequest,
      });
      break;
    case 'cluster':
      client = new RedisCluster(target.nodes, {
        redisOptions: {
          username: target.username,
          password: target.password,
          ...(target.tls ? { tls: {} } : {}),
          maxRetriesPerRequest,
        },
      });
      break;
  }
  if (onError) client.on('error', onError);
  return client;
}

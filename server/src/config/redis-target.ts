import { type Env, fail } from './env';

export interface RedisHost {
  host: string;
  port: number;
}

/**
 * How to reach Redis: one server by URL (as before), Sentinel (the hosts are sentinels and
 * `masterName` picks the master) or a Cluster (several hosts and no master name).
 */
export type RedisTarget = (
  | { mode: 'standalone'; url: string; password: string | undefined }
  | {
      mode: 'sentinel';
      sentinels: RedisHost[];
      masterName: string;
      /** The master's password (REDIS_PASSWORD). */
      password: string | undefined;
      /** The sentinels' own login, from the credentials in their URLs. */
      sentinelUsername: string | undefined;
      sentinelPassword: string | undefined;
      tls: boolean;
    }
  | {
      mode: 'cluster';
      nodes: RedisHost[];
      username: string | undefined;
      password: string | undefined;
      tls: boolean;
    }
) & {
  /**
   * REDIS_KEY_PREFIX: put before every key and channel name, so that deployments sharing one Redis
   * database (a Cluster has only one) keep apart. Unset: none.
   */
  keyPrefix?: string;
};

function readRedisUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('REDIS_CONN_STRING', 'expected a URL such as redis://127.0.0.1:6379');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    fail('REDIS_CONN_STRING', `expected a redis:// or rediss:// URL, got "${url.protocol}"`);
  }
  return raw;
}

interface ListedRedisHost extends RedisHost {
  /** What must be the same for every host of the list: scheme and credentials. */
  scheme: string;
  username: string;
  password: string;
}

/** One host of a list: `host:port` or `redis://[user:pass@]host:port` (rediss:// for TLS). */
function parseListedRedisHost(entry: string): ListedRedisHost {
  // Echoed without its credentials: the error goes to the log.
  const shown = entry.replace(/\/\/[^/@]*@/, '//***@');
  const problem = `expected host:port or redis://host:port for each host, got "${shown}"`;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `redis://${entry}`);
  } catch {
    fail('REDIS_CONN_STRING', problem);
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname || !url.port) {
    fail('REDIS_CONN_STRING', problem);
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search) {
    fail(
      'REDIS_CONN_STRING',
      `a database number or options cannot be given with several hosts or Sentinel, got "${shown}"`,
    );
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port),
    scheme: url.protocol,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

function parseRedisHostList(entries: string[]): { hosts: RedisHost[]; first: ListedRedisHost } {
  const listed = entries.map(parseListedRedisHost);
  const first = listed[0] as ListedRedisHost;
  const differs = (host: ListedRedisHost) =>
    host.scheme !== first.scheme || host.username !== first.username || host.password !== first.password;
  if (listed.some(differs)) fail('REDIS_CONN_STRING', 'all hosts must use the same scheme and credentials');
  return { hosts: listed.map(({ host, port }) => ({ host, port })), first };
}

/**
 * one-api's Redis settings: REDIS_CONN_STRING holds one URL, or with REDIS_MASTER_NAME the sentinels,
 * or else several hosts of a Cluster, comma-separated. REDIS_PASSWORD is the data nodes' password
 * (the master's with Sentinel); a password in the URL of a server or Cluster node wins over it.
 */
export function readRedisTarget(env: Env): RedisTarget | undefined {
  const raw = env.REDIS_CONN_STRING?.trim();
  if (!raw) return undefined;
  const keyPrefix = readKeyPrefix(env);
  const target = readServers(env, raw);
  return keyPrefix ? { ...target, keyPrefix } : target;
}

/** Printable ASCII without spaces, short: it is written before every key and channel name. */
function readKeyPrefix(env: Env): string | undefined {
  const prefix = env.REDIS_KEY_PREFIX?.trim();
  if (!prefix) return undefined;
  if (!/^[\x21-\x7e]{1,64}$/.test(prefix)) {
    fail(
      'REDIS_KEY_PREFIX',
      'expected at most 64 printable ASCII characters without spaces, such as "gateway-a:"',
    );
  }
  return prefix;
}

function readServers(env: Env, raw: string): RedisTarget {
  const password = env.REDIS_PASSWORD || undefined;
  const masterName = env.REDIS_MASTER_NAME?.trim();
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) fail('REDIS_CONN_STRING', 'expected a URL such as redis://127.0.0.1:6379');
  if (masterName) {
    const { hosts, first } = parseRedisHostList(entries);
    return {
      mode: 'sentinel',
      sentinels: hosts,
      masterName,
      password,
      sentinelUsername: first.username || undefined,
      sentinelPassword: first.password || undefined,
      tls: first.scheme === 'rediss:',
    };
  }
  if (entries.length > 1) {
    const { hosts, first } = parseRedisHostList(entries);
    return {
      mode: 'cluster',
      nodes: hosts,
      username: first.username || undefined,
      password: first.password || password,
      tls: first.scheme === 'rediss:',
    };
  }
  return { mode: 'standalone', url: readRedisUrl(entries[0] as string), password };
}

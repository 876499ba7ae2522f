import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trimBaseUrl } from '@switchyard/contract/base-url';

/** Where the data lives: SQLite by default, PostgreSQL or MySQL/MariaDB when SQL_DSN says so. */
export type DatabaseTarget =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; connectionString: string }
  | {
      dialect: 'mysql';
      host?: string;
      port?: number;
      socketPath?: string;
      user: string;
      password: string;
      database: string;
    };

export interface Config {
  port: number;
  database: DatabaseTarget;
  sessionSecret: string;
  /** True when SESSION_SECRET was missing and a random one is used. */
  sessionSecretGenerated: boolean;
  /** Redis shared by every process (REDIS_CONN_STRING, REDIS_PASSWORD, REDIS_MASTER_NAME); unset: none. */
  redis: RedisTarget | undefined;
  initialRootToken: string | undefined;
  initialRootAccessToken: string | undefined;
  nodeType: 'master' | 'slave';
  syncFrequencySeconds: number;
  webDist: string | undefined;
  version: string;
  /** Overall limit of one upstream call (RELAY_TIMEOUT seconds; 0 = the default of 10 minutes). */
  relayTimeoutMs: number;
  /** How long a dead process's quota holds outlive it (QUOTA_HOLD_LEASE seconds). */
  quotaLeaseMs: number;
  /** Pause between channels in a test-all run (POLLING_INTERVAL seconds). */
  channelTestPauseMs: number;
  /** Where sign-in providers and the bot check live (overridable so tests can point at fakes). */
  providerUrls: ProviderUrls;
  /** Calls per client IP and window on the critical routes (login, register, mail, OAuth); 0 = off. */
  criticalRateLimit: { limit: number; windowSeconds: number };
  /** Calls per client IP and window on every /api route and the dashboard billing routes (GLOBAL_API_RATE_LIMIT); 0 = off. */
  apiRateLimit: { limit: number; windowSeconds: number };
  /** Calls per client IP and window for the console's files and its index.html fallback (GLOBAL_WEB_RATE_LIMIT); 0 = off. */
  webRateLimit: { limit: number; windowSeconds: number };
  /**
   * PEM certificates (SMTP_CA_FILE) trusted for the SMTP server besides Node's built-in roots: a
   * private CA or a self-signed certificate. Unset: only the built-in roots.
   */
  smtpTrustedCertificates: string | undefined;
}

export interface RedisHost {
  host: string;
  port: number;
}

/**
 * How to reach Redis: one server by URL (as before), Sentinel (the hosts are sentinels and
 * `masterName` picks the master) or a Cluster (several hosts and no master name).
 */
export type RedisTarget =
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
    };

export interface ProviderUrls {
  githubOAuth: string;
  githubApi: string;
  larkApi: string;
  larkPassport: string;
  turnstileVerify: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function fail(variable: string, problem: string): never {
  throw new ConfigError(`${variable}: ${problem}`);
}

function readInteger(env: Env, variable: string, fallback: number, min: number, max: number): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) fail(variable, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(variable, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** Parses one-api's MySQL DSN form `user:pass@tcp(host:port)/db?params` or `user:pass@unix(/path)/db`. */
function parseGoMysqlDsn(dsn: string): DatabaseTarget | undefined {
  const match = /^([^:@]*)(?::([^@]*))?@(tcp|unix)\(([^)]*)\)\/([^?]*)(?:\?.*)?$/.exec(dsn);
  if (!match) return undefined;
  const [, user = '', password = '', protocol, address = '', database = ''] = match;
  if (!database) return undefined;
  if (protocol === 'unix') return { dialect: 'mysql', socketPath: address, user, password, database };
  const [host = '127.0.0.1', portText] = address.split(':');
  const port = portText ? Number(portText) : 3306;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  return { dialect: 'mysql', host: host || '127.0.0.1', port, user, password, database };
}

function parseMysqlUrl(dsn: string): DatabaseTarget | undefined {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || !url.hostname) return undefined;
  return {
    dialect: 'mysql',
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
  };
}

/**
 * The directory relative paths are read against: the one the user started from. `npm start` runs
 * the server's own script inside server/, but npm keeps the directory it was started in as INIT_CWD;
 * without npm (`node server/dist/main.js`) it is the working directory.
 */
export function launchDirectory(env: Env): string {
  return env.INIT_CWD?.trim() || process.cwd();
}

export function parseDatabaseTarget(
  sqlDsn: string | undefined,
  sqlitePath: string | undefined,
  baseDir: string = process.cwd(),
): DatabaseTarget {
  const dsn = sqlDsn?.trim() ?? '';
  if (dsn === '') {
    const file = sqlitePath?.trim() || path.join('data', 'one-api.db');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(baseDir, file) };
  }
  if (/^postgres(ql)?:\/\//.test(dsn)) {
    try {
      new URL(dsn);
    } catch {
      fail('SQL_DSN', 'not a valid postgres:// URL');
    }
    return { dialect: 'postgres', connectionString: dsn };
  }
  const target = dsn.startsWith('mysql://') ? parseMysqlUrl(dsn) : parseGoMysqlDsn(dsn);
  if (!target) {
    fail(
      'SQL_DSN',
      'expected empty (SQLite), postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db',
    );
  }
  return target;
}

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
function readRedisTarget(env: Env): RedisTarget | undefined {
  const raw = env.REDIS_CONN_STRING?.trim();
  if (!raw) return undefined;
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

/** An http(s) URL without a trailing slash. */
function readUrl(env: Env, variable: string, fallback: string): string {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(variable, `expected an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(variable, `expected an http:// or https:// URL, got "${raw}"`);
  }
  return trimBaseUrl(raw);
}

function readProviderUrls(env: Env): ProviderUrls {
  return {
    githubOAuth: readUrl(env, 'GITHUB_OAUTH_URL', 'https://github.com'),
    githubApi: readUrl(env, 'GITHUB_API_URL', 'https://api.github.com'),
    larkApi: readUrl(env, 'LARK_API_URL', 'https://open.feishu.cn'),
    larkPassport: readUrl(env, 'LARK_PASSPORT_URL', 'https://passport.feishu.cn'),
    turnstileVerify: readUrl(
      env,
      'TURNSTILE_VERIFY_URL',
      'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    ),
  };
}

function readInitialRootToken(env: Env): string | undefined {
  const raw = env.INITIAL_ROOT_TOKEN?.trim();
  if (!raw) return undefined;
  const key = raw.startsWith('sk-') ? raw.slice(3) : raw;
  if (!/^[0-9A-Za-z]{1,48}$/.test(key)) {
    fail('INITIAL_ROOT_TOKEN', 'must be 1 to 48 letters and digits (an optional sk- prefix is stripped)');
  }
  return key;
}

function readInitialRootAccessToken(env: Env): string | undefined {
  const raw = env.INITIAL_ROOT_ACCESS_TOKEN?.trim();
  if (!raw) return undefined;
  if (!/^[0-9A-Za-z_]{8,32}$/.test(raw)) {
    fail('INITIAL_ROOT_ACCESS_TOKEN', 'must be 8 to 32 letters, digits or underscores');
  }
  return raw;
}

/** The PEM certificates of SMTP_CA_FILE, read once at start. */
function readSmtpCertificates(env: Env): string | undefined {
  const file = env.SMTP_CA_FILE?.trim();
  if (!file) return undefined;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    fail('SMTP_CA_FILE', `cannot read "${file}": ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    fail('SMTP_CA_FILE', `"${file}" holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return pem;
}

/** one-api's window of the global limits: 3 minutes, not configurable. */
const GLOBAL_RATE_LIMIT_WINDOW_SECONDS = 180;

export function loadConfig(env: Env = process.env): Config {
  const secret = env.SESSION_SECRET?.trim();
  const sessionSecretGenerated = !secret || secret === 'random_string';
  const nodeType = env.NODE_TYPE?.trim() || 'master';
  if (nodeType !== 'master' && nodeType !== 'slave')
    fail('NODE_TYPE', `expected master or slave, got "${nodeType}"`);
  return {
    port: readInteger(env, 'PORT', 3000, 1, 65535),
    database: parseDatabaseTarget(env.SQL_DSN, env.SQLITE_PATH, launchDirectory(env)),
    sessionSecret: sessionSecretGenerated ? randomBytes(32).toString('hex') : (secret as string),
    sessionSecretGenerated,
    redis: readRedisTarget(env),
    initialRootToken: readInitialRootToken(env),
    initialRootAccessToken: readInitialRootAccessToken(env),
    nodeType,
    syncFrequencySeconds: readInteger(env, 'SYNC_FREQUENCY', 600, 1, 86400),
    webDist: env.WEB_DIST?.trim() || undefined,
    version: env.APP_VERSION?.trim() || 'v0.1.0',
    relayTimeoutMs: (readInteger(env, 'RELAY_TIMEOUT', 0, 0, 86400) || 600) * 1000,
    quotaLeaseMs: readInteger(env, 'QUOTA_HOLD_LEASE', 15, 1, 3600) * 1000,
    channelTestPauseMs: readInteger(env, 'POLLING_INTERVAL', 1, 0, 3600) * 1000,
    providerUrls: readProviderUrls(env),
    criticalRateLimit: {
      limit: readInteger(env, 'CRITICAL_RATE_LIMIT', 20, 0, 1_000_000),
      windowSeconds: readInteger(env, 'CRITICAL_RATE_LIMIT_WINDOW', 1200, 1, 86400),
    },
    apiRateLimit: {
      limit: readInteger(env, 'GLOBAL_API_RATE_LIMIT', 480, 0, 1_000_000),
      windowSeconds: GLOBAL_RATE_LIMIT_WINDOW_SECONDS,
    },
    webRateLimit: {
      limit: readInteger(env, 'GLOBAL_WEB_RATE_LIMIT', 240, 0, 1_000_000),
      windowSeconds: GLOBAL_RATE_LIMIT_WINDOW_SECONDS,
    },
    smtpTrustedCertificates: readSmtpCertificates(env),
  };
}

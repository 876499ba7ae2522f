import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type BodyLimits, readBodyLimits } from './body-limits';
import { type ChannelMonitoring, readChannelMonitoring } from './channel-monitoring';
import { type PoolSettings, readPoolSettings } from './database-pool';
import {
  type DatabaseTarget,
  launchDirectory,
  parseDatabaseTarget,
  parseLogDatabaseTarget,
} from './database-target';
import { type Env, fail, readInteger } from './env';
import { type OperationsConfig, readOperations } from './operations';
import { type ProviderUrls, readProviderUrls } from './provider-urls';
import { type RealtimeSettings, readRealtimeSettings } from './realtime';
import { type RedisTarget, readRedisTarget } from './redis-target';
import { readTrustedProxies } from './trusted-proxies';
import { readWorkers } from './workers';

export interface Config extends BodyLimits, ChannelMonitoring, OperationsConfig, RealtimeSettings {
  port: number;
  database: DatabaseTarget;
  /** LOG_SQL_DSN: the usage logs' own database; unset: they live in `database`. */
  logDatabase: DatabaseTarget | undefined;
  /** The driver's connection pool (SQL_MAX_OPEN_CONNS, SQL_MAX_IDLE_CONNS, SQL_MAX_LIFETIME, SQLITE_BUSY_TIMEOUT). */
  databasePool: PoolSettings;
  sessionSecret: string;
  /**
   * PASSWORD_HASH_COST: the bcrypt cost of new password hashes; one-api's (Go's DefaultCost), 10, by
   * default. Each step doubles a sign-in's CPU; the test suites use 4.
   */
  passwordHashCost: number;
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
  /** Peers whose X-Forwarded-For is believed (TRUSTED_PROXIES: addresses and CIDR blocks; loopback by default). */
  trustedProxies: string[];
  /**
   * What one relay call may wait for its answer to begin, retries included (RELAY_TIMEOUT seconds;
   * 0 = the default of 10 minutes); also the longest silence within an answer.
   */
  relayTimeoutMs: number;
  /** What one attempt may take to connect to its channel (RELAY_CONNECT_TIMEOUT seconds). */
  relayConnectTimeoutMs: number;
  /**
   * The largest upstream answer read whole, in bytes (RELAY_ANSWER_LIMIT megabytes): non-stream
   * answers, error bodies, one event of a stream.
   */
  relayAnswerLimit: number;
  /** How long a dead process's quota holds outlive it (QUOTA_HOLD_LEASE seconds). */
  quotaLeaseMs: number;
  /**
   * Settled calls that may wait to be written (a database outage) before new calls are refused
   * (SETTLEMENT_BACKLOG): what a kill at that moment can lose.
   */
  settlementBacklog: number;
  /** Pause between channels in a test-all run (POLLING_INTERVAL seconds). */
  channelTestPauseMs: number;
  /** Video jobs: how often unfinished ones are looked at upstream (VIDEO_POLL_INTERVAL seconds). */
  videoPollSeconds: number;
  /** Video jobs: how long one may take before it expires, its quota given back (VIDEO_JOB_TIMEOUT seconds). */
  videoJobTimeoutSeconds: number;
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
  /** Server processes sharing the port (WORKERS; `auto` = one per core). 1: a single process, no cluster. */
  workers: number;
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
  const operations = readOperations(env);
  // DEBUG turns every rate limit off.
  const limit = (variable: string, fallback: number) =>
    operations.debug ? 0 : readInteger(env, variable, fallback, 0, 1_000_000);
  return {
    port: readInteger(env, 'PORT', 3000, 1, 65535),
    database: parseDatabaseTarget(env.SQL_DSN, env.SQLITE_PATH, launchDirectory(env)),
    logDatabase: parseLogDatabaseTarget(env.LOG_SQL_DSN, launchDirectory(env)),
    databasePool: readPoolSettings(env),
    sessionSecret: sessionSecretGenerated ? randomBytes(32).toString('hex') : (secret as string),
    sessionSecretGenerated,
    passwordHashCost: readInteger(env, 'PASSWORD_HASH_COST', 10, 4, 14),
    redis: readRedisTarget(env),
    initialRootToken: readInitialRootToken(env),
    initialRootAccessToken: readInitialRootAccessToken(env),
    nodeType,
    syncFrequencySeconds: readInteger(env, 'SYNC_FREQUENCY', 600, 1, 86400),
    webDist: env.WEB_DIST?.trim() || undefined,
    version: env.APP_VERSION?.trim() || 'v0.1.0',
    trustedProxies: readTrustedProxies(env),
    relayTimeoutMs: (readInteger(env, 'RELAY_TIMEOUT', 0, 0, 86400) || 600) * 1000,
    relayConnectTimeoutMs: readInteger(env, 'RELAY_CONNECT_TIMEOUT', 5, 1, 3600) * 1000,
    relayAnswerLimit: readInteger(env, 'RELAY_ANSWER_LIMIT', 64, 1, 1024) * 1024 * 1024,
    quotaLeaseMs: readInteger(env, 'QUOTA_HOLD_LEASE', 15, 1, 3600) * 1000,
    settlementBacklog: readInteger(env, 'SETTLEMENT_BACKLOG', 100, 1, 100_000),
    channelTestPauseMs: readInteger(env, 'POLLING_INTERVAL', 1, 0, 3600) * 1000,
    videoPollSeconds: readInteger(env, 'VIDEO_POLL_INTERVAL', 10, 1, 3600),
    videoJobTimeoutSeconds: readInteger(env, 'VIDEO_JOB_TIMEOUT', 21_600, 1, 30 * 86_400),
    providerUrls: readProviderUrls(env),
    criticalRateLimit: {
      limit: limit('CRITICAL_RATE_LIMIT', 20),
      windowSeconds: readInteger(env, 'CRITICAL_RATE_LIMIT_WINDOW', 1200, 1, 86400),
    },
    apiRateLimit: {
      limit: limit('GLOBAL_API_RATE_LIMIT', 480),
      windowSeconds: GLOBAL_RATE_LIMIT_WINDOW_SECONDS,
    },
    webRateLimit: {
      limit: limit('GLOBAL_WEB_RATE_LIMIT', 240),
      windowSeconds: GLOBAL_RATE_LIMIT_WINDOW_SECONDS,
    },
    smtpTrustedCertificates: readSmtpCertificates(env),
    workers: readWorkers(env),
    ...readBodyLimits(env),
    ...readChannelMonitoring(env),
    ...readRealtimeSettings(env),
    ...operations,
  };
}

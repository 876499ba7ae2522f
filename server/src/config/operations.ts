import { type Env, fail, readInteger } from './env';

/** Running the server in production: metrics, shutdown, debugging, where the console lives. */
export interface OperationsConfig {
  /** METRICS_TOKEN: set, GET /metrics serves Prometheus metrics to `Authorization: Bearer <it>`; unset, none are kept. */
  metricsToken: string | undefined;
  /** SHUTDOWN_TIMEOUT: how long calls and streams in flight may go on after SIGTERM/SIGINT. */
  shutdownTimeoutMs: number;
  /** DEBUG: rate limits off, log level debug (unless LOG_LEVEL says otherwise). */
  debug: boolean;
  /** DEBUG_SQL: every SQL statement logged at debug level, its string parameters masked. */
  debugSql: boolean;
  /** FRONTEND_BASE_URL: the console is served elsewhere; page requests are redirected there. */
  frontendBaseUrl: string | undefined;
  /** GEMINI_VERSION and GEMINI_SAFETY_SETTING for translated Gemini channels. */
  gemini: GeminiDefaults;
  /** one-api variables that mean nothing here, as set (told once at start). */
  obsoleteVariables: string[];
}

export interface GeminiDefaults {
  /** The API version of every Gemini call a channel does not set (undefined: by model, see endpoint.ts). */
  version: string | undefined;
  /** The threshold of every harm category in translated calls' safetySettings. */
  safetyThreshold: string;
}

/** one-api's switches for what this server does anyway or not at all, and why each is not needed. */
export const OBSOLETE_VARIABLES: Record<string, string> = {
  BATCH_UPDATE_ENABLED: 'quota writes are always batched (group commit)',
  BATCH_UPDATE_INTERVAL: 'batches are committed as soon as the previous one lands',
  MEMORY_CACHE_ENABLED: 'keys, users, channels and options are always cached in memory',
  GIN_MODE: 'there is no Gin here (LOG_LEVEL and DEBUG set the log)',
  THEME: 'there is one console',
};

const SAFETY_THRESHOLDS = [
  'BLOCK_NONE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_LOW_AND_ABOVE',
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'OFF',
];

export function readFlag(env: Env, variable: string): boolean {
  const raw = env[variable]?.trim().toLowerCase();
  if (!raw) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  fail(variable, `expected true or false, got "${env[variable]}"`);
}

/** LOG_LEVEL, else debug under DEBUG, else info. Read before the rest of the configuration (the log comes first). */
export function logLevelOf(env: Env): string {
  const level = env.LOG_LEVEL?.trim();
  if (level) return level;
  return ['true', '1'].includes(env.DEBUG?.trim().toLowerCase() ?? '') ? 'debug' : 'info';
}

function readFrontendBaseUrl(env: Env): string | undefined {
  const raw = env.FRONTEND_BASE_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('FRONTEND_BASE_URL', `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('FRONTEND_BASE_URL', 'expected http(s)://');
  return raw.replace(/\/+$/, '');
}

function readGemini(env: Env): GeminiDefaults {
  const version = env.GEMINI_VERSION?.trim() || undefined;
  if (version !== undefined && !/^v\d+[a-z0-9]*$/.test(version)) {
    fail('GEMINI_VERSION', `expected an API version such as v1 or v1beta, got "${version}"`);
  }
  const threshold = env.GEMINI_SAFETY_SETTING?.trim() || 'BLOCK_NONE';
  if (!SAFETY_THRESHOLDS.includes(threshold)) {
    fail('GEMINI_SAFETY_SETTING', `expected one of ${SAFETY_THRESHOLDS.join(', ')}, got "${threshold}"`);
  }
  return { version, safetyThreshold: threshold };
}

export function readOperations(env: Env): OperationsConfig {
  return {
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    shutdownTimeoutMs: readInteger(env, 'SHUTDOWN_TIMEOUT', 30, 0, 86400) * 1000,
    debug: readFlag(env, 'DEBUG'),
    debugSql: readFlag(env, 'DEBUG_SQL'),
    frontendBaseUrl: readFrontendBaseUrl(env),
    gemini: readGemini(env),
    obsoleteVariables: Object.keys(OBSOLETE_VARIABLES).filter((name) => env[name]?.trim()),
  };
}

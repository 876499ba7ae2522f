import { describe, expect, it } from 'vitest';
import { loadConfig } from '.';
import { ConfigError } from './env';
import { logLevelOf } from './operations';
import { configSummary, maskUrl, obsoleteVariablesLine } from './summary';

const load = (env: Record<string, string>) => loadConfig({ SESSION_SECRET: 'x', ...env });

describe('operations settings', () => {
  it('has defaults: no metrics, 30 s to shut down, no debugging, Gemini filters off', () => {
    const config = load({});
    expect(config).toMatchObject({
      metricsToken: undefined,
      shutdownTimeoutMs: 30_000,
      debug: false,
      debugSql: false,
      frontendBaseUrl: undefined,
      gemini: { version: undefined, safetyThreshold: 'BLOCK_NONE' },
      obsoleteVariables: [],
    });
  });

  it('refuses bad values, naming the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ SHUTDOWN_TIMEOUT: 'soon' }, /^SHUTDOWN_TIMEOUT: /],
      [{ DEBUG: 'yes please' }, /^DEBUG: expected true or false/],
      [{ DEBUG_SQL: 'maybe' }, /^DEBUG_SQL: /],
      [{ FRONTEND_BASE_URL: 'console.example.com' }, /^FRONTEND_BASE_URL: not a URL/],
      [{ FRONTEND_BASE_URL: 'ftp://console.example.com' }, /^FRONTEND_BASE_URL: expected http/],
      [{ GEMINI_VERSION: 'beta' }, /^GEMINI_VERSION: /],
      [{ GEMINI_SAFETY_SETTING: 'BLOCK_SOME' }, /^GEMINI_SAFETY_SETTING: expected one of BLOCK_NONE/],
    ];
    for (const [env, message] of cases) {
      expect(() => load(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => load(env)).toThrow(message);
    }
  });

  it('DEBUG turns the rate limits off and the log to debug unless LOG_LEVEL says otherwise', () => {
    const config = load({ DEBUG: 'true', CRITICAL_RATE_LIMIT: '5', GLOBAL_API_RATE_LIMIT: '5' });
    expect([config.criticalRateLimit.limit, config.apiRateLimit.limit, config.webRateLimit.limit]).toEqual([
      0, 0, 0,
    ]);
    expect(logLevelOf({ DEBUG: 'true' })).toBe('debug');
    expect(logLevelOf({ DEBUG: 'true', LOG_LEVEL: 'warn' })).toBe('warn');
    expect(logLevelOf({})).toBe('info');
  });

  it('summarises the configuration with every password masked', () => {
    expect(maskUrl('postgres://app:s3cret@db:5432/gw?sslpassword=x&sslmode=require')).toBe(
      'postgres://app:***@db:5432/gw?sslpassword=***&sslmode=require',
    );
    const mysql = configSummary(
      load({ SQL_DSN: 'app:s3cret@tcp(db:3306)/gw', REDIS_CONN_STRING: 'redis://:pw@cache:6379' }),
    );
    expect(mysql).toMatchObject({
      database: 'mysql app:***@db:3306/gw',
      redis: 'redis://:***@cache:6379',
      metrics: 'off',
    });
    expect(JSON.stringify(mysql)).not.toContain('s3cret');
    expect(configSummary(load({ METRICS_TOKEN: 'abc' })).metrics).toBe('on');
  });

  it('names the one-api variables set that mean nothing here, with why', () => {
    expect(obsoleteVariablesLine(load({}))).toBeUndefined();
    const line = obsoleteVariablesLine(load({ MEMORY_CACHE_ENABLED: 'true', THEME: 'berry' }));
    expect(line).toMatch(/^Not needed here, ignored: MEMORY_CACHE_ENABLED \(.+\); THEME \(.+\)$/);
  });
});

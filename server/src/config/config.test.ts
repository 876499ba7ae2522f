import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '.';
import { parseDatabaseTarget, parseLogDatabaseTarget } from './database-target';
import { ConfigError } from './env';
import { configSummary } from './summary';
import { readWorkers } from './workers';

describe('SQL_DSN', () => {
  it('is SQLite when empty, at ./data/one-api.db unless SQLITE_PATH says otherwise', () => {
    expect(parseDatabaseTarget(undefined, undefined)).toEqual({
      dialect: 'sqlite',
      file: path.resolve('data', 'one-api.db'),
    });
    expect(parseDatabaseTarget('  ', '/tmp/x.db')).toEqual({ dialect: 'sqlite', file: '/tmp/x.db' });
  });

  it('reads a relative SQLite path against the given directory, keeping absolute paths and :memory:', () => {
    expect(parseDatabaseTarget('', undefined, '/srv/switchyard')).toEqual({
      dialect: 'sqlite',
      file: '/srv/switchyard/data/one-api.db',
    });
    expect(parseDatabaseTarget('', './db/gateway.db', '/srv/switchyard')).toMatchObject({
      file: '/srv/switchyard/db/gateway.db',
    });
    expect(parseDatabaseTarget('', '/var/lib/x.db', '/srv/switchyard')).toMatchObject({
      file: '/var/lib/x.db',
    });
    expect(parseDatabaseTarget('', ':memory:', '/srv/switchyard')).toMatchObject({ file: ':memory:' });
  });

  it('reads PostgreSQL URLs', () => {
    expect(parseDatabaseTarget('postgres://u:p@db:5432/oneapi', undefined)).toEqual({
      dialect: 'postgres',
      connectionString: 'postgres://u:p@db:5432/oneapi',
    });
    expect(parseDatabaseTarget('postgresql://db/x', undefined).dialect).toBe('postgres');
  });

  it("reads one-api's MySQL DSN form and mysql:// URLs", () => {
    expect(
      parseDatabaseTarget('root:secret@tcp(10.0.0.5:3307)/oneapi?charset=utf8mb4&parseTime=True', undefined),
    ).toEqual({
      dialect: 'mysql',
      host: '10.0.0.5',
      port: 3307,
      user: 'root',
      password: 'secret',
      database: 'oneapi',
    });
    expect(parseDatabaseTarget('root@tcp(localhost)/db', undefined)).toMatchObject({
      host: 'localhost',
      port: 3306,
      password: '',
    });
    expect(parseDatabaseTarget('u:p@unix(/run/mysqld.sock)/db', undefined)).toMatchObject({
      socketPath: '/run/mysqld.sock',
    });
    expect(parseDatabaseTarget('mysql://u:p%40ss@h:3306/db', undefined)).toMatchObject({
      host: 'h',
      password: 'p@ss',
      database: 'db',
    });
  });

  it.each(['mongodb://x', 'root:pw@tcp(host:99999)/db', 'root@tcp(host)/', 'nonsense'])(
    'refuses %j naming SQL_DSN',
    (dsn) => {
      expect(() => parseDatabaseTarget(dsn, undefined)).toThrow(/^SQL_DSN: /);
    },
  );
});

describe('LOG_SQL_DSN', () => {
  it("keeps the logs with everything else when empty, else reads SQL_DSN's server forms", () => {
    expect(loadConfig({}).logDatabase).toBeUndefined();
    expect(loadConfig({ LOG_SQL_DSN: '  ' }).logDatabase).toBeUndefined();
    expect(loadConfig({ LOG_SQL_DSN: 'postgres://u:p@logs:5432/logs' }).logDatabase).toEqual({
      dialect: 'postgres',
      connectionString: 'postgres://u:p@logs:5432/logs',
    });
    expect(parseLogDatabaseTarget('root:pw@tcp(logs:3306)/oneapi_logs')).toMatchObject({
      dialect: 'mysql',
      host: 'logs',
      database: 'oneapi_logs',
    });
    expect(parseLogDatabaseTarget('sqlite:data/logs.db', '/srv/gw')).toEqual({
      dialect: 'sqlite',
      file: '/srv/gw/data/logs.db',
    });
    expect(parseLogDatabaseTarget('sqlite:///var/lib/logs.db', '/srv/gw')).toEqual({
      dialect: 'sqlite',
      file: '/var/lib/logs.db',
    });
  });

  it.each(['nonsense', 'mongodb://x', 'data/logs.db'])('refuses %j naming LOG_SQL_DSN', (dsn) => {
    expect(() => parseLogDatabaseTarget(dsn)).toThrow(
      /^LOG_SQL_DSN: expected sqlite:path\/to\/logs.db, postgres:/,
    );
  });

  it('names the log database, password masked, in the start-up line', () => {
    const summary = configSummary(loadConfig({ LOG_SQL_DSN: 'postgres://u:secret@logs/l' }));
    expect(String(summary.logDatabase)).toMatch(/^postgres /);
    expect(String(summary.logDatabase)).not.toContain('secret');
  });
});

describe('loadConfig', () => {
  it('runs one process unless WORKERS says otherwise; auto is one worker per core', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: ' 4 ' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(readWorkers({ WORKERS: 'AUTO' }, 16)).toBe(16);
  });

  it('has sensible defaults and a random session secret when none is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      nodeType: 'master',
      sessionSecretGenerated: true,
      redis: undefined,
      quotaLeaseMs: 15_000,
    });
    expect(loadConfig({ QUOTA_HOLD_LEASE: '3' }).quotaLeaseMs).toBe(3_000);
    expect(config.sessionSecret).toHaveLength(64);
    expect(config.passwordHashCost).toBe(10);
    expect(loadConfig({ SESSION_SECRET: 'random_string' }).sessionSecretGenerated).toBe(true);
    expect(loadConfig({ SESSION_SECRET: 'abc' })).toMatchObject({
      sessionSecret: 'abc',
      sessionSecretGenerated: false,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ REDIS_CONN_STRING: 'localhost:6379' }, /^REDIS_CONN_STRING: /],
    [{ REDIS_CONN_STRING: 'http://x' }, /^REDIS_CONN_STRING: /],
    [{ NODE_TYPE: 'worker' }, /^NODE_TYPE: /],
    [{ INITIAL_ROOT_TOKEN: 'has-dash' }, /^INITIAL_ROOT_TOKEN: /],
    [{ INITIAL_ROOT_ACCESS_TOKEN: 'short' }, /^INITIAL_ROOT_ACCESS_TOKEN: /],
    [{ SYNC_FREQUENCY: '0' }, /^SYNC_FREQUENCY: /],
    [{ PASSWORD_HASH_COST: '3' }, /^PASSWORD_HASH_COST: /],
    [{ PASSWORD_HASH_COST: '15' }, /^PASSWORD_HASH_COST: /],
    [{ QUOTA_HOLD_LEASE: '0' }, /^QUOTA_HOLD_LEASE: /],
    [{ GITHUB_OAUTH_URL: 'github.com' }, /^GITHUB_OAUTH_URL: /],
    [{ LARK_API_URL: 'ftp://open.feishu.cn' }, /^LARK_API_URL: /],
    [{ TURNSTILE_VERIFY_URL: 'not a url' }, /^TURNSTILE_VERIFY_URL: /],
    [{ CRITICAL_RATE_LIMIT: '-1' }, /^CRITICAL_RATE_LIMIT: /],
    [{ CRITICAL_RATE_LIMIT_WINDOW: '0' }, /^CRITICAL_RATE_LIMIT_WINDOW: /],
    [{ GLOBAL_API_RATE_LIMIT: '-1' }, /^GLOBAL_API_RATE_LIMIT: /],
    [{ GLOBAL_API_RATE_LIMIT: '10/min' }, /^GLOBAL_API_RATE_LIMIT: /],
    [{ GLOBAL_API_RATE_LIMIT: '2000000' }, /^GLOBAL_API_RATE_LIMIT: /],
    [{ GLOBAL_WEB_RATE_LIMIT: 'lots' }, /^GLOBAL_WEB_RATE_LIMIT: /],
    [{ GLOBAL_WEB_RATE_LIMIT: '1.5' }, /^GLOBAL_WEB_RATE_LIMIT: /],
    [{ TRUSTED_PROXIES: '10.0.0.0/8,proxy.local' }, /^TRUSTED_PROXIES: "proxy.local" is not/],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, /^TRUSTED_PROXIES: "10.0.0.0\/33"/],
    [{ TRUSTED_PROXIES: '300.1.1.1' }, /^TRUSTED_PROXIES: /],
    [{ RELAY_CONNECT_TIMEOUT: '0' }, /^RELAY_CONNECT_TIMEOUT: /],
    [{ RELAY_BODY_LIMIT: '0' }, /^RELAY_BODY_LIMIT: /],
    [{ RELAY_BODY_LIMIT: '32MB' }, /^RELAY_BODY_LIMIT: /],
    [{ REQUEST_BODY_BUDGET: '8' }, /^REQUEST_BODY_BUDGET: /],
    [{ RELAY_BODY_LIMIT: '100', REQUEST_BODY_BUDGET: '64' }, /^REQUEST_BODY_BUDGET: must be at least/],
    [{ WORKERS: '0' }, /^WORKERS: expected auto or a whole number from 1 to 256, got "0"/],
    [{ WORKERS: 'two' }, /^WORKERS: /],
    [{ WORKERS: '-2' }, /^WORKERS: /],
    [{ WORKERS: '1.5' }, /^WORKERS: /],
    [{ WORKERS: '1000' }, /^WORKERS: /],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('limits relay bodies to RELAY_BODY_LIMIT MB and all bodies in memory to REQUEST_BODY_BUDGET MB', () => {
    const MB = 1024 * 1024;
    expect(loadConfig({})).toMatchObject({ relayBodyLimit: 32 * MB, bodyBudget: 256 * MB });
    expect(loadConfig({ RELAY_BODY_LIMIT: '8', REQUEST_BODY_BUDGET: '64' })).toMatchObject({
      relayBodyLimit: 8 * MB,
      bodyBudget: 64 * MB,
    });
    // The budget's default grows with a relay limit beyond it.
    expect(loadConfig({ RELAY_BODY_LIMIT: '512' }).bodyBudget).toBe(512 * MB);
  });

  it('shares the body budget: a quarter per user (at least one relay body), a quarter for unknown callers', () => {
    const MB = 1024 * 1024;
    expect(loadConfig({})).toMatchObject({
      bodyUserShare: 64 * MB,
      bodyAnonymousShare: 64 * MB,
      bodyAddressShare: 4 * MB,
      bodyIdleTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
    });
    expect(loadConfig({ RELAY_BODY_LIMIT: '12', REQUEST_BODY_BUDGET: '16' })).toMatchObject({
      bodyUserShare: 12 * MB,
      bodyAnonymousShare: 4 * MB,
    });
    expect(loadConfig({ REQUEST_BODY_USER_SHARE: '100', REQUEST_BODY_IDLE_TIMEOUT: '5' })).toMatchObject({
      bodyUserShare: 100 * MB,
      bodyIdleTimeoutMs: 5_000,
    });
    expect(() => loadConfig({ REQUEST_BODY_USER_SHARE: '16' })).toThrow(
      /^REQUEST_BODY_USER_SHARE: must be at least/,
    );
    expect(() => loadConfig({ REQUEST_BODY_USER_SHARE: '300' })).toThrow(/^REQUEST_BODY_USER_SHARE: /);
  });

  it('trusts X-Forwarded-For from loopback only unless TRUSTED_PROXIES says otherwise', () => {
    expect(loadConfig({}).trustedProxies).toEqual(['127.0.0.0/8', '::1']);
    expect(loadConfig({ TRUSTED_PROXIES: ' 172.16.0.0/12, 10.0.0.7 ,fd00::/8' }).trustedProxies).toEqual([
      '172.16.0.0/12',
      '10.0.0.7',
      'fd00::/8',
    ]);
  });

  it('accepts the optional variables', () => {
    expect(
      loadConfig({
        REDIS_CONN_STRING: 'redis://127.0.0.1:6379/0',
        INITIAL_ROOT_TOKEN: 'sk-abcDEF123',
        INITIAL_ROOT_ACCESS_TOKEN: 'rootaccesstoken123',
      }),
    ).toMatchObject({
      redis: { mode: 'standalone', url: 'redis://127.0.0.1:6379/0', password: undefined },
      initialRootToken: 'abcDEF123',
      initialRootAccessToken: 'rootaccesstoken123',
    });
  });

  describe("one-api's Redis settings: REDIS_CONN_STRING, REDIS_PASSWORD, REDIS_MASTER_NAME", () => {
    it('reads one URL as one server, with REDIS_PASSWORD unless the URL has its own', () => {
      expect(
        loadConfig({ REDIS_CONN_STRING: ' rediss://cache:6380/2 ', REDIS_PASSWORD: 's3cret' }).redis,
      ).toEqual({
        mode: 'standalone',
        url: 'rediss://cache:6380/2',
        password: 's3cret',
      });
      expect(loadConfig({ REDIS_CONN_STRING: 'redis://cache:6379,' }).redis).toMatchObject({
        mode: 'standalone',
        url: 'redis://cache:6379',
      });
      expect(loadConfig({ REDIS_PASSWORD: 'x', REDIS_MASTER_NAME: 'mymaster' }).redis).toBeUndefined();
    });

    it('reads several hosts without a master name as a Cluster', () => {
      expect(
        loadConfig({ REDIS_CONN_STRING: '10.0.0.1:7000, 10.0.0.2:7001 ,[::1]:7002', REDIS_PASSWORD: 'pw' })
          .redis,
      ).toEqual({
        mode: 'cluster',
        nodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
          { host: '::1', port: 7002 },
        ],
        username: undefined,
        password: 'pw',
        tls: false,
      });
      expect(
        loadConfig({
          REDIS_CONN_STRING: 'rediss://app:p%40ss@a:7000,rediss://app:p%40ss@b:7000',
          REDIS_PASSWORD: 'pw',
        }).redis,
      ).toEqual({
        mode: 'cluster',
        nodes: [
          { host: 'a', port: 7000 },
          { host: 'b', port: 7000 },
        ],
        username: 'app',
        password: 'p@ss',
        tls: true,
      });
    });

    it('reads REDIS_KEY_PREFIX for every topology and refuses spaces or a long one', () => {
      expect(
        loadConfig({ REDIS_CONN_STRING: 'redis://cache:6379/3', REDIS_KEY_PREFIX: ' gw-a: ' }).redis,
      ).toMatchObject({ mode: 'standalone', keyPrefix: 'gw-a:' });
      expect(
        loadConfig({ REDIS_CONN_STRING: 'a:7000,b:7000', REDIS_KEY_PREFIX: 'gw-b:' }).redis,
      ).toMatchObject({
        mode: 'cluster',
        keyPrefix: 'gw-b:',
      });
      expect(() => loadConfig({ REDIS_CONN_STRING: 'redis://cache:6379', REDIS_KEY_PREFIX: 'a b' })).toThrow(
        /REDIS_KEY_PREFIX/,
      );
      expect(() =>
        loadConfig({ REDIS_CONN_STRING: 'redis://cache:6379', REDIS_KEY_PREFIX: 'x'.repeat(65) }),
      ).toThrow(/REDIS_KEY_PREFIX/);
    });

    it('reads the hosts as sentinels when REDIS_MASTER_NAME is set, even just one', () => {
      expect(
        loadConfig({
          REDIS_CONN_STRING: 's1:26379,s2:26379',
          REDIS_MASTER_NAME: ' mymaster ',
          REDIS_PASSWORD: 'master-pw',
        }).redis,
      ).toEqual({
        mode: 'sentinel',
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
        ],
        masterName: 'mymaster',
        password: 'master-pw',
        sentinelUsername: undefined,
        sentinelPassword: undefined,
        tls: false,
      });
      expect(
        loadConfig({ REDIS_CONN_STRING: 'redis://:sentinel-pw@s1:26379', REDIS_MASTER_NAME: 'mymaster' })
          .redis,
      ).toMatchObject({
        mode: 'sentinel',
        sentinels: [{ host: 's1', port: 26379 }],
        password: undefined,
        sentinelPassword: 'sentinel-pw',
      });
    });

    it.each([
      [{ REDIS_CONN_STRING: ' , ' }, /expected a URL/],
      [{ REDIS_CONN_STRING: 'a:7000,b' }, /expected host:port or redis:\/\/host:port for each host, got "b"/],
      [{ REDIS_CONN_STRING: 'a:7000,b:port' }, /got "b:port"/],
      [{ REDIS_CONN_STRING: 'a:7000,http://b:7000' }, /got "http:\/\/b:7000"/],
      [{ REDIS_CONN_STRING: 'a:7000,redis://u:secret@b' }, /got "redis:\/\/\*\*\*@b"$/],
      [
        { REDIS_CONN_STRING: 'redis://a:7000/1,redis://b:7000' },
        /a database number or options cannot be given/,
      ],
      [{ REDIS_CONN_STRING: 'a:7000,rediss://b:7000' }, /the same scheme and credentials/],
      [{ REDIS_CONN_STRING: 'redis://:x@a:7000,redis://:y@b:7000' }, /the same scheme and credentials/],
      [{ REDIS_CONN_STRING: 'sentinel', REDIS_MASTER_NAME: 'mymaster' }, /got "sentinel"/],
    ])('refuses %j with one line naming REDIS_CONN_STRING', (env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/^REDIS_CONN_STRING: [^\n]+$/);
      expect(() => loadConfig(env)).toThrow(message);
    });
  });

  it('points at the real sign-in providers and limits critical calls to 20 per 20 minutes by default', () => {
    expect(loadConfig({})).toMatchObject({
      providerUrls: {
        githubOAuth: 'https://github.com',
        githubApi: 'https://api.github.com',
        larkApi: 'https://open.feishu.cn',
        larkPassport: 'https://passport.feishu.cn',
        turnstileVerify: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      },
      criticalRateLimit: { limit: 20, windowSeconds: 1200 },
    });
    expect(
      loadConfig({
        GITHUB_API_URL: 'http://127.0.0.1:9000/',
        CRITICAL_RATE_LIMIT: '0',
        CRITICAL_RATE_LIMIT_WINDOW: '60',
      }),
    ).toMatchObject({
      providerUrls: { githubApi: 'http://127.0.0.1:9000' },
      criticalRateLimit: { limit: 0, windowSeconds: 60 },
    });
  });

  it("limits /api and the console per client IP per 3 minutes by one-api's defaults; 0 turns a limit off", () => {
    expect(loadConfig({})).toMatchObject({
      apiRateLimit: { limit: 480, windowSeconds: 180 },
      webRateLimit: { limit: 240, windowSeconds: 180 },
    });
    expect(loadConfig({ GLOBAL_API_RATE_LIMIT: ' 0 ', GLOBAL_WEB_RATE_LIMIT: '60' })).toMatchObject({
      apiRateLimit: { limit: 0, windowSeconds: 180 },
      webRateLimit: { limit: 60, windowSeconds: 180 },
    });
  });

  it('trusts no extra SMTP certificates unless SMTP_CA_FILE names a PEM file', () => {
    expect(loadConfig({}).smtpTrustedCertificates).toBeUndefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-config-'));
    try {
      const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
      writeFileSync(path.join(dir, 'ca.pem'), pem);
      writeFileSync(path.join(dir, 'not-a-cert.txt'), 'hello');
      expect(loadConfig({ SMTP_CA_FILE: path.join(dir, 'ca.pem') }).smtpTrustedCertificates).toBe(pem);
      expect(() => loadConfig({ SMTP_CA_FILE: path.join(dir, 'missing.pem') })).toThrow(
        /^SMTP_CA_FILE: cannot read ".*missing\.pem": ENOENT$/,
      );
      expect(() => loadConfig({ SMTP_CA_FILE: path.join(dir, 'not-a-cert.txt') })).toThrow(
        /^SMTP_CA_FILE: ".*not-a-cert\.txt" holds no PEM certificate/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts SQLite where `npm start` was run (INIT_CWD), else in the working directory', () => {
    // npm start at the repo root runs `npm run serve -w server` inside server/, with INIT_CWD = the root.
    expect(loadConfig({ INIT_CWD: '/home/op/switchyard' }).database).toEqual({
      dialect: 'sqlite',
      file: '/home/op/switchyard/data/one-api.db',
    });
    expect(loadConfig({ INIT_CWD: '/home/op/switchyard', SQLITE_PATH: 'state/gw.db' }).database).toEqual({
      dialect: 'sqlite',
      file: '/home/op/switchyard/state/gw.db',
    });
    // `node server/dist/main.js` from the repo root (as e2e runs it): no INIT_CWD, the working directory.
    expect(loadConfig({}).database).toEqual({
      dialect: 'sqlite',
      file: path.join(process.cwd(), 'data', 'one-api.db'),
    });
    expect(loadConfig({ INIT_CWD: '  ', SQLITE_PATH: 'rel.db' }).database).toMatchObject({
      file: path.join(process.cwd(), 'rel.db'),
    });
  });
});

describe('SQL_MAX_OPEN_CONNS, SQL_MAX_IDLE_CONNS, SQL_MAX_LIFETIME, SQLITE_BUSY_TIMEOUT, PG_PIPELINE', () => {
  it('keep the pool as it was when unset', () => {
    expect(loadConfig({}).databasePool).toEqual({
      maxOpen: 20,
      maxIdle: undefined,
      maxLifetimeSeconds: 0,
      sqliteBusyTimeoutMs: 3000,
      pgPipeline: true,
    });
  });

  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    [' ', true],
  ])('PG_PIPELINE=%j pipelines PostgreSQL: %s', (value, pipelined) => {
    expect(loadConfig({ PG_PIPELINE: value }).databasePool.pgPipeline).toBe(pipelined);
  });

  it('cap the idle connections at the open ones', () => {
    expect(loadConfig({ SQL_MAX_OPEN_CONNS: '5', SQL_MAX_IDLE_CONNS: '100' }).databasePool.maxIdle).toBe(5);
  });

  it.each([
    ['SQL_MAX_OPEN_CONNS', '0'],
    ['SQL_MAX_IDLE_CONNS', '-1'],
    ['SQL_MAX_LIFETIME', '1.5'],
    ['SQLITE_BUSY_TIMEOUT', 'soon'],
    ['PG_PIPELINE', 'off'],
  ])('refuse %s=%j naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^${variable}: `));
  });
});

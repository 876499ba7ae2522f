import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files whose subject is not the database: a client's wire format and its translation, the HTTP
 * surface and hostile bodies, configuration and start-up, Redis, the repository itself, and the
 * co-located unit tests of src/. There the database only stores what the relay settles, and the
 * ledger's, logs' and console's suites prove that on every database; with TEST_SCOPE=database (how
 * test/run-all-dbs.mjs runs PostgreSQL and MariaDB) they are left out. A file that adds a query, a
 * transaction or a migration of its own belongs on every database.
 */
const NOT_ABOUT_THE_DATABASE = [
  'src/**/*.test.ts',
  'test/providers/*.test.ts',
  'test/body-limits.test.ts',
  'test/broken-upstream.test.ts',
  'test/channel-destination.test.ts',
  'test/docker-compose.test.ts',
  'test/gemini-native*.test.ts',
  'test/hostile-bodies.test.ts',
  'test/images-edits.test.ts',
  'test/http.test.ts',
  'test/json-depth.test.ts',
  'test/key-limits.test.ts',
  'test/key-limits-redis.test.ts',
  'test/logging.test.ts',
  'test/malformed.test.ts',
  'test/memory-attack.test.ts',
  'test/messages*.test.ts',
  'test/openai-family.test.ts',
  'test/openapi.test.ts',
  'test/parse-once.test.ts',
  'test/plain-text.test.ts',
  'test/provider-error-redaction.test.ts',
  'test/rate-limit.test.ts',
  'test/realtime.test.ts',
  'test/redis-deployments.test.ts',
  'test/redis-topologies.test.ts',
  'test/refusal-language.test.ts',
  'test/relay-endpoints.test.ts',
  'test/repository-docs.test.ts',
  'test/responses*.test.ts',
  'test/start-up.test.ts',
  'test/structured-output.test.ts',
  'test/toolchain.test.ts',
  'test/trusted-proxies.test.ts',
  'test/turnstile.test.ts',
  'test/upstream-answer-*.test.ts',
  'test/web-security.test.ts',
];
for (const file of NOT_ABOUT_THE_DATABASE)
  if (!file.includes('*') && !existsSync(new URL(file, import.meta.url)))
    throw new Error(`NOT_ABOUT_THE_DATABASE names ${file}, which is gone`);

/** Files that replace one of our modules with vi.mock: they get modules of their own. */
const ISOLATED = ['test/key-budget.test.ts'];

export default defineConfig({
  test: {
    // Generous: a CI run shares two cores between two lanes, and in a slow hour of the machine child
    // servers took over 30 s to start. A test that hangs still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Most files wait (child servers, timers, the databases) more than they compute: three at a time
    // halves the suite on a 2-core machine (Vitest's default there is one).
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Pure unit tests run once, not once per database (vitest.unit.config.ts).
          exclude: [
            ...configDefaults.exclude,
            'test/unit/**',
            ...ISOLATED,
            ...(process.env.TEST_SCOPE === 'database' ? NOT_ABOUT_THE_DATABASE : []),
          ],
          // A worker keeps the modules it imported for its next file: each file builds its own app
          // (database, Redis prefix, settings), and importing the server afresh for each of 140 files
          // cost more CPU than their tests (the provider suites: 101 s of CPU isolated, 41 s shared).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});

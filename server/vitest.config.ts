import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Pure unit tests run once, not once per database (vitest.unit.config.ts).
    exclude: [...configDefaults.exclude, 'test/unit/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait (child servers, timers, the databases) more than they compute: three at a time
    // halves the suite on a 2-core machine (Vitest's default there is one).
    maxWorkers: 3,
  },
});

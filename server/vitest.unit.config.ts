import { defineConfig } from 'vitest/config';

/**
 * Unit tests of the server's parts (test/unit/): no database per run, so they run once, before the
 * suites that run once per database. `npm run coverage:ledger` measures the ledger's with them.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    coverage: {
      provider: 'v8',
      include: ['src/db/ledger/**', 'src/domain/billing/**', 'src/db/group-commit.ts', 'src/db/pg-script.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text'],
    },
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Each file starts its own server and browser; a few at a time keeps the machine responsive.
    maxWorkers: 3,
  },
});

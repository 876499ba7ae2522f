import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // A case is a real agent's whole task: a gateway, a fake provider and the CLI, a few calls each.
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // The nine cases run side by side (test.concurrent), so the suite takes about as long as the slowest.
    maxConcurrency: 9,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits on what the page shows after a request; its 1 s default is less than a
    // reload takes on a busy machine.
    expect: { poll: { timeout: 15_000 } },
    // Each file starts its own server and browser; two at a time beside the server lane keep a
    // 2-core machine answering (three at a time, start-ups took over 30 s in a slow hour).
    maxWorkers: 2,
  },
});

/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1000,
    // For scripts/check-bundle-budget.mjs, which removes it.
    manifest: true,
    rolldownOptions: {
      output: {
        // Few requests before the sign-in form works: everything the first render needs (the sign-in
        // page included) in one chunk rather than a dozen small ones.
        codeSplitting: { groups: [{ name: 'console', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  test: {
    environment: 'jsdom',
    // Vitest's default on a 2-core machine is one file at a time.
    maxWorkers: 2,
    // A worker keeps its modules and its jsdom for the next file (Testing Library unmounts after each
    // test): importing Mantine and the console afresh for each of 44 files cost 5× the CPU.
    isolate: false,
    // A deadline, not a wait: the channel form's tests ran past the 5 s default on a busy machine.
    testTimeout: 15_000,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});

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
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});

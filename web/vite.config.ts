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
        // Few requests before the sign-in form works: what every page needs in one chunk, the sign-in
        // page's own code (and the inputs other forms share with it) in another.
        codeSplitting: {
          groups: [
            { name: 'console', tags: ['$initial'], priority: 2 },
            { name: 'sign-in', test: /features[\\/]auth[\\/]components[\\/]LoginPage\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});

import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// End-to-end: the built app (`out/`) served by the web mode, driven in Debian Chromium.
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'shared') } },
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file starts its own server; two cores run two files at a time comfortably.
    maxWorkers: 2,
  },
});

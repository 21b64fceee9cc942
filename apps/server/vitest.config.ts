import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Nothing unless COLLAB_TEST_DATABASE=postgres: then one PostgreSQL for the run.
    globalSetup: ['src/testPostgres.globalSetup.ts'],
    // Git-heavy tests (fifty commits and an fsck) take seconds on a loaded two-core machine: 5 s flaked.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files are independent (each its own data directories and ports): both cores run one each.
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Nothing unless COLLAB_TEST_DATABASE=postgres: then one PostgreSQL for the run.
    globalSetup: ['src/testPostgres.globalSetup.ts'],
    // Against hangs only: git-heavy tests (fifty commits and an fsck) and servers with worker processes
    // take a minute and more on a heavily loaded two-core machine (30 s and 60 s failed there).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The files are independent (each its own data directories and ports): both cores run one each.
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The files that need modules of their own: commitSpawns puts a git wrapper first on PATH and checks that
 * core/git finds it, which a module already loaded by another file of the worker would have looked up before.
 */
const ISOLATED_FILES = ['src/commitSpawns.test.ts'];

export default defineConfig({
  test: {
    // Nothing unless COLLAB_TEST_DATABASE=postgres: then one PostgreSQL for the run.
    globalSetup: ['src/testPostgres.globalSetup.ts'],
    // Against hangs only: git-heavy tests (fifty commits and an fsck) and servers with worker processes
    // take a minute and more on a heavily loaded two-core machine (30 s and 60 s failed there).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The files are independent (each its own data directories and ports): both cores run one each.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // The files of a worker share its modules: loading the server's modules again for each file was
        // about a third of the suite's time. A file that changes process-wide state puts it back after.
        test: { name: 'shared', include: ['src/**/*.test.ts'], exclude: ISOLATED_FILES, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
    ],
  },
});

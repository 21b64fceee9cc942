import { defineConfig } from 'vitest/config';

/** Against a configured server every test file shares that one server (see src/config.ts). */
const sharedServer = Boolean(process.env.COLLAB_BASE_URL || process.env.COLLAB_CONFORMANCE_CONFIG);
/** Every file on a fresh server of its own, as a server that no other file wrote to (`pnpm test:full`). */
const freshServers = process.env.COLLAB_CONFORMANCE_FRESH_SERVERS === '1';

/**
 * The files with tests that hold only on a server of their own (the demo data exactly as loaded, a restart,
 * the data directory, an approval that makes the outsider a member for good): on a shared server those
 * tests skip themselves, so these files start a fresh server each. `allOperationsServed` reads a header
 * only this repository's server sends; `cliFuzz`'s random requests delete the fixture project's branches,
 * which later files on the same server count.
 */
const FRESH_SERVER_FILES = [
  'accessRequests',
  'allOperationsServed',
  'audit-restart',
  'badges',
  'cliFuzz',
  'cliServerConfig',
  'gitbeaker',
  'groups',
  'members',
  'pipelines',
  'projectExportImport',
  'projects',
  'remoteMirrors',
  'scim',
  'server',
  'storageMoves',
  'users',
].map((name) => `test/${name}.test.ts`);

const ALL_FILES = ['test/**/*.test.ts'];
const perProject = !sharedServer && !freshServers;

export default defineConfig({
  test: {
    // Given per project when there are projects: a project's own list would be added to this one.
    include: perProject ? [] : ALL_FILES,
    // Per project when there are projects (below); a run on PostgreSQL starts it here otherwise.
    globalSetup: perProject ? undefined : ['scripts/postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores run two files at a time comfortably. On a configured shared server the files run one after
    // the other: one file's new branches, pipelines and keys would otherwise show up in the lists and exports
    // another file is comparing.
    maxWorkers: sharedServer ? 1 : 2,
    // Against this repository's server each test worker has a warm server of its own, started and probed
    // once (scripts/warmServers.ts); the worker's files use it one after the other, as a configured server
    // (scripts/useWarmServer.ts). The files of FRESH_SERVER_FILES start their own.
    projects: !perProject
      ? undefined
      : [
          {
            extends: true,
            test: {
              name: 'warm',
              include: ALL_FILES,
              exclude: FRESH_SERVER_FILES,
              globalSetup: ['scripts/postgres.ts', 'scripts/warmServers.ts'],
              setupFiles: ['scripts/useWarmServer.ts'],
            },
          },
          {
            extends: true,
            test: { name: 'fresh', include: FRESH_SERVER_FILES, globalSetup: ['scripts/postgres.ts'] },
          },
        ],
  },
});

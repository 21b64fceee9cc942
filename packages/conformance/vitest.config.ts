import { defineConfig } from 'vitest/config';

/** Against a configured server every test file shares that one server (see src/config.ts). */
const sharedServer = Boolean(process.env.COLLAB_BASE_URL || process.env.COLLAB_CONFORMANCE_CONFIG);
/** Every file on a fresh server of its own, as a server that no other file wrote to (`pnpm test:full`). */
const freshServers = process.env.COLLAB_CONFORMANCE_FRESH_SERVERS === '1';

/**
 * The files whose tests hold only on a server no other file wrote to, so each starts a fresh server of its
 * own: `groups` and `projects` compare whole lists of the demo data per role, and `cliFuzz`'s random
 * requests delete the fixture project's branches, which later files on the same server count. The other
 * files run on their worker's warm server; their few tests that need a server of their own (restarts,
 * fixtures of their own, an approval that makes the outsider a member for good) start one themselves.
 */
const FRESH_SERVER_FILES = ['cliFuzz', 'groups', 'projects'].map((name) => `test/${name}.test.ts`);
/**
 * The files that pack, install and run a package (the tool, its dependencies) with servers of their own:
 * mostly waiting on pnpm, npm and tsc, they need no warm server, and scripts/test.sh runs them beside the
 * other tests (`--project packing`).
 */
const PACKING_FILES = ['package', 'toolOutside'].map((name) => `test/${name}.test.ts`);

/**
 * Test workers (each with its warm server): two, or COLLAB_CONFORMANCE_WORKERS. scripts/test.sh gives one to
 * the run on PostgreSQL that goes beside the suite's own two. Set here, not with --maxWorkers: the warm
 * servers' set-up counts the project's configured workers.
 */
const WORKERS = Number(process.env.COLLAB_CONFORMANCE_WORKERS ?? '') || 2;

const ALL_FILES = ['test/**/*.test.ts'];
const perProject = !sharedServer && !freshServers;

export default defineConfig({
  test: {
    // Given per project when there are projects: a project's own list would be added to this one.
    include: perProject ? [] : ALL_FILES,
    // Per project when there are projects (below); a run on PostgreSQL starts it here otherwise.
    globalSetup: perProject ? undefined : ['scripts/postgres.ts'],
    // Against hangs only: a test that starts servers of its own (restarts) or a process (the operator's
    // commands) takes a minute and more on a loaded two-core machine; 30 s failed such tests there.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores run two files at a time comfortably. On a configured shared server the files run one after
    // the other: one file's new branches, pipelines and keys would otherwise show up in the lists and exports
    // another file is comparing.
    maxWorkers: sharedServer ? 1 : WORKERS,
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
              exclude: [...FRESH_SERVER_FILES, ...PACKING_FILES],
              globalSetup: ['scripts/postgres.ts', 'scripts/warmServers.ts'],
              setupFiles: ['scripts/useWarmServer.ts'],
              // The files of a worker share its modules, as they share its server: loading the client, the
              // spec's index and the validators' Ajv again for each file (and compiling the schemas again)
              // was about a third of these files' CPU time. The set-up gives each file a run suffix of its
              // own (src/run.ts); no file changes process-wide state it does not put back.
              isolate: false,
            },
          },
          {
            extends: true,
            test: { name: 'fresh', include: FRESH_SERVER_FILES, globalSetup: ['scripts/postgres.ts'] },
          },
          {
            extends: true,
            test: { name: 'packing', include: PACKING_FILES, globalSetup: ['scripts/postgres.ts'] },
          },
        ],
  },
});

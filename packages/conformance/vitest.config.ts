import { defineConfig } from 'vitest/config';

/** Against a configured server every test file shares that one server (see src/config.ts). */
const sharedServer = Boolean(process.env.COLLAB_BASE_URL || process.env.COLLAB_CONFORMANCE_CONFIG);
/** Every file on a fresh server of its own, as a server that no other file wrote to (`pnpm test:full`). */
const freshServers = process.env.COLLAB_CONFORMANCE_FRESH_SERVERS === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores run two files at a time comfortably. Against this repository's server each test worker has
    // a warm server of its own (scripts/warmServers.ts), which its files use one after the other; a file that
    // needs a fresh server starts one. On a configured shared server the files run one after the other: one
    // file's new branches, pipelines and keys would otherwise show up in the lists and exports another file
    // is comparing.
    maxWorkers: sharedServer ? 1 : 2,
    globalSetup: sharedServer || freshServers ? [] : ['scripts/warmServers.ts'],
  },
});

import { defineConfig } from 'vitest/config';

/** Against a configured server every test file shares that one server (see src/config.ts). */
const sharedServer = Boolean(process.env.COLLAB_BASE_URL || process.env.COLLAB_CONFORMANCE_CONFIG);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file starts its own server; two cores run two files at a time comfortably. On a shared
    // server the files run one after the other: one file's new branches, pipelines and keys would otherwise
    // show up in the lists and exports another file is comparing.
    maxWorkers: sharedServer ? 1 : 2,
  },
});

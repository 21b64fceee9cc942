import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The packed-package test spends most of its time waiting on pnpm, npm and tsc in child processes: on a
    // second worker the other files run beside it instead of after it (vitest takes one worker on two cores).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'runtime', include: ['test/*.test.ts'] } },
      // The type-level files only call the client with a fetch of their own and compare types: they share
      // one module graph instead of loading the client again for each file.
      { extends: true, test: { name: 'types', include: ['test/types/*.test.ts'], isolate: false } },
    ],
  },
});

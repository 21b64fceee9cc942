// Builds the publishable package: dist/*.js and *.d.ts from src (tsc), the bin (dist/cli/main.js) made
// executable. The test files and src/ ship as TypeScript too: `collab-conformance run` hands them to vitest,
// which transforms them (see src/cli/run.ts).
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../../../scripts/buildPackage.mjs';

buildPackage({
  name: '@collab/conformance',
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  // The declarations of the workspace packages it compiles against.
  inputs: [
    { path: 'node_modules/@collab/client/dist', declarationsOnly: true },
    { path: 'node_modules/@collab/spec/dist', declarationsOnly: true },
    { path: 'node_modules/@collab/server/dist', declarationsOnly: true },
  ],
  finish(building) {
    chmodSync(`${building}/cli/main.js`, 0o755);
  },
});

// Builds the publishable package: dist/*.js and *.d.ts from src (tsc), the bin (dist/cli/main.js) made
// executable. The test files and src/ ship as TypeScript too: `collab-conformance run` hands them to vitest,
// which transforms them (see src/cli/run.ts).

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildRecord } from '../../../scripts/buildRecord.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// What the build reads, the declarations of the workspace packages it compiles against included: skipped
// when none of it changed and dist/ is as the last build left it (prepack, scripts/pack.mjs after a build).
const record = buildRecord(
  packageDir,
  [
    { path: 'src' },
    { path: 'tsconfig.build.json' },
    { path: '../../tsconfig.base.json' },
    { path: 'scripts/build.mjs' },
    { path: 'node_modules/@collab/client/dist', declarationsOnly: true },
    { path: 'node_modules/@collab/spec/dist', declarationsOnly: true },
    { path: 'node_modules/@collab/server/dist', declarationsOnly: true },
    { path: 'node_modules/typescript/package.json' },
  ],
  'dist',
);
if (record.upToDate()) {
  process.stdout.write('@collab/conformance: dist/ is up to date\n');
  process.exit(0);
}
const dist = fileURLToPath(new URL('../dist', import.meta.url));
// Built aside and swapped in at the end, so a run using dist/ never sees half a build.
const building = fileURLToPath(new URL(`../node_modules/.build-${process.pid}`, import.meta.url));
const replaced = `${building}-old`;

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', building], {
  cwd: packageDir,
  stdio: 'inherit',
});
chmodSync(`${building}/cli/main.js`, 0o755);
if (existsSync(dist)) renameSync(dist, replaced);
renameSync(building, dist);
rmSync(replaced, { recursive: true, force: true });
record.record();

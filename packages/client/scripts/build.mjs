// Builds the publishable package: dist/*.js and *.d.ts from src (tsc), then dist/spec.d.ts replaced by the
// spec's generated types. The source names those types once, in src/spec.ts (`export type … from
// '@collab/spec/schema'`); @collab/spec is a private workspace package, so the tarball carries a copy of its
// schema.d.ts instead and needs nothing but openapi-fetch at install time.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildRecord } from '../../../scripts/buildRecord.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// What the build reads: skipped when none of it changed and dist/ is as the last build left it (prepack
// after a build).
const record = buildRecord(
  packageDir,
  [
    { path: 'src' },
    { path: 'tsconfig.build.json' },
    { path: '../../tsconfig.base.json' },
    { path: 'scripts/build.mjs' },
    { path: 'node_modules/@collab/spec/dist/schema.d.ts' },
    { path: 'node_modules/typescript/package.json' },
  ],
  'dist',
);
if (record.upToDate()) {
  process.stdout.write('@collab/client: dist/ is up to date\n');
  process.exit(0);
}
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const schema = new URL('../node_modules/@collab/spec/dist/schema.d.ts', import.meta.url);
// Built aside and swapped in at the end: the workspace's other packages (the conformance suite) import
// dist/ and may be running while this builds (`pnpm pack` in the package test builds too).
const building = fileURLToPath(new URL(`../node_modules/.build-${process.pid}`, import.meta.url));
const replaced = `${building}-old`;

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', building], {
  cwd: packageDir,
  stdio: 'inherit',
});

let types;
try {
  types = readFileSync(schema, 'utf8');
} catch {
  throw new Error('spec/dist/schema.d.ts is missing: run `pnpm --filter @collab/spec build` first');
}
writeFileSync(
  `${building}/spec.d.ts`,
  `// Copied from @collab/spec (dist/schema.d.ts) when @collab/client was built.\n${types}`,
);
if (existsSync(dist)) renameSync(dist, replaced);
renameSync(building, dist);
rmSync(replaced, { recursive: true, force: true });
record.record();

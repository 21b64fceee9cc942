// The build of a publishable workspace package (the client, the conformance tool): tsc into a folder aside,
// the package's own finishing step on it, then swapped in for dist/ at once, so that a run using dist/ (the
// other packages' tests, `pnpm pack` in the package test) never sees half a build. Skipped when nothing the
// build reads has changed and dist/ is as the last build left it (buildRecord.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildRecord } from './buildRecord.mjs';

/**
 * @param {{
 *   name: string,
 *   packageDir: string,
 *   inputs: import('./buildRecord.mjs').Input[],
 *   finish?: (building: string) => void,
 * }} build `inputs`: what the build reads besides the package's src/, tsconfig files, build scripts and
 *   TypeScript's version; `finish`: what the package adds to the built folder before it becomes dist/.
 */
export function buildPackage({ name, packageDir, inputs, finish }) {
  const record = buildRecord(
    packageDir,
    [
      { path: 'src' },
      { path: 'tsconfig.build.json' },
      { path: '../../tsconfig.base.json' },
      { path: 'scripts/build.mjs' },
      // This file: the build's steps are here, not in the package's build.mjs.
      { path: '../../scripts/buildPackage.mjs' },
      { path: 'node_modules/typescript/package.json' },
      ...inputs,
    ],
    'dist',
  );
  if (record.upToDate()) {
    process.stdout.write(`${name}: dist/ is up to date\n`);
    return;
  }
  const dist = join(packageDir, 'dist');
  const building = join(packageDir, 'node_modules', `.build-${process.pid}`);
  const replaced = `${building}-old`;
  const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', building], {
    cwd: packageDir,
    stdio: 'inherit',
  });
  finish?.(building);
  if (existsSync(dist)) renameSync(dist, replaced);
  renameSync(building, dist);
  rmSync(replaced, { recursive: true, force: true });
  record.record();
}

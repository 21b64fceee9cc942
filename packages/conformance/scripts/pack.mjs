// Packs the tool as one tarball that installs alone: `npm install ./collab-conformance.tgz` in any project.
// @collab/client and @collab/spec are on no registry, so they travel inside it as bundled dependencies
// (their own packed files, as `pnpm pack` makes them); the other dependencies are declared with their exact
// versions and come from the registry. Usage: node scripts/pack.mjs [--out DIR] (default: this folder).
// The staging is shared with the server's tarball: scripts/packing.mjs at the repository's top.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  bundleWorkspacePackage,
  npmPack,
  readJson,
  run,
  withBundledDependencies,
} from '../../../scripts/packing.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const bundled = {
  '@collab/client': fileURLToPath(new URL('../../client', import.meta.url)),
  '@collab/spec': fileURLToPath(new URL('../../../spec', import.meta.url)),
};
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? packageDir);
const FILE = 'collab-conformance.tgz';

const work = mkdtempSync(join(tmpdir(), 'collab-conformance-pack-'));
try {
  const stage = join(work, 'package');
  mkdirSync(stage);
  run(process.execPath, ['scripts/build.mjs'], packageDir);
  const own = readJson(join(packageDir, 'package.json'));
  for (const entry of own.files) cpSync(join(packageDir, entry), join(stage, entry), { recursive: true });

  const bundledManifests = Object.entries(bundled).map(([name, dir]) =>
    bundleWorkspacePackage(stage, work, name, dir),
  );
  const manifest = {
    ...own,
    dependencies: withBundledDependencies(own.dependencies, bundledManifests),
    bundleDependencies: Object.keys(bundled),
    devDependencies: undefined,
    scripts: undefined,
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const packed = npmPack(stage, work);
  mkdirSync(out, { recursive: true });
  copyFileSync(packed, join(out, FILE));
  process.stdout.write(`${join(out, FILE)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

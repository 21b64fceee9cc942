// Packs the tool as one tarball that installs alone: `npm install ./collab-conformance.tgz` in any project.
// @collab/client and @collab/spec are on no registry, so they travel inside it as bundled dependencies
// (their own packed files, as `pnpm pack` makes them); the other dependencies are declared with their exact
// versions and come from the registry. Usage: node scripts/pack.mjs [--out DIR] (default: this folder).
//
// The tarball is made by `npm pack` from a staging folder, since `pnpm pack` links workspace packages
// instead of bundling them.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const bundled = {
  '@collab/client': fileURLToPath(new URL('../../client', import.meta.url)),
  '@collab/spec': fileURLToPath(new URL('../../../spec', import.meta.url)),
};
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? packageDir);
const FILE = 'collab-conformance.tgz';

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'collab-conformance-pack-'));
try {
  const stage = join(work, 'package');
  mkdirSync(stage);
  run(process.execPath, ['scripts/build.mjs'], packageDir);
  const own = readJson(join(packageDir, 'package.json'));
  for (const entry of own.files) cpSync(join(packageDir, entry), join(stage, entry), { recursive: true });

  const dependencies = { ...own.dependencies };
  for (const [name, dir] of Object.entries(bundled)) {
    // Packed as pnpm packs them (their prepack builds them), then unpacked into the stage's node_modules.
    const packed = join(work, name.replace(/[@/]/g, '_'));
    mkdirSync(packed);
    run('pnpm', ['pack', '--pack-destination', packed], dir);
    const tarball = readdirSync(packed).find((file) => file.endsWith('.tgz'));
    const into = join(stage, 'node_modules', name);
    mkdirSync(into, { recursive: true });
    run('tar', ['-xzf', join(packed, tarball), '-C', into, '--strip-components=1'], work);
    const manifest = readJson(join(into, 'package.json'));
    dependencies[name] = manifest.version;
    // What a bundled package needs from the registry is declared by the tool, so npm installs it beside.
    for (const [dependency, version] of Object.entries(manifest.dependencies ?? {}))
      dependencies[dependency] ??= version;
  }
  const manifest = {
    ...own,
    dependencies,
    bundleDependencies: Object.keys(bundled),
    devDependencies: undefined,
    scripts: undefined,
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const packed = run(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', work],
    stage,
  ).trim();
  mkdirSync(out, { recursive: true });
  copyFileSync(join(work, packed.split('\n').at(-1)), join(out, FILE));
  process.stdout.write(`${join(out, FILE)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

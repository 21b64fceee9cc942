// What the two packed tools share: `collab-server` (apps/server/scripts/pack.mjs) and `collab-conformance`
// (packages/conformance/scripts/pack.mjs) each carry workspace packages that are on no registry as bundled
// dependencies. `pnpm pack` links workspace packages instead of bundling them, so each tool is staged in a
// plain folder, with its bundled packages unpacked under the stage's node_modules, and packed by `npm pack`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs a command to its end; its output, or an exception with its status. */
export function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

export const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * Packs the workspace package in `dir` as pnpm packs it (its `files`, its prepack, workspace versions written
 * out) and unpacks it into `stage/node_modules/<name>`. `work` is a scratch folder. Returns its manifest.
 */
export function bundleWorkspacePackage(stage, work, name, dir) {
  const packed = join(work, name.replace(/[@/]/g, '_'));
  mkdirSync(packed);
  run('pnpm', ['pack', '--pack-destination', packed], dir);
  const tarball = readdirSync(packed).find((file) => file.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`pnpm pack made no tarball of ${name}`);
  const into = join(stage, 'node_modules', name);
  mkdirSync(into, { recursive: true });
  run('tar', ['-xzf', join(packed, tarball), '-C', into, '--strip-components=1'], work);
  return readJson(join(into, 'package.json'));
}

/**
 * The dependencies a tool declares for its bundled packages: each at its packed version, and what they need
 * from the registry beside (unless the tool declares it, or bundles it too).
 */
export function withBundledDependencies(own, bundledManifests) {
  const dependencies = { ...own };
  const bundled = new Set(bundledManifests.map((manifest) => manifest.name));
  for (const manifest of bundledManifests) {
    dependencies[manifest.name] = manifest.version;
    for (const [dependency, version] of Object.entries(manifest.dependencies ?? {}))
      if (!bundled.has(dependency)) dependencies[dependency] ??= version;
  }
  return dependencies;
}

/** `npm pack` of the staged folder into `work`; the tarball's path. */
export function npmPack(stage, work) {
  const printed = run(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', work],
    stage,
  ).trim();
  const file = printed.split('\n').at(-1);
  if (!file) throw new Error('npm pack printed no tarball name');
  return join(work, file);
}

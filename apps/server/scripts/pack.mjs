// Packs the server as one installable tarball, `collab-server-<version>.tgz`, for people who run it outside
// this repository (`npm install ./collab-server-0.1.0.tgz`, then `npx collab-server --help`).
//
// The workspace packages it reads at run time, @collab/spec (the bundled spec) and @collab/docs (the rendered
// page), are not on a registry: they travel inside the tarball as bundled dependencies, staged as the
// conformance tool's are (scripts/packing.mjs at the repository's top).
//
// Usage: node scripts/pack.mjs [DESTINATION]   (default: the current directory; prints the tarball's path)

import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleWorkspacePackage,
  npmPack,
  readJson,
  withBundledDependencies,
} from '../../../scripts/packing.mjs';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const bundled = {
  '@collab/spec': fileURLToPath(new URL('../../../spec', import.meta.url)),
  '@collab/docs': fileURLToPath(new URL('../../docs', import.meta.url)),
};
const destination = resolve(process.argv[2] ?? '.');

for (const [what, path] of [
  ['the server (pnpm build)', join(serverDir, 'dist/main.js')],
  ['the spec (pnpm build)', join(bundled['@collab/spec'], 'dist/openapi.json')],
  ['the docs (pnpm build)', join(bundled['@collab/docs'], 'dist/index.html')],
]) {
  if (!existsSync(path)) throw new Error(`build ${what} first: ${path} is missing`);
}

const server = readJson(join(serverDir, 'package.json'));

const work = mkdtempSync(join(tmpdir(), 'collab-server-pack-'));
try {
  const stage = join(work, 'package');
  mkdirSync(stage);
  cpSync(join(serverDir, 'dist'), join(stage, 'dist'), {
    recursive: true,
    // Not the source maps, nor the code cache of this machine's Node.js (src/codeCache.ts), nor tsc's record
    // of its build (composite: tsconfig.json's typecheck reads it).
    filter: (source) =>
      !source.endsWith('.map') && !source.includes('.code-cache') && !source.endsWith('.tsbuildinfo'),
  });
  cpSync(join(serverDir, 'fixtures'), join(stage, 'fixtures'), { recursive: true });
  cpSync(join(serverDir, 'README.md'), join(stage, 'README.md'));

  const bundledManifests = Object.entries(bundled).map(([name, dir]) =>
    bundleWorkspacePackage(stage, work, name, dir),
  );
  const runtimeDependencies = Object.fromEntries(
    Object.entries(server.dependencies).filter(([name]) => !(name in bundled) && name !== 'tsx'),
  );
  const published = {
    name: 'collab-server',
    version: server.version,
    description: server.description,
    type: 'module',
    license: server.license ?? 'UNLICENSED',
    engines: server.engines,
    bin: { 'collab-server': './dist/main.js' },
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    files: ['dist', 'fixtures', 'README.md'],
    dependencies: withBundledDependencies(runtimeDependencies, bundledManifests),
    bundleDependencies: Object.keys(bundled),
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);

  const packed = npmPack(stage, work);
  mkdirSync(destination, { recursive: true });
  copyFileSync(packed, join(destination, basename(packed)));
  console.log(join(destination, basename(packed)));
} finally {
  rmSync(work, { recursive: true, force: true });
}

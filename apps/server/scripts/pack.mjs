// Packs the server as one installable tarball, `collab-server-<version>.tgz`, for people who run it outside
// this repository (`npm install ./collab-server-0.1.0.tgz`, then `npx collab-server --help`).
//
// The workspace packages it reads at run time, @collab/spec (the bundled spec) and @collab/docs (the rendered
// page), are not on a registry: they travel inside the tarball as bundled dependencies. pnpm's own pack
// cannot bundle workspace links, so the package is staged in a plain directory (built output, fixtures,
// README, a package.json for the registry, and real copies of the two bundled packages) and packed by npm.
//
// Usage: node scripts/pack.mjs [DESTINATION]   (default: the current directory; prints the tarball's path)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const specDir = fileURLToPath(new URL('../../../spec', import.meta.url));
const docsDir = fileURLToPath(new URL('../../docs', import.meta.url));
const destination = resolve(process.argv[2] ?? '.');

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

for (const [what, path] of [
  ['the server (pnpm build)', join(serverDir, 'dist/main.js')],
  ['the spec (pnpm build)', join(specDir, 'dist/openapi.json')],
  ['the docs (pnpm build)', join(docsDir, 'dist/index.html')],
]) {
  if (!existsSync(path)) throw new Error(`build ${what} first: ${path} is missing`);
}

const server = readJson(join(serverDir, 'package.json'));
const BUNDLED = ['@collab/spec', '@collab/docs'];

const stage = mkdtempSync(join(tmpdir(), 'collab-server-pack-'));
try {
  cpSync(join(serverDir, 'dist'), join(stage, 'dist'), {
    recursive: true,
    filter: (source) => !source.endsWith('.map'),
  });
  cpSync(join(serverDir, 'fixtures'), join(stage, 'fixtures'), { recursive: true });
  cpSync(join(serverDir, 'README.md'), join(stage, 'README.md'));

  // The two bundled packages, with what their own `files` ship and no workspace dependencies left.
  for (const [name, dir] of [
    ['@collab/spec', specDir],
    ['@collab/docs', docsDir],
  ]) {
    const target = join(stage, 'node_modules', name);
    mkdirSync(target, { recursive: true });
    const own = readJson(join(dir, 'package.json'));
    for (const entry of ['dist', 'index.js', 'index.d.ts']) {
      if (existsSync(join(dir, entry))) cpSync(join(dir, entry), join(target, entry), { recursive: true });
    }
    const { scripts: _scripts, devDependencies: _dev, dependencies: _deps, private: _private, ...rest } = own;
    writeFileSync(join(target, 'package.json'), `${JSON.stringify(rest, null, 2)}\n`);
  }

  const runtimeDependencies = Object.fromEntries(
    Object.entries(server.dependencies).filter(([name]) => !BUNDLED.includes(name) && name !== 'tsx'),
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
    dependencies: {
      ...runtimeDependencies,
      ...Object.fromEntries(
        BUNDLED.map((name) => [name, readJson(join(stage, 'node_modules', name, 'package.json')).version]),
      ),
    },
    bundleDependencies: BUNDLED,
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);

  mkdirSync(destination, { recursive: true });
  const output = execFileSync('npm', ['pack', stage, '--pack-destination', destination, '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(output);
  console.log(join(destination, filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}

// The published tool works outside this repository: `pnpm pack` it with @collab/client and @collab/spec,
// install the tarballs (and those of its dependencies, packed from pnpm's store, so no network is needed)
// into a fresh project in a temporary directory, and run the installed `collab-conformance`: --help, and
// `run --only badge` against a local reference server, which must pass and write its reports.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/cli/report.js';
import { demoConfig } from '../src/config.js';
import { type LocalServer, startLocalServer } from '../src/localServer.js';
import { runToEnd } from './cliProcess.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const clientDir = fileURLToPath(new URL('../../client', import.meta.url));
const specDir = fileURLToPath(new URL('../../../spec', import.meta.url));
const npmVersion = (() => {
  try {
    return execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();

/** Runs a command; a failure shows its output. */
function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** The directory of `name` as `fromDir`'s package resolves it, or undefined (an optional one not installed). */
function packageDirOf(name: string, fromDir: string): string | undefined {
  const require = createRequire(join(fromDir, 'package.json'));
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // A package whose exports hide package.json: walk up from its entry to the folder named like it.
    try {
      let dir = dirname(require.resolve(name));
      while (!existsSync(join(dir, 'package.json')) || readPackage(dir).name !== name) dir = dirname(dir);
      return dir;
    } catch {
      return undefined;
    }
  }
}

function readPackage(dir: string): {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** The installed dependency closure of `roots` (name@version → directory); absent optional ones left out. */
function dependencyClosure(roots: string[], fromDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, from: string) => {
    const dir = packageDirOf(name, from);
    if (!dir) return;
    const pkg = readPackage(dir);
    const key = `${pkg.name}@${pkg.version}`;
    if (found.has(key)) return;
    found.set(key, dir);
    for (const dependency of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }))
      visit(dependency, dir);
  };
  for (const root of roots) visit(root, fromDir);
  return found;
}

const made: string[] = [];
let server: LocalServer | undefined;
afterAll(async () => {
  await server?.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!npmVersion)('the packed tool (skipped: npm is not available)', () => {
  it('installs from its tarball outside the workspace, and its bin answers --help and runs', {
    timeout: 900_000,
  }, async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'collab-conformance-pack-')));
    made.push(work);
    // prepack builds dist (the conformance package's and the client's); the spec ships its built dist.
    for (const dir of [packageDir, clientDir, specDir])
      run('pnpm', ['pack', '--pack-destination', work], dir);

    // The runtime dependencies, packed from pnpm's store. They are copied first: the store hard-links
    // identical files, and npm packs a hard link as a link entry that its install then drops.
    const roots = ['ajv', 'ajv-formats', 'vitest'];
    const closure = dependencyClosure(roots, packageDir);
    for (const [name, dir] of dependencyClosure(['openapi-fetch'], clientDir)) closure.set(name, dir);
    const copies = [...closure].map(([key, dir]) => {
      const copy = join(work, 'dependencies', key.replace(/[@/]/g, '_'));
      cpSync(dir, copy, {
        recursive: true,
        dereference: true,
        filter: (source) => !source.includes('/node_modules/', dir.length),
      });
      return copy;
    });
    // One npm for all of them (an npm process per package was most of this test's time). --ignore-scripts:
    // a published package's prepack (tsdown, say) has nothing to build here.
    run('npm', ['pack', ...copies, '--pack-destination', work, '--silent', '--ignore-scripts'], work);
    const tarballs = readdirSync(work)
      .filter((name) => name.endsWith('.tgz'))
      .map((name) => join(work, name));

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--silent', ...tarballs],
      app,
    );
    const bin = join(app, 'node_modules/.bin/collab-conformance');

    const help = run(bin, ['--help'], app);
    expect(help).toContain('Usage: collab-conformance <command>');
    expect(help).toMatch(/^\s+run\s+/m);
    expect(run(bin, ['run', '--help'], app)).toContain('--base-url URL');

    // `run` of the installed tool against this repository's server, limited to the badge operations.
    server = await startLocalServer();
    writeFileSync(join(app, 'config.json'), JSON.stringify(demoConfig('http://unused.invalid')));
    const { code, output } = await runToEnd(
      bin,
      ['run', '--base-url', server.baseUrl, '--config', 'config.json', '--only', 'badge'].concat([
        '--report-json',
        'report.json',
        '--report-junit',
        'report.xml',
      ]),
      app,
    );
    expect(code, output).toBe(0);
    const report = JSON.parse(readFileSync(join(app, 'report.json'), 'utf8')) as Report;
    expect(report.totals, output).toEqual({ operations: 12, passed: 12, failed: 0, skipped: 0 });
    expect(report.baseUrl).toBe(server.baseUrl);
    expect(readFileSync(join(app, 'report.xml'), 'utf8')).toContain(
      '<testcase classname="Badges" name="addProjectBadge',
    );
  });
});

// The server as people outside this repository get it: packed into one tarball (scripts/pack.mjs), installed
// with npm alone into a fresh project in the temporary directory, then run through its `collab-server` bin:
// --help, and a start on the demo data that serves the API, the docs and the spec, with its access log.
//
// better-sqlite3 12 (the driver under Node.js 20) builds from source when installed (node-gyp: minutes on a
// loaded two-core machine; 13, under `better-sqlite3-napi`, ships prebuilt Node-API binaries). The test
// command installs with --ignore-scripts and puts the workspace's own build of the same version in place;
// with COLLAB_TEST_NATIVE_BUILD=1 (`pnpm test:full`) npm runs the packages' install scripts and builds it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const nativeBuild = process.env.COLLAB_TEST_NATIVE_BUILD === '1';
const ADMIN_TOKEN = 'collab-demo-admin-token';

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** The compiled addon of `name` as this workspace installed it. */
function workspaceAddon(name: string): string {
  const packageDir = dirname(createRequire(join(serverDir, 'package.json')).resolve(`${name}/package.json`));
  return join(packageDir, 'build', 'Release', 'better_sqlite3.node');
}

let work = '';
let app = '';
let bin = '';
beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'collab-server-package-')));
  const tarball = run(process.execPath, [join(serverDir, 'scripts/pack.mjs'), work], serverDir).trim();
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const flags = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--silent'];
  run('npm', [...flags, ...(nativeBuild ? [] : ['--ignore-scripts']), tarball], app);
  if (!nativeBuild) {
    const target = join(app, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(target, { recursive: true });
    cpSync(workspaceAddon('better-sqlite3'), join(target, 'better_sqlite3.node'));
  }
  bin = join(app, 'node_modules', '.bin', 'collab-server');
}, 900_000);

let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed server', () => {
  it('installs alone: its bundled spec and docs, no workspace package left to fetch', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/collab-server/package.json'), 'utf8'));
    expect(installed.bin).toEqual({ 'collab-server': './dist/main.js' });
    expect(
      existsSync(join(app, 'node_modules/collab-server/node_modules/@collab/spec/dist/openapi.json')),
    ).toBe(true);
    // The document the server reads at start (spec/scripts/serverDocument.mjs).
    expect(
      existsSync(join(app, 'node_modules/collab-server/node_modules/@collab/spec/dist/openapi.server.json')),
    ).toBe(true);
    expect(
      existsSync(join(app, 'node_modules/collab-server/node_modules/@collab/docs/dist/index.html')),
    ).toBe(true);
    expect(existsSync(join(app, 'node_modules/collab-server/fixtures/demo.json'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/collab-server/dist/server.cjs.map'))).toBe(false);
    // The code cache is made where the server runs (src/codeCache.ts), never shipped from the build's machine.
    expect(existsSync(join(app, 'node_modules/collab-server/dist/.code-cache'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/collab-server/dist/index.d.ts'))).toBe(true);
  });

  it('answers --help with every flag', () => {
    const help = run(bin, ['--help'], app);
    expect(help).toContain('Usage: collab-server');
    for (const flag of [
      '--port',
      '--data-dir',
      '--seed',
      '--workers',
      '--no-access-log',
      '--write-conformance-config',
    ])
      expect(help).toContain(flag);
  });

  it('serves the demo data, the docs and the spec on port 0, and logs each request', {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(work, 'data');
    child = spawn(bin, ['--seed', 'demo', '--data-dir', dataDir, '--port', '0', '--workers', '1'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const origin = await new Promise<string>((resolve, reject) => {
      child?.once('exit', (code) => reject(new Error(`collab-server exited (${code}):\n${output}`)));
      child?.stdout?.on('data', () => {
        const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
    });

    const project = await fetch(`${origin}/api/v4/projects/acme%2Fwebsite`, {
      headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN },
    });
    expect(project.status).toBe(200);
    expect(((await project.json()) as { path_with_namespace: string }).path_with_namespace).toBe(
      'acme/website',
    );
    const branches = await fetch(`${origin}/api/v4/projects/acme%2Fwebsite/repository/branches`, {
      headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN },
    });
    expect(branches.status).toBe(200);
    expect(((await branches.json()) as unknown[]).length).toBeGreaterThan(0);
    const docs = await fetch(`${origin}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<html');
    const spec = await fetch(`${origin}/openapi.json`);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);

    expect(output).toMatch(/ GET \/api\/v4\/projects\/acme%2Fwebsite 200 /);
    expect(output).toMatch(/ GET \/docs 200 /);
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Its first answer made the code cache of the installed build, for the next start.
    const caches = readdirSync(join(app, 'node_modules/collab-server/dist/.code-cache'));
    expect(caches.filter((name) => name.endsWith('.bin'))).toHaveLength(1);
  });
});

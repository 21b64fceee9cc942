// The published package works outside this repository: `pnpm pack` it, install the tarball into a fresh
// project in a temporary directory (no workspace, no @collab/spec), type-check a consumer against it with
// tsc and run the consumer with node against a local server.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
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
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const npmVersion = (() => {
  try {
    return execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();

const consumer = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CollabApiError, type components, createCollabClient, repositoryFileHeaders, unwrap } from '@collab/client';

type Branch = components['schemas']['Branch'];
let calls = 0;
const server = createServer((req, res) => {
  calls++;
  if (calls === 1) return res.writeHead(503, { 'Retry-After': '0' }).end();
  if (req.url?.includes('/missing')) {
    return res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"404 Project Not Found"}');
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Total': '1' }).end('[{"name":"main"}]');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = createCollabClient({
  baseUrl: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`,
  token: 'secret',
  retry: { baseDelayMs: 1 },
});
const branches: Branch[] = await unwrap(
  client.GET('/projects/{id}/repository/branches', { params: { path: { id: 'group/project' } }, timeoutMs: 5000 }),
);
const error = await unwrap(client.GET('/projects/{id}/repository/branches', { params: { path: { id: 'missing' } } })).catch(
  (e: unknown) => e,
);
// Type-checked, never sent: the types are the spec's, not \`any\`.
const wrongCall = () =>
  // @ts-expect-error the path takes an id
  client.GET('/projects/{id}/repository/branches', { params: { path: {} } });
void wrongCall;
void repositoryFileHeaders;
console.log(JSON.stringify({
  names: branches.map((branch) => branch.name),
  calls,
  error: error instanceof CollabApiError ? [error.status, error.body?.message] : String(error),
}));
server.close();
`;

/**
 * A library module of a consumer's own, compiled with `tsc --init`'s settings: the token may be undefined
 * (exactOptionalPropertyTypes), the base URL is the API root the server prints, and an exported function's
 * declaration names the type of a call's result.
 */
const library = `
import { apiRoot, createCollabClient } from '@collab/client';

const token: string | undefined = (globalThis as { COLLAB_TOKEN?: string }).COLLAB_TOKEN;
export const client = createCollabClient({ baseUrl: 'http://127.0.0.1:3000/api/v4/', token, timeoutMs: undefined });
export const root = apiRoot('http://127.0.0.1:3000/api/v4/');
export function branchesOf(id: string) {
  return client.GET('/projects/{id}/repository/branches', { params: { path: { id } } });
}
`;

/** Runs a command; a failure shows its output. */
function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!npmVersion)('the packed package (skipped: npm is not available)', () => {
  // The timeout is against hangs only: beside the server's tests (scripts/test.sh) on a loaded two-core
  // machine, packing, installing and two tsc runs took more than 120 s.
  it('installs from its tarball outside the workspace, type-checks and runs', { timeout: 360_000 }, () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'collab-client-pack-')));
    made.push(work);
    // prepack builds dist (tsc, then the spec's types copied in).
    run('pnpm', ['pack', '--pack-destination', work], packageDir);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    // openapi-fetch and its helper types come from pnpm's store, packed, so the install needs no network.
    // They are copied first: the store hard-links identical files, and npm packs a hard link as a link
    // entry that its install then drops (openapi-typescript-helpers would lose dist/index.d.ts).
    const fetchDir = join(require.resolve('openapi-fetch'), '../..');
    const helpersDir = join(
      createRequire(join(fetchDir, 'package.json')).resolve('openapi-typescript-helpers'),
      '../..',
    );
    for (const dir of [fetchDir, helpersDir]) {
      const copy = join(work, 'dependencies', basename(dir));
      cpSync(dir, copy, { recursive: true });
      run('npm', ['pack', copy, '--pack-destination', work, '--silent'], work);
    }
    const tarballs = readdirSync(work)
      .filter((name) => name.endsWith('.tgz'))
      .map((name) => join(work, name));

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          noEmitOnError: true,
          outDir: 'out',
        },
        files: ['consumer.ts', 'node.d.ts'],
      }),
    );
    writeFileSync(join(app, 'consumer.ts'), consumer);
    // The few Node declarations the consumer's own test server needs (no @types/node to install offline).
    writeFileSync(
      join(app, 'node.d.ts'),
      `declare module 'node:http' {
  interface Res { writeHead(status: number, headers?: Record<string, string>): Res; end(body?: string): void }
  export function createServer(handler: (req: { url?: string }, res: Res) => unknown): {
    listen(port: number, host: string, done: () => void): void; address(): unknown; close(): void };
}
declare module 'node:net' { export interface AddressInfo { port: number } }
`,
    );
    run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--silent', ...tarballs],
      app,
    );

    // One tsc run both type-checks (noEmitOnError: any error fails it, emitting nothing) and compiles for node.
    const tsc = require.resolve('typescript/bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
    const output = run(process.execPath, ['out/consumer.js'], app);
    expect(JSON.parse(output)).toEqual({ names: ['main'], calls: 3, error: [404, '404 Project Not Found'] });

    // A new project's own settings, as `tsc --init` writes them (exactOptionalPropertyTypes, declarations):
    // an optional option given as possibly undefined, and a declaration that must name a call's result type.
    const fresh = join(app, 'fresh');
    mkdirSync(fresh);
    run(process.execPath, [tsc, '--init'], fresh);
    writeFileSync(join(fresh, 'library.ts'), library);
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], fresh);
    const declarations = readFileSync(join(fresh, 'library.d.ts'), 'utf8');
    expect(declarations).toContain('branchesOf');
    const root = run(
      process.execPath,
      ['-e', "import('./library.js').then((m) => console.log(m.root))"],
      fresh,
    );
    expect(root.trim()).toBe('http://127.0.0.1:3000/api/v4');
  });
});

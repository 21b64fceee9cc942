// What the built server (pnpm build) loads of Node.js before its first answer: not the modules that only some
// requests need (TLS for an https hook delivery in projectHooks/delivery.ts, tar and the assert module it loads
// for a project export or import in projectImportExport/archive.ts), which every start would pay for loading
// otherwise. Each built-in module Node.js loads is in `process.moduleLoadList`, read at the first answer
// (FIRST_ANSWER_EVENT) by a script preloaded into the server's process.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ANSWER_EVENT } from './codeCache.js';

const BUILT_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const TOKEN = 'collab-demo-maintainer-token';

let work: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'collab-start-modules-'));
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

/** Starts the built server with the demo data, asks for the version, and answers the built-in modules loaded by then. */
async function builtInsAtFirstAnswer(): Promise<{ status: number; modules: string[]; firstChunk: string }> {
  const report = join(work, 'modules.json');
  const preload = join(work, 'report.cjs');
  await writeFile(
    preload,
    `process.once(${JSON.stringify(FIRST_ANSWER_EVENT)}, () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));\n`,
  );
  const server = spawn(
    process.execPath,
    [BUILT_MAIN, '--seed', 'demo', '--data-dir', join(work, 'data'), '--port', '0', '--workers', '1'],
    {
      // In NODE_OPTIONS, not the command line: Node.js flags would key another code cache (codeCache.ts).
      env: { ...process.env, NODE_OPTIONS: `--require ${preload}`, COLLAB_ACCESS_LOG: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child = server;
  let firstChunk: string | undefined;
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
    server.stdout?.on('data', (chunk: Buffer) => {
      firstChunk ??= chunk.toString();
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
  const response = await fetch(`${origin}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
  await response.arrayBuffer();
  // The event comes once the response is closed, just after the client has it.
  const exited = new Promise((resolve) => server.once('exit', resolve));
  let modules: string[] | undefined;
  for (let attempt = 0; attempt < 100 && modules === undefined; attempt++) {
    modules = await readFile(report, 'utf8').then(
      (text) => JSON.parse(text) as string[],
      () => new Promise<undefined>((resolve) => setTimeout(resolve, 50)),
    );
  }
  server.kill('SIGTERM');
  await exited;
  const builtIns = (modules ?? [])
    .filter((name) => name.startsWith('NativeModule '))
    .map((name) => name.slice('NativeModule '.length));
  return { status: response.status, modules: builtIns, firstChunk: firstChunk ?? '' };
}

describe('a start of the built server', () => {
  it('answers its first request without loading TLS, https, tar’s assert module or perf_hooks', {
    timeout: 120_000,
  }, async () => {
    const { status, modules } = await builtInsAtFirstAnswer();
    expect(status).toBe(200);
    // What every answer needs is loaded: the list is the process's.
    expect(modules).toEqual(expect.arrayContaining(['http', 'net', 'zlib']));
    expect(modules.filter((name) => ['tls', 'https', 'assert', 'perf_hooks'].includes(name))).toEqual([]);
  });

  it('writes its start message at once, which a client reads its URL and tokens from', {
    timeout: 120_000,
  }, async () => {
    const { firstChunk } = await builtInsAtFirstAnswer();
    expect(firstChunk).toMatch(/^Collab API listening on http:/);
    expect(firstChunk).toContain('Tokens (PRIVATE-TOKEN header):');
    expect(firstChunk).toContain('collab-demo-maintainer-token');
  });
});

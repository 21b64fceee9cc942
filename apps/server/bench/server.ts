// Starting and stopping the built server for the benchmarks (run.ts, ab.ts): in production mode, on a data
// directory, with the Node.js flags of the start script unless told otherwise.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The demo maintainer's token: every read and write of the benchmarks is made as this user. */
export const BENCH_TOKEN = 'collab-demo-maintainer-token';
/** The compiled server (`pnpm build`). */
export const BUILT_SERVER_DIR = join(SERVER_DIR, 'dist');

/** The Node.js flags of the start script, so that the benchmark runs the server as `pnpm start` does. */
export async function startScriptNodeFlags(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(SERVER_DIR, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('dist/main.js')).filter((word) => word.startsWith('--'));
}

/** Starts a process and resolves with the port it prints after "listening". */
export async function startListening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening(?: on http:\/\/[\d.]+:| )(\d+)/.exec(output);
      if (match?.[1]) {
        child.stdout?.resume();
        resolve(Number(match[1]));
      }
    });
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface ServerOptions {
  dataDir: string;
  /** `demo` or a fixtures file. */
  seed: string;
  workers: number;
  validateResponses: boolean;
  /** The compiled server to run (default: this package's dist). */
  builtDir?: string;
  /** Node.js flags (default: the start script's). */
  nodeFlags?: readonly string[];
  /** A PostgreSQL database instead of the SQLite file under the data directory. */
  databaseUrl?: string;
}

/**
 * Resolves once a server started by startServer has compiled its validators (app.warmUp, which a build
 * that has it reports on stdout, once per process that serves): `processes` reports; at once for a build
 * without it.
 */
export async function warmedUp(
  child: ChildProcess,
  builtDir = BUILT_SERVER_DIR,
  processes = 1,
): Promise<void> {
  // The server's code is in dist/server.cjs since the code cache, in dist/main.js before (bench:ab's older builds).
  const code = existsSync(join(builtDir, 'server.cjs')) ? 'server.cjs' : 'main.js';
  const main = await readFile(join(builtDir, code), 'utf8');
  if (!main.includes('validators warm')) return;
  let reports = 0;
  await new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      reports += chunk.toString().split('validators warm').length - 1;
      if (reports >= processes) resolve();
    });
  });
}

/** Starts the built server in production mode; resolves with its process and origin. */
export async function startServer(options: ServerOptions): Promise<{ child: ChildProcess; origin: string }> {
  const flags = options.nodeFlags ?? (await startScriptNodeFlags());
  const main = join(options.builtDir ?? BUILT_SERVER_DIR, 'main.js');
  const args = [...flags, main, '--seed', options.seed, '--data-dir', options.dataDir];
  args.push('--port', '0', '--workers', String(options.workers));
  if (options.validateResponses) args.push('--validate-responses');
  if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    // The access log is left out: the bench measures the API, not the writing of a line per request.
    env: { ...process.env, NODE_ENV: 'production', COLLAB_REPORT_WARM_UP: '1', COLLAB_ACCESS_LOG: 'false' },
  });
  return { child, origin: `http://127.0.0.1:${await startListening(child)}` };
}

/**
 * Runs five pipelines on the demo project acme/website and waits (at most 60 s) until none is still to run or
 * running: the pipeline list is then not empty, and no runner work is counted against the first read.
 */
export async function runFinishedPipelines(origin: string): Promise<void> {
  const project = `${origin}/api/v4/projects/acme%2Fwebsite`;
  const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
  for (let i = 0; i < 5; i++) {
    await fetch(`${project}/pipeline`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ref: 'main' }),
    }).then((response) => response.arrayBuffer());
  }
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${project}/pipelines?per_page=100`, { headers });
    const pipelines = (await response.json()) as { status: string }[];
    if (!pipelines.some((pipeline) => ['created', 'pending', 'running'].includes(pipeline.status))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The user and system CPU time of a process so far, in milliseconds (Linux's /proc; NaN elsewhere). */
export async function cpuMilliseconds(pid: number | undefined): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

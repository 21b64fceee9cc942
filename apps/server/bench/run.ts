// The benchmark: request rates and latencies at 32 connections, file commits per second and peak memory of
// the server, in production mode (request validation only) and with response validation on.
// Prints figures; asserts nothing. Run with `pnpm bench` at the root.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// The compiled server, as `pnpm start` runs it (the root `bench` script builds it first).
const SERVER_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const TOKEN = 'collab-demo-maintainer-token';
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 300);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface RunningServer {
  origin: string;
  child: ChildProcess;
  dataDir: string;
}

async function startServer(validateResponses: boolean): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-'));
  // The same V8 flag as `pnpm start`: a small young generation keeps the peak RSS low at no cost in speed.
  const args = [
    '--max-semi-space-size=4',
    SERVER_MAIN,
    '--seed',
    'demo',
    '--data-dir',
    dataDir,
    '--port',
    String(port),
  ];
  if (validateResponses) args.push('--validate-responses');
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  child.stdout?.resume();
  return { origin: `http://127.0.0.1:${port}`, child, dataDir };
}

async function stopServer(server: RunningServer): Promise<number> {
  const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8').catch(() => '');
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await rm(server.dataDir, { recursive: true, force: true });
  return peakKb / 1024;
}

async function load(name: string, url: string): Promise<void> {
  // A short unrecorded warm-up, so the figures are of the optimised code, not of the JIT at work.
  await autocannon({ url, connections: 32, duration: 2, headers: { 'PRIVATE-TOKEN': TOKEN } });
  const result = await autocannon({
    url,
    connections: 32,
    duration: DURATION_SECONDS,
    headers: { 'PRIVATE-TOKEN': TOKEN },
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `  ${name.padEnd(16)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `   (${failures} failed)` : ''}`,
  );
}

/** Commits `count` new files to `branch`, one request after the other; returns how many succeeded. */
async function commitSequence(origin: string, branch: string, count: number): Promise<number> {
  const api = `${origin}/api/v4/projects/acme%2Fwebsite/repository/files`;
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${api}/${encodeURIComponent(`bench/${branch}/file-${i}.txt`)}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, content: `commit ${i}\n`, commit_message: `bench ${i}` }),
    });
    if (response.status === 201) ok++;
    await response.arrayBuffer();
  }
  return ok;
}

async function commits(origin: string): Promise<void> {
  let started = performance.now();
  const sequential = await commitSequence(origin, 'develop', COMMITS);
  let seconds = (performance.now() - started) / 1000;
  console.log(
    `  file commits     ${(sequential / seconds).toFixed(0).padStart(6)} commits/s (${sequential}/${COMMITS} one after the other, one branch)`,
  );

  // Writers on separate branches do not wait for each other's compare-and-swap: the server's throughput.
  const branches = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
  for (const branch of branches) {
    await fetch(`${origin}/api/v4/projects/acme%2Fwebsite/repository/branches`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, ref: 'main' }),
    }).then((r) => r.arrayBuffer());
  }
  const perBranch = Math.ceil(COMMITS / branches.length);
  started = performance.now();
  const parallel = (
    await Promise.all(branches.map((branch) => commitSequence(origin, branch, perBranch)))
  ).reduce((a, b) => a + b, 0);
  seconds = (performance.now() - started) / 1000;
  console.log(
    `  file commits     ${(parallel / seconds).toFixed(0).padStart(6)} commits/s (${parallel}/${perBranch * branches.length} by 4 writers on 4 branches)`,
  );
}

async function createPipelines(origin: string): Promise<void> {
  // A few pipelines so that the list is not empty (the endpoint may not exist on older builds).
  for (let i = 0; i < 5; i++) {
    await fetch(`${origin}/api/v4/projects/acme%2Fwebsite/pipeline`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ref: 'main' }),
    }).then((r) => r.arrayBuffer());
  }
}

for (const validateResponses of [false, true]) {
  const server = await startServer(validateResponses);
  const project = `${server.origin}/api/v4/projects/acme%2Fwebsite`;
  console.log(
    validateResponses
      ? '\nrequest and response validation'
      : 'production mode (request validation, no response validation)',
  );
  await createPipelines(server.origin);
  await load('GET file', `${project}/repository/files/README.md?ref=main`);
  await load('list branches', `${project}/repository/branches`);
  await load('list pipelines', `${project}/pipelines`);
  await commits(server.origin);
  console.log(`  peak RSS         ${(await stopServer(server)).toFixed(0).padStart(6)} MB`);
}

// Start times (BENCH_ONLY=start): from spawning the built server with the demo data (`--seed demo`, one
// worker process, production mode) to its first answer (GET /api/v4/version with a token: authenticated,
// validated and answered 200 as a client's first call is), on an empty data directory
// and again on the data directory that start left behind. Each figure is the median of a few starts. Beside
// it, the CPU time the server process had used by then: on a shared machine the wall time mostly measures the
// others' load, the CPU time much less so. The first start runs without the build's code cache
// (src/codeCache.ts), as the first start of a build on a machine does, and makes it; the others use it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TOKEN, BUILT_SERVER_DIR, cpuMilliseconds, startServer, stop } from './server.js';

const STARTS = Number(process.env.BENCH_STARTS ?? 5);

interface FirstAnswer {
  /** Milliseconds from spawning the server to its first answer. */
  wall: number;
  /** The server's CPU milliseconds by then. */
  cpu: number;
}

/** From spawning the server on `dataDir` to its first answer; the server is stopped after. */
async function timeToFirstAnswer(dataDir: string): Promise<FirstAnswer> {
  const startedAt = performance.now();
  const { child, origin } = await startServer({
    dataDir,
    seed: 'demo',
    workers: 1,
    validateResponses: false,
  });
  try {
    const response = await fetch(`${origin}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': BENCH_TOKEN } });
    await response.arrayBuffer();
    const wall = performance.now() - startedAt;
    if (response.status !== 200) throw new Error(`GET /api/v4/version answered ${response.status}`);
    return { wall, cpu: await cpuMilliseconds(child.pid) };
  } finally {
    await stop(child);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function runStartTimes(): Promise<void> {
  await rm(join(BUILT_SERVER_DIR, '.code-cache'), { recursive: true, force: true });
  const firstDataDir = await mkdtemp(join(tmpdir(), 'collab-bench-start-'));
  const first = await timeToFirstAnswer(firstDataDir).finally(() =>
    rm(firstDataDir, { recursive: true, force: true }),
  );
  const empty: FirstAnswer[] = [];
  const existing: FirstAnswer[] = [];
  for (let i = 0; i < STARTS; i++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-start-'));
    try {
      empty.push(await timeToFirstAnswer(dataDir));
      existing.push(await timeToFirstAnswer(dataDir));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  console.log(`start to first answer (demo data, 1 worker process, median of ${STARTS} starts)`);
  const line = (name: string, starts: FirstAnswer[], note = ''): string =>
    `  ${name.padEnd(36)} ${median(starts.map((start) => start.wall))
      .toFixed(0)
      .padStart(6)} ms` +
    `   (server CPU time by then ${median(starts.map((start) => start.cpu)).toFixed(0)} ms${note})`;
  console.log(line('empty data directory, no code cache', [first], "; once: a build's first start"));
  console.log(line('empty data directory', empty));
  console.log(line('existing data directory', existing));
}

// The benchmark: request rates and latencies at 32 connections for three reads, file commits per second and
// the peak memory of the server, in production mode (request validation only) with one worker process and
// with one per core (the default), and with response validation on too. A minimal Express route measured
// the same way, before and after each one-worker read, says what this machine and load generator allow at
// all at that moment (the machine's speed drifts within a run); the same route sending the read's own body
// says what Express alone allows for a response of that size (the read's ceiling); the other settings show
// multiples of one worker in the same mode, both measured in turn.
// Then the scale rows (scale.ts): lists of 10 and of 10,000 items, the larger as a share of the smaller.
// Then the project-list rows (projectScale.ts): projects and groups on 10 and on 10,000 projects.
// Prints figures; asserts nothing. Run with `pnpm bench` at the root; BENCH_ONLY runs one part: `reads` (one
// worker), `workers` (one per core), `scale` or `projects`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, drive, type LoadResult, loadGeneratorName, measureInTurn, medianRate } from './load.js';
import { sampleMemory } from './memory.js';
import {
  PROJECT_SCALE_PER_PAGE,
  PROJECT_SCALE_SIZES,
  projectScaleLists,
  seedProjectScale,
} from './projectScale.js';
import { SCALE_PER_PAGE, SCALE_SIZES, scaleLists, seedScaleProjects, writeScaleFixtures } from './scale.js';
import {
  BENCH_TOKEN,
  runFinishedPipelines,
  SERVER_DIR,
  startServer as startBuiltServer,
  startListening,
  stop,
} from './server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_SECONDS = 2;
const COMMITS = Number(process.env.BENCH_COMMITS ?? 300);
const ONLY = process.env.BENCH_ONLY;
const generator = await loadGeneratorName();

function formatLoad(name: string, result: LoadResult, baseline?: number): string {
  const failures = result.failures ? `   (${result.failures} failed)` : '';
  const share = baseline
    ? `   ${((result.requestsPerSecond / baseline) * 100).toFixed(0)}% of minimal Express`
    : '';
  return `  ${name.padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${result.p50Ms.toFixed(1).padStart(5)} ms   p99 ${result.p99Ms.toFixed(1).padStart(5)} ms${share}${failures}`;
}

async function measure(url: string, headers: Record<string, string>): Promise<LoadResult> {
  // An unrecorded warm-up, so the figures are of the optimised code, not of the JIT at work.
  await drive(generator, url, headers, WARM_UP_SECONDS);
  return drive(generator, url, headers, SECONDS);
}

/** The minimal Express route, kept running so that it can be measured again next to each figure. */
interface Calibration {
  /** Measures the minimal route now and prints the figure. */
  rate(): Promise<number>;
  /** Measures the minimal route sending the JSON body that `url` answers now (its rate, not printed). */
  sameBodyRate(url: string, headers: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

async function startMinimalExpress(): Promise<Calibration> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(SERVER_DIR, 'bench/minimalExpress.ts'), '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const port = await startListening(child);
  return {
    rate: async () => {
      const result = await measure(`http://127.0.0.1:${port}/minimal`, {});
      console.log(formatLoad('minimal Express', result));
      return result.requestsPerSecond;
    },
    sameBodyRate: async (url, headers) => {
      const body = await (await fetch(url, { headers })).text();
      const stored = `http://127.0.0.1:${port}/bodies/read`;
      const put = await fetch(stored, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      if (put.status !== 204) throw new Error(`minimal Express refused the body of ${url}: ${put.status}`);
      return (await measure(stored, {})).requestsPerSecond;
    },
    stop: () => stop(child),
  };
}

/**
 * The ceiling of a read: the minimal Express route sending the same body, as a share of the minimal route,
 * and the read's share of that ceiling. A large body costs Express alone its serialisation, ETag and socket
 * writes; what is left between the ceiling and the read is the server's own work.
 */
function formatCeiling(readRate: number, sameBodyRate: number, baseline: number): string {
  const ceiling = ((sameBodyRate / baseline) * 100).toFixed(0);
  const share = ((readRate / sameBodyRate) * 100).toFixed(0);
  return `   (Express sending the same body: ${ceiling}% of minimal; this read ${share}% of that)`;
}

/** Commits `count` new files to `branch`, one request after the other; returns how many succeeded. */
async function commitSequence(origin: string, branch: string, count: number): Promise<number> {
  const api = `${origin}/api/v4/projects/acme%2Fwebsite/repository/files`;
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${api}/${encodeURIComponent(`bench/${branch}/file-${i}.txt`)}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': BENCH_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, content: `commit ${i}\n`, commit_message: `bench ${i}` }),
    });
    if (response.status === 201) ok++;
    await response.arrayBuffer();
  }
  return ok;
}

async function post(url: string, body: unknown): Promise<void> {
  await fetch(url, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': BENCH_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then((response) => response.arrayBuffer());
}

async function commits(origin: string): Promise<void> {
  let started = performance.now();
  const sequential = await commitSequence(origin, 'develop', COMMITS);
  let seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${'file commits'.padEnd(24)} ${(sequential / seconds).toFixed(0).padStart(6)} commits/s (${sequential}/${COMMITS} one after the other, one branch)`,
  );
  // Writers on separate branches do not wait for each other's compare-and-swap: the server's throughput.
  const branches = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
  for (const branch of branches) {
    await post(`${origin}/api/v4/projects/acme%2Fwebsite/repository/branches`, { branch, ref: 'main' });
  }
  const perBranch = Math.ceil(COMMITS / branches.length);
  started = performance.now();
  const parallel = (
    await Promise.all(branches.map((branch) => commitSequence(origin, branch, perBranch)))
  ).reduce((a, b) => a + b, 0);
  seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${'file commits'.padEnd(24)} ${(parallel / seconds).toFixed(0).padStart(6)} commits/s (${parallel}/${perBranch * branches.length} by 4 writers on 4 branches)`,
  );
}

interface Setting {
  title: string;
  workers: number;
  validateResponses: boolean;
}

/** The built server with the start script's flags. */
function startServer(dataDir: string, seed: string, workers: number, validateResponses: boolean) {
  return startBuiltServer({ dataDir, seed, workers, validateResponses });
}

/** The reads of the benchmark, by name: paths under the demo project acme/website. */
const READS = [
  ['GET file', '/repository/files/README.md?ref=main'],
  ['list branches', '/repository/branches'],
  ['list pipelines', '/pipelines'],
] as const;

/** Rounds of the in-turn measurement of a multiple (see multipleOfOneWorker). */
const MULTIPLE_ROUNDS = Number(process.env.BENCH_MULTIPLE_ROUNDS ?? 3);

/**
 * One setting's figures. With `calibration` (one worker), the minimal Express route is measured before and
 * after each read and the read is shown as a share of their mean: this machine's speed drifts within a run.
 * With several workers, each read is shown as a multiple of one worker in the same mode (multipleOfOneWorker).
 */
async function runSetting(setting: Setting, calibration: Calibration | undefined): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-'));
  const { child, origin } = await startServer(dataDir, 'demo', setting.workers, setting.validateResponses);
  const memory = sampleMemory(child.pid ?? 0);
  console.log(`\n${setting.title}`);
  await runFinishedPipelines(origin);
  const oneWorker = setting.workers > 1 ? await startOneWorkerBeside(setting) : undefined;
  const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
  let before = calibration ? await calibration.rate() : undefined;
  for (const [name, path] of READS) {
    const url = `${origin}/api/v4/projects/acme%2Fwebsite${path}`;
    if (oneWorker) {
      const oneWorkerUrl = `${oneWorker.origin}/api/v4/projects/acme%2Fwebsite${path}`;
      console.log(await multipleOfOneWorker(name, url, oneWorkerUrl, headers));
      continue;
    }
    const result = await measure(url, headers);
    const sameBody = calibration ? await calibration.sameBodyRate(url, headers) : undefined;
    const after = calibration ? await calibration.rate() : undefined;
    const baseline = before !== undefined && after !== undefined ? (before + after) / 2 : undefined;
    const ceiling =
      sameBody !== undefined && baseline !== undefined
        ? formatCeiling(result.requestsPerSecond, sameBody, baseline)
        : '';
    console.log(`${formatLoad(name, result, baseline)}${ceiling}`);
    before = after;
  }
  if (oneWorker) await oneWorker.stop();
  await commits(origin);
  const peak = await memory.stop();
  console.log(
    `  ${'peak memory'.padEnd(24)} ${peak.pssMb.toFixed(0).padStart(6)} MB PSS, ${peak.rssMb.toFixed(0)} MB RSS (all server processes, summed; ${(peak.pssMb / setting.workers).toFixed(0)} MB PSS per worker)`,
  );
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}

/** A one-worker server in the setting's mode, on demo data of its own with five finished pipelines. */
async function startOneWorkerBeside(setting: Setting): Promise<{ origin: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-one-'));
  const { child, origin } = await startServer(dataDir, 'demo', 1, setting.validateResponses);
  await runFinishedPipelines(origin);
  return {
    origin,
    stop: async () => {
      await stop(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The read on several workers as a multiple of one worker: the two servers are measured in turn for
 * MULTIPLE_ROUNDS rounds and their medians compared, since a one-worker figure taken minutes earlier differs
 * by the machine's drift (seen: the same two-worker figure read as 1.55x and as 1.8x). The line shows the
 * several-worker round of median rate.
 */
async function multipleOfOneWorker(
  name: string,
  url: string,
  oneWorkerUrl: string,
  headers: Record<string, string>,
): Promise<string> {
  const [several = [], one = []] = await measureInTurn(generator, [url, oneWorkerUrl], headers, {
    rounds: MULTIPLE_ROUNDS,
    seconds: SECONDS / 2,
    warmUpSeconds: WARM_UP_SECONDS,
  });
  const rate = medianRate(several);
  const single = medianRate(one);
  const shown = several.find((result) => result.requestsPerSecond === rate) ?? several[0];
  const figure = shown ? formatLoad(name, shown) : `  ${name}`;
  return `${figure}   ${(rate / single).toFixed(2)}x 1 worker (${single.toFixed(0)} req/s, measured in turn)`;
}

/** Two measurements of one URL as one: mean rate and median, the worse p99. */
function mean(a: LoadResult, b: LoadResult): LoadResult {
  return {
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    failures: a.failures + b.failures,
  };
}

/** The scale rows: each list on 10 and on 10,000 items, one worker, production mode. */
async function runScale(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-scale-'));
  const fixtures = join(dataDir, 'fixtures.json');
  await writeScaleFixtures(join(SERVER_DIR, 'fixtures/demo.json'), fixtures);
  // A first start loads the fixtures and makes the repositories; the items go in while it is stopped.
  const first = await startServer(join(dataDir, 'data'), fixtures, 1, false);
  await stop(first.child);
  const seeding = performance.now();
  await seedScaleProjects(join(dataDir, 'data'));
  const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
  console.log(
    `\nlists at scale, production mode, 1 worker process (per_page=${SCALE_PER_PAGE}; items seeded in ${seconds} s)`,
  );
  const { child, origin } = await startServer(join(dataDir, 'data'), fixtures, 1, false);
  const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
  const [small, large] = SCALE_SIZES.map((size) => scaleLists(origin, size));
  for (const [index, [name, smallUrl]] of (small ?? []).entries()) {
    const largeUrl = large?.[index]?.[1] ?? '';
    // Small, large, large, small: a load that drifts during the row (this machine is shared) weighs on both.
    const smallFirst = await measure(smallUrl, headers);
    const largeResult = mean(await measure(largeUrl, headers), await measure(largeUrl, headers));
    const smallResult = mean(smallFirst, await measure(smallUrl, headers));
    console.log(formatLoad(`${name} (${SCALE_SIZES[0]})`, smallResult));
    const share = ((largeResult.requestsPerSecond / smallResult.requestsPerSecond) * 100).toFixed(0);
    console.log(`${formatLoad(`${name} (${SCALE_SIZES[1]})`, largeResult)}   ${share}% of ${SCALE_SIZES[0]}`);
  }
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The project-list rows: `GET /projects` and `GET /groups` on an instance of 10 projects and on one of
 * 10,000, one worker each, next to the minimal Express route (measured before and after each pair).
 */
async function runProjectScale(): Promise<void> {
  const instances: { child: ChildProcess; origin: string; dataDir: string }[] = [];
  for (const size of PROJECT_SCALE_SIZES) {
    const dataDir = await mkdtemp(join(tmpdir(), `collab-bench-projects-${size}-`));
    // A first start loads the demo fixtures; the projects go in while it is stopped.
    await stop((await startServer(dataDir, 'demo', 1, false)).child);
    seedProjectScale(dataDir, size);
    instances.push({ ...(await startServer(dataDir, 'demo', 1, false)), dataDir });
  }
  console.log(
    `\nproject lists at ${PROJECT_SCALE_SIZES.join(' and ')} projects, production mode, 1 worker process (per_page=${PROJECT_SCALE_PER_PAGE}, full form, as the maintainer: a developer of every second group)`,
  );
  const calibration = await startMinimalExpress();
  const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
  const [small, large] = instances.map((instance) => projectScaleLists(instance.origin));
  let before = await calibration.rate();
  for (const [index, [name, smallUrl]] of (small ?? []).entries()) {
    const largeUrl = large?.[index]?.[1] ?? '';
    const smallResult = await measure(smallUrl, headers);
    const largeResult = await measure(largeUrl, headers);
    const sameBody = await calibration.sameBodyRate(smallUrl, headers);
    const after = await calibration.rate();
    const baseline = (before + after) / 2;
    console.log(
      `${formatLoad(`${name} (${PROJECT_SCALE_SIZES[0]})`, smallResult, baseline)}${formatCeiling(smallResult.requestsPerSecond, sameBody, baseline)}`,
    );
    const share = ((largeResult.requestsPerSecond / smallResult.requestsPerSecond) * 100).toFixed(0);
    console.log(
      `${formatLoad(`${name} (${PROJECT_SCALE_SIZES[1]})`, largeResult, baseline)}   ${share}% of ${PROJECT_SCALE_SIZES[0]}`,
    );
    before = after;
  }
  await calibration.stop();
  for (const instance of instances) {
    await stop(instance.child);
    await rm(instance.dataDir, { recursive: true, force: true });
  }
}

const cores = availableParallelism();
console.log(
  `${cores} cores; ${generator} at ${CONNECTIONS} connections, ${SECONDS} s per figure after ${WARM_UP_SECONDS} s of warm-up`,
);
if (ONLY === undefined || ONLY === 'reads') {
  const calibration = await startMinimalExpress();
  await runSetting(
    { title: 'production mode (request validation), 1 worker process', workers: 1, validateResponses: false },
    calibration,
  );
  await calibration.stop();
}
if (ONLY === undefined || ONLY === 'workers') {
  await runSetting(
    {
      title: `production mode (request validation), ${cores} worker processes (the default: one per core)`,
      workers: cores,
      validateResponses: false,
    },
    undefined,
  );
  await runSetting(
    {
      title: `request and response validation, ${cores} worker processes`,
      workers: cores,
      validateResponses: true,
    },
    undefined,
  );
}
if (ONLY === undefined || ONLY === 'scale') await runScale();
if (ONLY === undefined || ONLY === 'projects') await runProjectScale();

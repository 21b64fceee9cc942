// The benchmark: request rates and latencies at 32 connections for three reads, file commits per second and
// the peak memory of the server, in production mode (request validation only) with one worker process and
// with one per core (the default), and with response validation on too. A minimal Express route says what
// this machine and load generator allow at all; the same route sending the read's own body says what Express
// alone allows for a response of that size (the read's ceiling); the other settings show multiples of one
// worker in the same mode. Every figure compared with another is measured in turn with it, round after round
// (load.ts measureInTurn), and the medians are compared: the machine's speed drifts within a run.
// Then the scale rows (scale.ts): lists of 10 and of 10,000 items, the larger as a share of the smaller.
// Then the project-list rows (projectScale.ts): projects and groups on 10 and on 10,000 projects.
// Then the rows of document 2's lists (areaScale.ts): an issue's notes, a group's epics and the caller's to-dos
// on 10 and on 10,000 items, each beside its ceiling.
// Then the commit rows (commits.ts): file commits beside the minimal Express rate, and commits to a repository
// of 10,000 files as a share of commits to the demo repository.
// Then the PostgreSQL rows (postgres.ts): reads and commits on PostgreSQL as a share of SQLite, and two
// instances on one PostgreSQL database against two worker processes on SQLite.
// Then the walk (operationWalk.ts): one request to every operation on a fresh server, then again.
// Then the start times (startTime.ts): to the first answer on an empty and on an existing data directory.
// Prints figures; asserts nothing. Run with `pnpm bench` at the root; BENCH_ONLY runs one part: `reads` (one
// worker), `workers` (one per core), `scale`, `projects`, `areas`, `commits`, `postgres`, `walk` or
// `start`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AREA_SCALE_PER_PAGE,
  AREA_SCALE_SIZES,
  areaScaleLists,
  seedAreaScale,
  writeAreaScaleFixtures,
} from './areaScale.js';
import {
  commitRate,
  commitSequence,
  FILES_SCALE,
  FILES_SCALE_PROJECT,
  seedFilesScale,
  writeCommitFixtures,
} from './commits.js';
import {
  CONNECTIONS,
  cpuMicroseconds,
  drive,
  type LoadResult,
  type LoadTarget,
  loadGeneratorName,
  measureInTurn,
  medianCpu,
  medianRate,
  medianResult,
} from './load.js';
import { sampleMemory } from './memory.js';
import { runOperationWalk } from './operationWalk.js';
import { runPostgres } from './postgres.js';
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
  warmedUp,
} from './server.js';
import { runStartTimes } from './startTime.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_SECONDS = 2;
const COMMITS = Number(process.env.BENCH_COMMITS ?? 300);
/** Commits made before the commit lines are measured (the reads' warm-up, for writes). */
const COMMIT_WARM_UP = 100;
const ONLY = process.env.BENCH_ONLY;
const generator = await loadGeneratorName();

function formatLoad(name: string, result: LoadResult, baseline?: number): string {
  const failures = result.failures ? `   (${result.failures} failed)` : '';
  const share = baseline
    ? `   ${((result.requestsPerSecond / baseline) * 100).toFixed(0)}% of minimal Express`
    : '';
  return `  ${name.padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${result.p50Ms.toFixed(1).padStart(5)} ms   p99 ${result.p99Ms.toFixed(1).padStart(5)} ms${share}${failures}`;
}

/** The minimal Express route, kept running so that it can be measured next to each figure. */
interface Calibration {
  /** The minimal route (its target names the Express process, whose CPU time per request is read). */
  minimal: LoadTarget;
  /** Stores the JSON body that `url` answers now; the target sends it back as the minimal route sends its own. */
  sameBody(url: string, headers: Record<string, string>): Promise<LoadTarget>;
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
  let stored = 0;
  return {
    minimal: { url: `http://127.0.0.1:${port}/minimal`, headers: {}, pid: child.pid },
    sameBody: async (url, headers) => {
      const body = await (await fetch(url, { headers })).text();
      const storedUrl = `http://127.0.0.1:${port}/bodies/read-${++stored}`;
      const put = await fetch(storedUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      if (put.status !== 204) throw new Error(`minimal Express refused the body of ${url}: ${put.status}`);
      return { url: storedUrl, headers: {}, pid: child.pid };
    },
    stop: () => stop(child),
  };
}

/** Rounds of every in-turn measurement, each of half the figure's seconds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function inTurn(targets: readonly LoadTarget[]): Promise<LoadResult[][]> {
  return measureInTurn(generator, targets, {
    rounds: ROUNDS,
    seconds: SECONDS / 2,
    warmUpSeconds: WARM_UP_SECONDS,
  });
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

async function post(url: string, body: unknown): Promise<void> {
  await fetch(url, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': BENCH_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then((response) => response.arrayBuffer());
}

/**
 * The server's CPU time per commit while `run` commits, as text for the commit lines, when the server is one
 * process (`pid`): on a shared machine the steadier figure.
 */
async function cpuPerCommit(pid: number | undefined, run: () => Promise<number>): Promise<[number, string]> {
  const before = pid === undefined ? undefined : await cpuMicroseconds(pid);
  const count = await run();
  const after = pid === undefined ? undefined : await cpuMicroseconds(pid);
  if (before === undefined || after === undefined || count === 0) return [count, ''];
  return [count, `; ${((after - before) / count / 1000).toFixed(1)} ms of server CPU per commit`];
}

/** File commits one after the other and by 4 writers; `pid`: the server's process when it is one worker. */
async function commits(origin: string, pid?: number): Promise<void> {
  // The write path warms up as the reads do (their 2 s): a fresh server's first hundred commits cost nearly
  // twice the CPU of later ones (the code's first runs, not the data).
  await commitSequence(origin, 'website', 'develop', COMMIT_WARM_UP, 'warm-up');
  let started = performance.now();
  const [sequential, sequentialCpu] = await cpuPerCommit(pid, () =>
    commitSequence(origin, 'website', 'develop', COMMITS),
  );
  let seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${'file commits'.padEnd(24)} ${(sequential / seconds).toFixed(0).padStart(6)} commits/s (${sequential}/${COMMITS} one after the other, one branch, after ${COMMIT_WARM_UP} of warm-up${sequentialCpu})`,
  );
  // Writers on separate branches do not wait for each other's compare-and-swap: the server's throughput.
  const branches = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
  for (const branch of branches) {
    await post(`${origin}/api/v4/projects/acme%2Fwebsite/repository/branches`, { branch, ref: 'main' });
  }
  const perBranch = Math.ceil(COMMITS / branches.length);
  started = performance.now();
  const [parallel, parallelCpu] = await cpuPerCommit(pid, async () =>
    (
      await Promise.all(branches.map((branch) => commitSequence(origin, 'website', branch, perBranch)))
    ).reduce((a, b) => a + b, 0),
  );
  seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${'file commits'.padEnd(24)} ${(parallel / seconds).toFixed(0).padStart(6)} commits/s (${parallel}/${perBranch * branches.length} by 4 writers on 4 branches${parallelCpu})`,
  );
}

interface Setting {
  title: string;
  workers: number;
  validateResponses: boolean;
}

/** The built server with the start script's flags, once its validators are compiled. */
async function startServer(dataDir: string, seed: string, workers: number, validateResponses: boolean) {
  const server = await startBuiltServer({ dataDir, seed, workers, validateResponses });
  if (workers === 1) await warmedUp(server.child);
  return server;
}

/** The reads of the benchmark, by name: paths under the demo project acme/website. */
const READS = [
  ['GET file', '/repository/files/README.md?ref=main'],
  ['list branches', '/repository/branches'],
  ['list pipelines', '/pipelines'],
] as const;

/**
 * One setting's figures. With `calibration` (one worker), each read is shown as a share of the minimal
 * Express route (shareOfMinimal); with several workers, as a multiple of one worker in the same mode
 * (multipleOfOneWorker).
 */
async function runSetting(setting: Setting, calibration: Calibration | undefined): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-'));
  const { child, origin } = await startServer(dataDir, 'demo', setting.workers, setting.validateResponses);
  console.log(`\n${setting.title}`);
  await runFinishedPipelines(origin);
  const oneWorker = setting.workers > 1 ? await startOneWorkerBeside(setting) : undefined;
  const headers = { 'PRIVATE-TOKEN': BENCH_TOKEN };
  for (const [name, path] of READS) {
    const url = `${origin}/api/v4/projects/acme%2Fwebsite${path}`;
    if (oneWorker) {
      const oneWorkerUrl = `${oneWorker.origin}/api/v4/projects/acme%2Fwebsite${path}`;
      console.log(await multipleOfOneWorker(name, url, oneWorkerUrl, headers));
    } else if (calibration) {
      console.log(await shareOfMinimal(name, { url, headers }, calibration));
    }
  }
  if (oneWorker) await oneWorker.stop();
  // The memory is sampled in a phase of its own, the reads again and then the commits: reading the processes'
  // memory takes CPU (3-6% of a two-worker server's rate here), which the figures above must not pay for.
  const memory = sampleMemory(child.pid ?? 0);
  for (const [, path] of READS) {
    await drive(generator, `${origin}/api/v4/projects/acme%2Fwebsite${path}`, headers, SECONDS / 2);
  }
  await commits(origin, setting.workers === 1 ? child.pid : undefined);
  const peak = await memory.stop();
  console.log(
    `  ${'peak memory'.padEnd(24)} ${peak.pssMb.toFixed(0).padStart(6)} MB PSS, ${peak.rssMb.toFixed(0)} MB RSS (all server processes, summed, during the reads again and the commits; ${(peak.pssMb / setting.workers).toFixed(0)} MB PSS per worker)`,
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
 * The read as a share of the minimal Express route, and of its ceiling (the same route sending the read's
 * body): the three are measured in turn and their medians compared. Prints the minimal route's line too.
 */
async function shareOfMinimal(name: string, read: LoadTarget, calibration: Calibration): Promise<string> {
  const sameBody = await calibration.sameBody(read.url, read.headers);
  const [minimal = [], ceiling = [], results = []] = await inTurn([calibration.minimal, sameBody, read]);
  const baseline = medianRate(minimal);
  console.log(formatLoad('minimal Express', medianResult(minimal)));
  const result = medianResult(results);
  return `${formatLoad(name, result, baseline)}${formatCeiling(result.requestsPerSecond, medianRate(ceiling), baseline)}`;
}

/**
 * The read on several workers as a multiple of one worker: the two servers are measured in turn and their
 * medians compared, since a one-worker figure taken minutes earlier differs by the machine's drift (seen: the
 * same two-worker figure read as 1.55x and as 1.8x). The line shows the several-worker round of median rate.
 */
async function multipleOfOneWorker(
  name: string,
  url: string,
  oneWorkerUrl: string,
  headers: Record<string, string>,
): Promise<string> {
  const [several = [], one = []] = await inTurn([
    { url, headers },
    { url: oneWorkerUrl, headers },
  ]);
  const result = medianResult(several);
  const single = medianRate(one);
  return `${formatLoad(name, result)}   ${(result.requestsPerSecond / single).toFixed(2)}x 1 worker (${single.toFixed(0)} req/s, measured in turn)`;
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
    const [smallResults = [], largeResults = []] = await inTurn([
      { url: smallUrl, headers },
      { url: largeUrl, headers },
    ]);
    const smallResult = medianResult(smallResults);
    const largeResult = medianResult(largeResults);
    console.log(formatLoad(`${name} (${SCALE_SIZES[0]})`, smallResult));
    const share = ((largeResult.requestsPerSecond / smallResult.requestsPerSecond) * 100).toFixed(0);
    console.log(`${formatLoad(`${name} (${SCALE_SIZES[1]})`, largeResult)}   ${share}% of ${SCALE_SIZES[0]}`);
  }
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The project-list rows: `GET /projects` and `GET /groups` on an instance of 10 projects and on one of
 * 10,000, one worker each, measured in turn with the minimal Express route and its ceiling.
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
  for (const [index, [name, smallUrl]] of (small ?? []).entries()) {
    const largeUrl = large?.[index]?.[1] ?? '';
    const sameBody = await calibration.sameBody(smallUrl, headers);
    const [minimal = [], ceiling = [], smallResults = [], largeResults = []] = await inTurn([
      calibration.minimal,
      sameBody,
      { url: smallUrl, headers },
      { url: largeUrl, headers },
    ]);
    const baseline = medianRate(minimal);
    const smallResult = medianResult(smallResults);
    const largeResult = medianResult(largeResults);
    console.log(formatLoad('minimal Express', medianResult(minimal)));
    console.log(
      `${formatLoad(`${name} (${PROJECT_SCALE_SIZES[0]})`, smallResult, baseline)}${formatCeiling(smallResult.requestsPerSecond, medianRate(ceiling), baseline)}`,
    );
    const share = ((largeResult.requestsPerSecond / smallResult.requestsPerSecond) * 100).toFixed(0);
    console.log(
      `${formatLoad(`${name} (${PROJECT_SCALE_SIZES[1]})`, largeResult, baseline)}   ${share}% of ${PROJECT_SCALE_SIZES[0]}`,
    );
  }
  await calibration.stop();
  for (const instance of instances) {
    await stop(instance.child);
    await rm(instance.dataDir, { recursive: true, force: true });
  }
}

/**
 * The same comparisons by the server's CPU time per request (a rate read as 1/CPU time): on a machine shared
 * with other work, a rate measures the share of the cores the server was given as much as its own cost, while
 * the CPU time a request takes moves much less.
 */
function formatCpuShares(ceilingUs: number, smallUs: number, largeUs: number): string {
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  return `  ${'by CPU time per request'.padEnd(24)} ceiling ${ceilingUs.toFixed(0)} µs, ${AREA_SCALE_SIZES[0]} items ${smallUs.toFixed(0)} µs (${percent(ceilingUs / smallUs)} of the ceiling), ${AREA_SCALE_SIZES[1]} items ${largeUs.toFixed(0)} µs (${percent(ceilingUs / largeUs)} of the ceiling, ${percent(smallUs / largeUs)} of ${AREA_SCALE_SIZES[0]})`;
}

/**
 * The rows of document 2's lists: each on 10 and on 10,000 items, one worker, measured in turn with the
 * minimal Express route and its ceiling (the same route sending the 10-item page's body; both pages are of
 * AREA_SCALE_PER_PAGE items of the same shape).
 */
async function runAreaScale(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-areas-'));
  const fixtures = join(dataDir, 'fixtures.json');
  await writeAreaScaleFixtures(join(SERVER_DIR, 'fixtures/demo.json'), fixtures);
  // A first start loads the fixtures; the items go in while it is stopped.
  await stop((await startServer(join(dataDir, 'data'), fixtures, 1, false)).child);
  const seeding = performance.now();
  seedAreaScale(join(dataDir, 'data'));
  const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
  console.log(
    `\nnotes, epics and to-dos at ${AREA_SCALE_SIZES.join(' and ')} items, production mode, 1 worker process (per_page=${AREA_SCALE_PER_PAGE}; items seeded in ${seconds} s)`,
  );
  const { child, origin } = await startServer(join(dataDir, 'data'), fixtures, 1, false);
  const calibration = await startMinimalExpress();
  const [small, large] = AREA_SCALE_SIZES.map((size) =>
    areaScaleLists(origin, size, BENCH_TOKEN).map((list) => ({ ...list, pid: child.pid })),
  );
  for (const [index, smallList] of (small ?? []).entries()) {
    const largeList = large?.[index];
    if (!largeList) continue;
    const sameBody = await calibration.sameBody(smallList.url, smallList.headers);
    const [minimal = [], ceiling = [], smallResults = [], largeResults = []] = await inTurn([
      calibration.minimal,
      sameBody,
      smallList,
      largeList,
    ]);
    const baseline = medianRate(minimal);
    const ceilingRate = medianRate(ceiling);
    const smallResult = medianResult(smallResults);
    const largeResult = medianResult(largeResults);
    console.log(formatLoad('minimal Express', medianResult(minimal)));
    console.log(
      `${formatLoad(`${smallList.name} (${AREA_SCALE_SIZES[0]})`, smallResult, baseline)}${formatCeiling(smallResult.requestsPerSecond, ceilingRate, baseline)}`,
    );
    const share = ((largeResult.requestsPerSecond / smallResult.requestsPerSecond) * 100).toFixed(0);
    const ofCeiling = ((largeResult.requestsPerSecond / ceilingRate) * 100).toFixed(0);
    console.log(
      `${formatLoad(`${largeList.name} (${AREA_SCALE_SIZES[1]})`, largeResult, baseline)}   ${share}% of ${AREA_SCALE_SIZES[0]}; ${ofCeiling}% of the ceiling`,
    );
    console.log(formatCpuShares(medianCpu(ceiling), medianCpu(smallResults), medianCpu(largeResults)));
  }
  await calibration.stop();
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The commit rows, one worker, production mode: the minimal Express route's rate (what this machine allows
 * now), file commits one after the other and by 4 writers on the demo repository, then commits to a
 * repository of FILES_SCALE files and to the demo repository in turn, round after round, the large as a
 * share of the demo (medians).
 */
async function runCommits(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-bench-commits-'));
  const fixtures = join(dataDir, 'fixtures.json');
  await writeCommitFixtures(join(SERVER_DIR, 'fixtures/demo.json'), fixtures);
  // A first start loads the fixtures and makes the repositories; the files go in while it is stopped.
  await stop((await startServer(join(dataDir, 'data'), fixtures, 1, false)).child);
  await seedFilesScale(join(dataDir, 'data'));
  const calibration = await startMinimalExpress();
  const [minimal = []] = await inTurn([calibration.minimal]);
  await calibration.stop();
  console.log('\ncommits, production mode, 1 worker process');
  console.log(formatLoad('minimal Express', medianResult(minimal)));
  const { child, origin } = await startServer(join(dataDir, 'data'), fixtures, 1, false);
  await commits(origin, child.pid);
  const perRound = Math.ceil(COMMITS / ROUNDS);
  const demo: number[] = [];
  const large: number[] = [];
  const demoCpu: number[] = [];
  const largeCpu: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['website', FILES_SCALE_PROJECT] : [FILES_SCALE_PROJECT, 'website'];
    for (const project of order) {
      const branch = project === 'website' ? 'develop' : 'main';
      const before = await cpuMicroseconds(child.pid ?? 0);
      const { rate, ok } = await commitRate(origin, project, branch, perRound, `round-${round}`);
      const after = await cpuMicroseconds(child.pid ?? 0);
      (project === 'website' ? demo : large).push(rate);
      if (before !== undefined && after !== undefined && ok > 0)
        (project === 'website' ? demoCpu : largeCpu).push((after - before) / ok / 1000);
    }
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const demoRate = median(demo);
  const largeRate = median(large);
  const cpu = (values: number[]) => `; ${median(values).toFixed(1)} ms of server CPU per commit`;
  console.log(
    `  ${'file commits (demo)'.padEnd(24)} ${demoRate.toFixed(0).padStart(6)} commits/s (median of ${ROUNDS} rounds of ${perRound}, in turn with the next line${cpu(demoCpu)})`,
  );
  console.log(
    `  ${`file commits (${FILES_SCALE} files)`.padEnd(24)} ${largeRate.toFixed(0).padStart(6)} commits/s   ${((largeRate / demoRate) * 100).toFixed(0)}% of the demo repository${cpu(largeCpu)}`,
  );
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}

const cores = availableParallelism();
console.log(
  `${cores} cores; ${generator} at ${CONNECTIONS} connections; each figure the median of ${ROUNDS} rounds of ${SECONDS / 2} s, measured in turn with what it is compared with, after ${WARM_UP_SECONDS} s of warm-up`,
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
if (ONLY === undefined || ONLY === 'areas') await runAreaScale();
if (ONLY === undefined || ONLY === 'commits') await runCommits();
if (ONLY === undefined || ONLY === 'postgres') {
  // Its ratios of gains (each multiple less one) move with the rounds' noise more than a rate does: three
  // times the rounds, each half as long (whole seconds, as wrk takes them), so that a figure is the median of
  // many rounds.
  await runPostgres({
    generator,
    rounds: ROUNDS * 3,
    seconds: Math.max(1, Math.round(SECONDS / 4)),
    warmUpSeconds: WARM_UP_SECONDS,
    commits: COMMITS,
    reads: READS,
  });
}
if (ONLY === undefined || ONLY === 'walk') await runOperationWalk();
if (ONLY === undefined || ONLY === 'start') await runStartTimes();

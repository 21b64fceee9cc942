// Drives one URL at 32 connections and reports requests/s and latency percentiles. wrk (Debian's `wrk`
// package) is used when installed: written in C, it leaves the cores to the server, which matters on a
// 2-core machine where the load generator runs beside it. Without it, autocannon (Node.js) is used, and
// the figures are lower by what it takes from the server.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const execFileAsync = promisify(execFile);

export const CONNECTIONS = 32;

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  /**
   * The serving process's CPU time per request (µs), when the target names its process: what the request
   * costs the server, which the other processes of a shared machine change much less than the rate.
   */
  cpuUsPerRequest?: number;
}

export async function loadGeneratorName(): Promise<'wrk' | 'autocannon'> {
  return execFileAsync('wrk', ['--version']).then(
    () => 'wrk',
    // wrk --version exits with 1 after printing its version: it is there when it printed one.
    (error: { stdout?: string; stderr?: string; code?: string }) =>
      error.code !== 'ENOENT' && `${error.stdout ?? ''}${error.stderr ?? ''}`.includes('wrk')
        ? 'wrk'
        : 'autocannon',
  );
}

export async function drive(
  generator: 'wrk' | 'autocannon',
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  return generator === 'wrk'
    ? driveWithWrk(url, headers, seconds, connections)
    : driveWithAutocannon(url, headers, seconds, connections);
}

async function driveWithWrk(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await execFileAsync('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...headerArgs,
    url,
  ]);
  const number = (pattern: RegExp): number => Number(pattern.exec(stdout)?.[1] ?? 0);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: latencyMs(/^\s+50%\s+([\d.]+)(us|ms|s|m)$/m.exec(stdout)),
    p99Ms: latencyMs(/^\s+99%\s+([\d.]+)(us|ms|s|m)$/m.exec(stdout)),
    failures: number(/Non-2xx or 3xx responses:\s+(\d+)/) + socketErrors(stdout),
  };
}

function latencyMs(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  // wrk prints each latency in the unit that suits it: microseconds up to minutes.
  const msPerUnit: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return value * (msPerUnit[match[2] ?? 'ms'] ?? 1);
}

function socketErrors(stdout: string): number {
  const line = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return line ? line.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
}

async function driveWithAutocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** A URL to drive, with the headers of its requests. */
export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  /** The process that serves it (one process: user and system CPU time are read from /proc/PID/stat). */
  pid?: number;
}

/** Clock ticks per second of /proc/PID/stat's times (Linux's USER_HZ, 100 on every common platform). */
const TICKS_PER_SECOND = 100;

/** The process's user plus system CPU time in µs, or undefined where /proc cannot tell. */
export async function cpuMicroseconds(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // Fields after the command name (which may hold spaces, inside parentheses): state is field 3, utime 14.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields?.[11]);
  const stime = Number(fields?.[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1_000_000) / TICKS_PER_SECOND;
}

/** Drives the target once and, when it names its process, adds the CPU time it spent per request. */
async function driveMeasuringCpu(
  generator: 'wrk' | 'autocannon',
  target: LoadTarget,
  seconds: number,
): Promise<LoadResult> {
  const before = target.pid === undefined ? undefined : await cpuMicroseconds(target.pid);
  const result = await drive(generator, target.url, target.headers, seconds);
  const after = target.pid === undefined ? undefined : await cpuMicroseconds(target.pid);
  const requests = result.requestsPerSecond * seconds;
  if (before === undefined || after === undefined || requests === 0) return result;
  return { ...result, cpuUsPerRequest: (after - before) / requests };
}

/**
 * Measures several targets in turn, round after round, the order reversed every other round, so that the
 * drift of a shared machine (±5-10% between two figures a few minutes apart here) weighs on all of them
 * alike. Each target is driven once for `warmUpSeconds` first, unrecorded. Returns each target's results,
 * one per round, in the order of `targets`.
 */
export async function measureInTurn(
  generator: 'wrk' | 'autocannon',
  targets: readonly LoadTarget[],
  options: { rounds: number; seconds: number; warmUpSeconds: number },
): Promise<LoadResult[][]> {
  for (const target of targets) await drive(generator, target.url, target.headers, options.warmUpSeconds);
  const results: LoadResult[][] = targets.map(() => []);
  const order = targets.map((_, index) => index);
  for (let round = 0; round < options.rounds; round++) {
    for (const index of round % 2 === 0 ? order : [...order].reverse()) {
      const target = targets[index];
      if (target) results[index]?.push(await driveMeasuringCpu(generator, target, options.seconds));
    }
  }
  return results;
}

/** The median CPU time per request of several results of one target (NaN without a process to read). */
export function medianCpu(results: readonly LoadResult[]): number {
  const sorted = results
    .map((result) => result.cpuUsPerRequest)
    .filter((cpu): cpu is number => cpu !== undefined)
    .sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The median of the rates of several results of one target. */
export function medianRate(results: readonly LoadResult[]): number {
  return medianResult(results).requestsPerSecond;
}

/** The result of median rate among several of one target (its latencies and failures as measured then). */
export function medianResult(results: readonly LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return (
    sorted[Math.floor(sorted.length / 2)] ?? {
      requestsPerSecond: Number.NaN,
      p50Ms: 0,
      p99Ms: 0,
      failures: 0,
    }
  );
}

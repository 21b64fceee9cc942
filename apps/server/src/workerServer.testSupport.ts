// For tests of the server with several worker processes: start it as `pnpm start` does (from source), and send
// each request on a connection of its own, so that the primary hands it to the next worker in turn.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testDatabaseOf } from './core/store/testPostgres.js';

export const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

export interface Answer {
  status: number;
  body: string;
}

/**
 * Starts the primary with `workers` worker processes and the demo data; resolves once it listens. With
 * `databaseUrl`, on that PostgreSQL database (several such servers on one database are several instances).
 */
export async function startWorkerServer(
  dataDir: string,
  workers: number,
  databaseUrl?: string,
): Promise<{ primary: ChildProcess; origin: string }> {
  const primary = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      '--workers',
      String(workers),
      '--seed',
      'demo',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    primary.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    primary.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v4/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { primary, origin };
}

/** Server processes started on one new data directory (and one database on PostgreSQL) by startServers. */
export interface StartedServers {
  dataDir: string;
  /** Each server's primary process and the origin it listens on, in the order they were asked for. */
  servers: { primary: ChildProcess; origin: string }[];
  /** The subjects of the commits of `branch` of acme/website (the demo data's first project), newest first. */
  gitLog(branch: string): Promise<string[]>;
  /** Stops every server (SIGTERM, SIGKILL after 10 s), then removes the data directory and the database. */
  stop(): Promise<void>;
}

/**
 * Starts `count` servers with `workers` worker processes each, together, on one new data directory named
 * after `name` with the demo data: on the run's PostgreSQL when the tests run on it (one database for all:
 * several instances), else on the SQLite file. Started together, they all migrate and seed the empty
 * database; one does, the others find it done.
 */
export async function startServers(name: string, count: number, workers: number): Promise<StartedServers> {
  const dataDir = await mkdtemp(join(tmpdir(), `collab-${name}-`));
  const database = await testDatabaseOf(dataDir);
  const servers: StartedServers['servers'] = [];
  const stop = async () => {
    await Promise.all(servers.map(({ primary }) => stopProcess(primary)));
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  const starting = Array.from({ length: count }, () => startWorkerServer(dataDir, workers, database?.url));
  // Each one that started is stopped, also when another failed to start.
  const outcomes = await Promise.allSettled(starting);
  for (const outcome of outcomes) if (outcome.status === 'fulfilled') servers.push(outcome.value);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const gitLog = async (branch: string) => {
    const repository = join(dataDir, 'repositories', 'default', '1.git');
    const { stdout } = await promisify(execFile)('git', [
      '--git-dir',
      repository,
      'log',
      '--format=%s',
      `refs/heads/${branch}`,
    ]);
    return stdout.split('\n').filter(Boolean);
  };
  return { dataDir, servers, gitLog, stop };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** One request with a JSON body (if any) and a token, on a connection of its own. */
export function callOnNewConnection(
  origin: string,
  method: string,
  path: string,
  body: unknown,
  token: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      {
        method,
        agent: false,
        headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

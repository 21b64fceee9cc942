#!/usr/bin/env node
// Starts the server: reads the configuration, then either serves in this process (one worker) or, with
// several workers, forks the worker processes that serve on the shared port
// (Node's cluster module hands them the connections in turn). A Node.js process serves on one core; the
// workers use the others. Exactly one worker runs the background jobs; the others queue them.
//
// No top-level await: the built executable runs this file as a CommonJS script (scripts/bundle.mjs,
// src/codeCache.ts), which cannot await at its top.
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { announceFirstAnswer } from './codeCache.js';
import {
  ConfigError,
  DEMO_FIXTURES_PATH,
  readConfig,
  type ServerConfig,
  USAGE,
  wantsHelp,
} from './config.js';
import { writeConformanceConfig } from './conformanceConfig.js';
import { batchedLines } from './core/http/accessLog.js';
import { keepConnectionsAlive } from './core/http/connections.js';
import { instanceSettings } from './core/instance.js';
import { type Fixtures, readFixturesFile } from './core/store/fixturesFile.js';

/** Set by the primary for the one worker that runs the jobs. */
const RUNS_JOBS_VARIABLE = 'COLLAB_RUNS_JOBS';

const config = configOrExit(process.argv.slice(2));
void main();

async function main(): Promise<void> {
  const supervises = cluster.isPrimary && config.workers > 1;
  // A process that serves loads the app's modules while the fixtures file is read: the read waits on the
  // disk (and on a thread of libuv's pool), not on this thread.
  const app = supervises ? undefined : import('./app.js');
  const fixturesPath = config.seed === 'demo' ? fileURLToPath(DEMO_FIXTURES_PATH) : config.seed;
  const fixtures = fixturesPath ? await readFixturesFile(fixturesPath) : undefined;
  if (config.conformanceConfigPath && !fixtures) {
    process.stderr.write(
      'collab-server: --write-conformance-config needs --seed\n(--help lists the flags)\n',
    );
    process.exit(2);
  }
  if (app === undefined) superviseWorkers(fixtures);
  else await serve(app, cluster.isPrimary || process.env[RUNS_JOBS_VARIABLE] === '1', fixtures);
}

/** Builds the app and listens; a worker exits when told to or when its primary is gone. */
async function serve(
  app: Promise<typeof import('./app.js')>,
  runJobs: boolean,
  fixtures: Fixtures | undefined,
): Promise<void> {
  const { createApp } = await app;
  const accessLogLines = config.accessLog ? batchedLines((chunk) => process.stdout.write(chunk)) : undefined;
  if (accessLogLines) process.on('exit', accessLogLines.flush);
  const server = await createApp({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    fixtures,
    validateResponses: config.validateResponses,
    storageNames: config.storageNames,
    runJobs,
    externalUrl: `http://${config.host}:${config.port}`,
    accessLog: accessLogLines?.write,
  });
  const listener = server.app.listen(config.port, config.host, () => {
    const address = listener.address();
    if (cluster.isPrimary) {
      printWelcome(typeof address === 'object' && address ? address.port : config.port, fixtures);
    }
    // After listening: requests are answered meanwhile, each first one compiling what it needs.
    void server.warmUp().then(() => {
      if (process.env.COLLAB_REPORT_WARM_UP === '1') console.log('validators warm');
    });
  });
  // Once the first request is answered, the code cache (src/codeCache.ts) holds what a start runs.
  listener.once('request', (_request, response) => response.once('close', announceFirstAnswer));
  keepConnectionsAlive(listener);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    listener.close();
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (cluster.isWorker) process.on('disconnect', stop);
}

/**
 * The primary of several workers: forks the worker that runs the jobs first (it migrates and seeds the data
 * directory), the others once it listens, replaces a worker that dies, and stops them all on SIGINT or
 * SIGTERM. The primary itself loads nothing but the cluster module, so it stays small.
 */
function superviseWorkers(fixtures: Fixtures | undefined): void {
  const runsJobs = new Map<Worker, boolean>();
  const listened = new Set<Worker>();
  let stopping = false;
  let welcomed = false;
  const fork = (jobs: boolean): void => {
    runsJobs.set(cluster.fork({ [RUNS_JOBS_VARIABLE]: jobs ? '1' : '0' }), jobs);
  };

  cluster.on('listening', (worker, address) => {
    listened.add(worker);
    // The data directory is ready once the first worker listens: the others may open it now.
    if (listened.size === 1 && runsJobs.size === 1) {
      for (let i = 1; i < config.workers; i++) fork(false);
    }
    if (!welcomed && listened.size === config.workers) {
      welcomed = true;
      printWelcome(address.port, fixtures);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    const jobs = runsJobs.get(worker) ?? false;
    runsJobs.delete(worker);
    if (stopping) {
      if (runsJobs.size === 0) process.exit(0);
      return;
    }
    // A worker that never served (a port in use, a broken data directory) would fail again: give up.
    if (!listened.has(worker)) {
      console.error(`A worker exited before it listened (${signal ?? code}); stopping.`);
      stopping = true;
      for (const other of runsJobs.keys()) other.process.kill('SIGTERM');
      process.exitCode = 1;
      if (runsJobs.size === 0) process.exit(1);
      return;
    }
    listened.delete(worker);
    console.error(`Worker ${worker.process.pid} exited (${signal ?? code}); starting another.`);
    fork(jobs);
  });

  const stopAll = (): void => {
    stopping = true;
    for (const worker of runsJobs.keys()) worker.process.kill('SIGTERM');
    if (runsJobs.size === 0) process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);

  fork(true);
}

/** The start message, written at once: one write to standard output, which a client waits for, not one a line. */
function printWelcome(port: number, fixtures: Fixtures | undefined): void {
  const origin = `http://${config.host}:${port}`;
  const lines = [
    `Collab API listening on ${origin}/api/v4`,
    `Docs: ${origin}/docs   Spec: ${origin}/openapi.json`,
    `Data directory: ${config.dataDir}`,
  ];
  // The URL without its password.
  if (config.databaseUrl) lines.push(`Database: PostgreSQL at ${new URL(config.databaseUrl).host}`);
  lines.push(`Server processes: ${config.workers} (--workers)`);
  const instance = instanceSettings(fixtures?.instance);
  lines.push(
    instance.tier === 'premium'
      ? `Tier: premium (DELETE /projects/:id marks a project; removed after ${instance.deletionAdjournedPeriodDays} days unless POST /projects/:id/restore)`
      : 'Tier: free (DELETE /projects/:id removes a project at once)',
  );
  if (fixtures) lines.push(...tokenLines(fixtures));
  if (config.conformanceConfigPath) {
    if (fixtures) writeConformanceConfig(config.conformanceConfigPath, fixtures, origin);
    lines.push(
      `Conformance config: ${config.conformanceConfigPath} (collab-conformance run --config ${config.conformanceConfigPath})`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function tokenLines({ users, groups }: Fixtures): string[] {
  const lines = ['Tokens (PRIVATE-TOKEN header):'];
  for (const user of users) {
    for (const token of user.tokens.filter((t) => !t.revoked)) {
      lines.push(`  ${user.username.padEnd(11)} ${token.scopes.join(',').padEnd(16)} ${token.token}`);
    }
  }
  lines.push('  (an administrator makes more: POST /users, then POST /users/<id>/personal_access_tokens)');
  const scim = groups.filter((group) => group.saml?.enabled && group.saml.scim_token);
  if (scim.length === 0) return lines;
  lines.push('SCIM tokens (Authorization: Bearer, under /api/scim/v2/groups/<group>/Users):');
  for (const group of scim) {
    const fullPath = group.parent ? `${group.parent}/${group.path}` : group.path;
    lines.push(`  ${fullPath.padEnd(28)} ${group.saml?.scim_token ?? ''}`);
  }
  return lines;
}

/** The configuration, or the usage text (exit 0) or a one-line error (exit 2) for a command line it cannot read. */
function configOrExit(argv: string[]): ServerConfig {
  if (wantsHelp(argv)) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  try {
    return readConfig(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`collab-server: ${error.message}\n(--help lists the flags)\n`);
    process.exit(2);
  }
}

// vitest's global setup for the suite against this repository's server: one warm server per test worker
// (src/warmServers.ts says how the files use them). Each runs in a process of its own, so the two servers
// and the test workers spread over the cores, and each is probed once here (which also compiles every route
// the probe reaches) before any file runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { demoConfig } from '../src/config.js';
import { operationRequests } from '../src/operationRequests.js';
import { requestCases } from '../src/requestCases.js';
import { loadSpecIndex } from '../src/specIndex.js';
import { targetFor } from '../src/target.js';
import type { WarmServer } from '../src/warmServers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('./warmServer.ts', import.meta.url));

interface Started {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
}

/** Starts scripts/warmServer.ts under this Node.js (tsx compiles it) and reads where it listens. */
async function startServerProcess(): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT], {
    cwd: PACKAGE_DIR,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  const first: string = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the warm server exited (${code}) before it listened`)));
  });
  // Anything it prints later is read and dropped, so it never blocks on a full pipe.
  lines.on('line', () => {});
  const { baseUrl, dataDir } = JSON.parse(first) as { baseUrl: string; dataDir: string };
  return { child, baseUrl, dataDir };
}

async function probe(baseUrl: string): Promise<string[]> {
  const index = loadSpecIndex();
  const target = targetFor(demoConfig(baseUrl));
  const cases = requestCases(index, () => target.config.fixtures);
  return [...(await operationRequests(index, cases, () => target).probe())].sort();
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.stdin?.end();
  await exited;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const count = Math.max(1, project.config.maxWorkers);
  const servers = await Promise.all(Array.from({ length: count }, startServerProcess));
  const teardown = async () => {
    await Promise.all(servers.map(stop));
  };
  try {
    const warm: WarmServer[] = await Promise.all(
      servers.map(async ({ baseUrl, dataDir }) => ({ baseUrl, dataDir, implemented: await probe(baseUrl) })),
    );
    project.provide('collabWarmServers', warm);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

// The warm servers of a test run: vitest's global setup (scripts/warmServers.ts) starts one seeded local
// server per test worker and probes it once, and the test files of that worker share it as a configured
// server (scripts/useWarmServer.ts), so a file does not pay a server's start and first compile of every
// route. Worker N (VITEST_POOL_ID, 1 to maxWorkers) takes the Nth server; the files of one worker run one
// after the other, so a server sees one file at a time.

/**
 * Set by scripts/useWarmServer.ts to the warm server's address, beside COLLAB_BASE_URL: the configured server
 * is then this repository's server, started by the suite on this machine.
 */
export const WARM_SERVER_ENV = 'COLLAB_WARM_SERVER';

/**
 * Whether the server under test is this repository's server started by the suite: a test file's own (no
 * server configured) or its test worker's warm one. It has the demo data (other files of the worker may
 * have added to a warm one), its data directory is on this machine, and a test may start servers of its own
 * (restarts, fixtures of its own, changes no other file may see). Against any other server those tests skip.
 */
export function againstSuiteServer(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.COLLAB_CONFORMANCE_CONFIG) return false;
  return !env.COLLAB_BASE_URL || env[WARM_SERVER_ENV] === env.COLLAB_BASE_URL;
}

/** A server the global setup started, as the test workers receive it. */
export interface WarmServer {
  baseUrl: string;
  dataDir: string;
  /** The operations the server implements, by operationId (its probe, src/operationRequests.ts). */
  implemented: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    collabWarmServers: WarmServer[];
  }
}

/** This test worker's warm server; none outside a vitest worker or when the global setup started none. */
export async function warmServerOfThisWorker(): Promise<WarmServer | undefined> {
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!process.env.VITEST_WORKER_ID || !Number.isInteger(pool) || pool < 1) return undefined;
  // Imported here only: the command-line tool loads this module outside of any test worker.
  const { inject } = await import('vitest');
  const servers = inject('collabWarmServers') ?? [];
  // A pool ID beyond the servers (never with the configured maxWorkers) gets a fresh server instead of
  // sharing one with a file that runs at the same time.
  return servers[pool - 1];
}

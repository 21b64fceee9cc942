// A server of a test's own, for the few tests whose changes no other file may see (an approval that makes
// the outsider a member of a fixture group for good): the files that hold them run on their worker's warm
// server, and only these tests pay for a fresh one. Only where the suite starts this repository's servers
// (againstSuiteServer()); against another server such tests skip. And the server of the files that put a proxy
// or a command in front of this repository's server: their worker's warm one when there is one.
import { demoConfig, startLocalServer, type Target, targetFor } from '../src/index.js';
import type { LocalServer } from '../src/localServer.js';
import { warmServerOfThisWorker } from '../src/warmServers.js';

export async function ownServer(): Promise<Target> {
  const local = await startLocalServer();
  return targetFor(demoConfig(local.baseUrl), local);
}

/**
 * This repository's server with the demo data for a file that puts a proxy or a command in front of it: its
 * test worker's warm server when the suite started one (closing it is left to the global setup), else a
 * fresh local server of the file's own.
 */
export async function warmOrOwnServer(): Promise<Pick<LocalServer, 'baseUrl' | 'close'>> {
  const warm = await warmServerOfThisWorker();
  if (warm) return { baseUrl: warm.baseUrl, close: async () => {} };
  return startLocalServer();
}

// A server of a test's own, for the few tests whose changes no other file may see (an approval that makes
// the outsider a member of a fixture group for good): the files that hold them run on their worker's warm
// server, and only these tests pay for a fresh one. Only where the suite starts this repository's servers
// (againstSuiteServer()); against another server such tests skip.
import { demoConfig, startLocalServer, type Target, targetFor } from '../src/index.js';

export async function ownServer(): Promise<Target> {
  const local = await startLocalServer();
  return targetFor(demoConfig(local.baseUrl), local);
}

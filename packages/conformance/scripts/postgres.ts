// vitest's global setup for a run on PostgreSQL (COLLAB_TEST_DATABASE=postgres): starts one PostgreSQL for
// the whole run (a fresh data directory, a free port) and hands its URL to the servers the run starts
// through the environment, which the test workers and the warm servers' processes inherit. Both projects of
// the run list this set-up: the first starts the cluster, the second finds it started.
import {
  startTestPostgres,
  TEST_POSTGRES_URL_VARIABLE,
  testsWantPostgres,
} from '@collab/server/testPostgres';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!testsWantPostgres() || process.env[TEST_POSTGRES_URL_VARIABLE]) return undefined;
  const cluster = await startTestPostgres();
  process.env[TEST_POSTGRES_URL_VARIABLE] = cluster.adminUrl;
  return async () => {
    delete process.env[TEST_POSTGRES_URL_VARIABLE];
    await cluster.stop();
  };
}

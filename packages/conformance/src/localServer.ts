// Starts this repository's server on port 0 with a fresh data directory and the demo fixtures.
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixtures } from '@collab/server';
import type { SeedTemplate } from '@collab/server/testPostgres';

export interface LocalServer {
  baseUrl: string;
  dataDir: string;
  /** Stops the server; the data directory is kept when `keepData` is set (for restart tests). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** Real seconds per declared second of a pipeline job on the local server. */
const PIPELINE_TIME_SCALE = 0.01;

export interface LocalServerOptions {
  /** An existing data directory (a restart); a fresh one by default. */
  dataDir?: string;
  /** Changes the demo fixtures before the server loads them (a test's own hooks, say). */
  fixtures?: (demo: Fixtures) => Fixtures;
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  // Imported lazily: a run against another server never loads this repository's server.
  const { createApp, DEMO_FIXTURES_PATH, keepConnectionsAlive, readFixturesFile } = await import(
    '@collab/server'
  );
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'collab-conformance-')));
  const demo = await readFixturesFile(fileURLToPath(DEMO_FIXTURES_PATH));
  const appOptions = {
    fixtures: options.fixtures ? options.fixtures(demo) : demo,
    // The suite validates every response itself (its Ajv, src/responseValidator.ts): the server's own
    // response validation would check each one a second time and compile a validator per route on start.
    validateResponses: false,
    // The storages of the server's default configuration, so storage moves have somewhere to go.
    storageNames: ['default', 'secondary'],
    // A declared pipeline-job second lasts 10 ms, so pipelines finish within a test.
    pipelineTimeScale: PIPELINE_TIME_SCALE,
  };
  // A new data directory with the demo data starts from the run's seeded template on PostgreSQL (on SQLite
  // the server copies its own); a restart or fixtures of a test's own go the usual way.
  const seeded = !options.dataDir && !options.fixtures;
  const database = await testDatabase(
    dataDir,
    seeded
      ? async (template) => {
          const made = await createApp({ ...appOptions, ...template, runJobs: false });
          await made.close();
        }
      : undefined,
  );
  const server = await createApp({ ...appOptions, dataDir, databaseUrl: database?.url });
  const listener: Server = await new Promise((resolve) => {
    const started = server.app.listen(0, '127.0.0.1', () => resolve(started));
  });
  keepConnectionsAlive(listener);
  const { port } = listener.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    close: async ({ keepData = false } = {}) => {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await server.close();
      if (!keepData) {
        await rm(dataDir, { recursive: true, force: true });
        await database?.drop();
      }
    },
  };
}

/**
 * With COLLAB_TEST_DATABASE=postgres (the run started a PostgreSQL: scripts/postgres.ts), the server's
 * database in it, one per data directory, a copy of the run's demo template made by `seed` when given;
 * otherwise none, and the server uses the SQLite file.
 */
async function testDatabase(
  dataDir: string,
  seed?: SeedTemplate,
): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const { seededTestDatabaseOf, testDatabaseOf } = await import('@collab/server/testPostgres');
  return seed ? seededTestDatabaseOf(dataDir, 'demo', seed) : testDatabaseOf(dataDir);
}

/**
 * The environment of an operator command (`move-storage`, `scim-token`) run on a local server's data
 * directory: on PostgreSQL, DATABASE_URL names that server's database too.
 */
export async function commandEnvironment(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const database = await testDatabase(dataDir);
  return database ? { ...process.env, DATABASE_URL: database.url } : process.env;
}

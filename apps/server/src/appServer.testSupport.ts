// For tests of the server in this process: the application on a fresh data directory, listening on a port of
// its own (port 0), and its removal (connections, jobs, database and data directory).
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppOptions, type CollabApp, createApp } from './app.js';
import { testDatabaseOf } from './core/store/testPostgres.js';

export interface AppServer {
  app: CollabApp;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The API's base URL: the origin and `/api/v4`. */
  base: string;
  dataDir: string;
  /** The server's PostgreSQL database when the tests run on PostgreSQL (COLLAB_TEST_DATABASE=postgres). */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * Starts the application with `options` (a data directory of its own, named after `name`); responses are
 * validated against the spec unless the options say otherwise.
 */
export async function startAppServer(name: string, options: Omit<AppOptions, 'dataDir'>): Promise<AppServer> {
  const dataDir = await mkdtemp(join(tmpdir(), `collab-${name}-`));
  const database = options.databaseUrl ? undefined : await testDatabaseOf(dataDir);
  const databaseUrl = options.databaseUrl ?? database?.url;
  const app = await createApp({ validateResponses: true, ...options, dataDir, databaseUrl });
  const server: Server = await new Promise((resolve) => {
    const started = app.app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    origin,
    base: `${origin}/api/v4`,
    dataDir,
    databaseUrl,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

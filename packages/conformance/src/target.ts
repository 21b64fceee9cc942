// The server under test, as the test files see it: a client per role, every response validated.
import { type CollabClient, createCollabClient } from '@collab/client';
import { type ConformanceConfig, configFromEnvironment, demoConfig, type Role } from './config.js';
import { type LocalServer, startLocalServer } from './localServer.js';
import { validatingFetch } from './validatingFetch.js';
import { warmServerOfThisWorker } from './warmServers.js';

export interface Target {
  config: ConformanceConfig;
  /** A client with the role's token; `anonymous` sends none. */
  as(role: Role | 'anonymous'): CollabClient;
  /** The raw fetch, validating too, for requests a typed client cannot make (wrong bodies, raw encodings). */
  fetch: typeof fetch;
  /** The file's own local server, when openTarget started one (undefined against a configured server). */
  local: LocalServer | undefined;
  /**
   * The data directory of this repository's server when the suite started it (the file's own or its
   * worker's warm server: againstSuiteServer()); undefined against another server.
   */
  dataDir: string | undefined;
  /** The operations the server implements, when its probe was already made (a warm server's). */
  implemented?: ReadonlySet<string>;
  close(): Promise<void>;
}

export function targetFor(
  config: ConformanceConfig,
  local?: LocalServer,
  implemented?: ReadonlySet<string>,
  dataDir: string | undefined = local?.dataDir,
): Target {
  const fetch = validatingFetch();
  const clients = new Map<string, CollabClient>();
  return {
    config,
    fetch,
    local,
    dataDir,
    implemented,
    as(role) {
      let client = clients.get(role);
      if (!client) {
        const token = role === 'anonymous' ? undefined : config.tokens[role];
        client = createCollabClient({ baseUrl: config.baseUrl, token, fetch, retry: false });
        clients.set(role, client);
      }
      return client;
    },
    close: async () => {
      await local?.close();
    },
  };
}

/**
 * The configured server (a test worker's warm server is one: scripts/useWarmServer.ts), else a fresh local
 * one (one per test file, so files never share state).
 */
export async function openTarget(): Promise<Target> {
  const configured = configFromEnvironment();
  if (configured) {
    // A warm server was probed when it started: its files need not probe it again.
    const warm = await warmServerOfThisWorker();
    if (warm?.baseUrl === configured.baseUrl)
      return targetFor(configured, undefined, new Set(warm.implemented), warm.dataDir);
    return targetFor(configured);
  }
  const local = await startLocalServer();
  return targetFor(demoConfig(local.baseUrl), local);
}

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
  /** The local server, when the suite started one (undefined against another server). */
  local: LocalServer | undefined;
  /** The operations the server implements, when its probe was already made (a warm server's). */
  implemented?: ReadonlySet<string>;
  close(): Promise<void>;
}

export function targetFor(
  config: ConformanceConfig,
  local?: LocalServer,
  implemented?: ReadonlySet<string>,
): Target {
  const fetch = validatingFetch();
  const clients = new Map<string, CollabClient>();
  return {
    config,
    fetch,
    local,
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

export interface OpenTargetOptions {
  /**
   * A local server of the file's own even when the test worker has a warm one: for a file whose checks
   * hold only on a server no other file has written to (against a configured server it runs as it can).
   */
  fresh?: boolean;
}

/**
 * The configured server; else this test worker's warm local server (shared by the files the worker runs,
 * one after the other; closing the target leaves it running); else a fresh local one.
 */
export async function openTarget(options: OpenTargetOptions = {}): Promise<Target> {
  const configured = configFromEnvironment();
  if (configured) return targetFor(configured);
  const warm = options.fresh ? undefined : await warmServerOfThisWorker();
  if (warm) {
    // The global setup stops it (scripts/warmServers.ts).
    const shared: LocalServer = { baseUrl: warm.baseUrl, dataDir: warm.dataDir, close: async () => {} };
    return targetFor(demoConfig(warm.baseUrl), shared, new Set(warm.implemented));
  }
  const local = await startLocalServer();
  return targetFor(demoConfig(local.baseUrl), local);
}

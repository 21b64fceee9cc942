// The walk over every operation: one request to each operation of the spec, on a fresh server once it has
// warmed up (app.warmUp: each group's validator made and each operation's request validation compiled, in the
// background after listening), then the same walk again. The
// requests are the maintainer's, with every path parameter naming nothing (`0`, `none`) and no body, so each
// is validated and answered without changing the demo data; what is measured is the server's answer time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundledSpec } from '../src/core/http/openapi.js';
import { BENCH_TOKEN, cpuMilliseconds, startServer, stop, warmedUp } from './server.js';

interface WalkRequest {
  method: string;
  url: string;
}

/** One request per operation of the bundled spec, under the base path of its server. */
export function walkRequests(): WalkRequest[] {
  const spec = loadBundledSpec() as { paths: Record<string, Record<string, unknown>> };
  const requests: WalkRequest[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    const base = Array.isArray(item.servers) ? '/api/scim/v2' : '/api/v4';
    const path = template.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
      /(^|_)(id|iid)$/.test(name) && name !== 'id' ? '0' : 'none',
    );
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete'])
      if (item[method] !== undefined) requests.push({ method: method.toUpperCase(), url: `${base}${path}` });
  }
  return requests;
}

interface WalkTime {
  /** Milliseconds of wall time. */
  wall: number;
  /** The server's CPU milliseconds meanwhile. */
  cpu: number;
}

/** Sends every request in turn, one at a time. */
async function walk(
  origin: string,
  pid: number | undefined,
  requests: readonly WalkRequest[],
): Promise<WalkTime> {
  const cpuBefore = await cpuMilliseconds(pid);
  const started = performance.now();
  for (const { method, url } of requests) {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { 'PRIVATE-TOKEN': BENCH_TOKEN, Authorization: 'Bearer none' },
    });
    await response.arrayBuffer();
  }
  const wall = performance.now() - started;
  return { wall, cpu: (await cpuMilliseconds(pid)) - cpuBefore };
}

/** The cold and the warm walk of a fresh server, with and without response validation. */
export async function runOperationWalk(): Promise<void> {
  const requests = walkRequests();
  console.log(
    `\nOne request to each of the ${requests.length} operations, in turn: a fresh server, then again`,
  );
  for (const validateResponses of [false, true]) {
    const dataDir = await mkdtemp(join(tmpdir(), 'collab-walk-'));
    const started = performance.now();
    const server = await startServer({ seed: 'demo', workers: 1, validateResponses, dataDir });
    const listening = performance.now();
    try {
      // The server compiles every operation's request validation once it listens (app.warmUp).
      await warmedUp(server.child);
      const warmAt = performance.now();
      const cold = await walk(server.origin, server.child.pid, requests);
      const warm = await walk(server.origin, server.child.pid, requests);
      const mode = validateResponses ? 'requests and responses validated' : 'requests validated';
      console.log(
        `  ${mode.padEnd(34)} listening after ${((listening - started) / 1000).toFixed(2)} s, warm after ` +
          `${((warmAt - listening) / 1000).toFixed(2)} s more; first walk ${(cold.wall / 1000).toFixed(2)} s   ` +
          `second ${(warm.wall / 1000).toFixed(2)} s   first/second ${(cold.wall / warm.wall).toFixed(1)}` +
          `   (server CPU time ${(cold.cpu / 1000).toFixed(2)} s and ${(warm.cpu / 1000).toFixed(2)} s: ` +
          `${(cold.cpu / warm.cpu).toFixed(1)})`,
      );
    } finally {
      await stop(server.child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

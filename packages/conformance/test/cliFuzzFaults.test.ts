// The fuzzer catches stateful faults (issue 20, point 3): `fuzz` limited to the project badges goes through a
// fault-injecting proxy (src/faultProxy.ts) to a local reference server, and each fault must be reported as
// its own kind of finding naming the operation that broke: a deleted badge still served, a created badge not
// readable, an invalid badge accepted. The same fuzz without a fault finds nothing, so the faults, not the
// setup, make the findings.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../src/config.js';
import { type DiffReport, diff } from '../src/diff/engine.js';
import {
  type Fault,
  type FaultProxy,
  matches,
  type ProxiedResponse,
  startFaultProxy,
} from '../src/faultProxy.js';
import type { Check, FuzzReport } from '../src/fuzz/engine.js';
import { formatFinding } from '../src/fuzz/output.js';
import { type LocalServer, startLocalServer } from '../src/localServer.js';
import { runCli } from './cliProcess.js';

const PROJECT_BADGES = /^\/api\/v4\/projects\/[^/]+\/badges$/;
const PROJECT_BADGE = /^\/api\/v4\/projects\/[^/]+\/badges\/\d+$/;
/** Enough requests for several create → read → update → delete sequences of project badges. */
const REQUESTS = 150;

let server: LocalServer;
let proxy: FaultProxy;
let work: string;
let runs = 0;

beforeAll(async () => {
  server = await startLocalServer();
  proxy = await startFaultProxy({ upstream: server.baseUrl });
  work = mkdtempSync(join(tmpdir(), 'collab-fuzz-faults-'));
  writeFileSync(join(work, 'config.json'), JSON.stringify(demoConfig(server.baseUrl)));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * `collab-conformance fuzz --only ProjectBadge --requests REQUESTS --seed 11` through the proxy, as a process
 * (the proxy and the server answer in this one), with `fault` injected; its JSON report.
 */
async function fuzzThrough(fault: Fault | undefined): Promise<FuzzReport> {
  proxy.setFault(fault);
  try {
    const report = join(work, `report-${++runs}.json`);
    const args = ['fuzz', '--base-url', proxy.url, '--config', join(work, 'config.json')];
    args.push('--only', 'ProjectBadge', '--requests', String(REQUESTS), '--seed', '11', '--parallel', '2');
    args.push('--report-json', report, '--quiet');
    const { code, output } = await runCli(args);
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as FuzzReport;
    // Exit code 1 exactly when something was found.
    expect(code, output).toBe(parsed.findings.length > 0 ? 1 : 0);
    return parsed;
  } finally {
    proxy.setFault(undefined);
  }
}

/** The operations named by findings of `check`. */
function named(report: FuzzReport, check: Check): string[] {
  return [...new Set(report.findings.filter((f) => f.check === check).map((f) => f.operationId))];
}

const notFound = (): ProxiedResponse => ({
  status: 404,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"message":"404 Badge Not Found"}'),
});

describe('fuzz reports stateful faults, naming the operation', () => {
  it('finds nothing without a fault', async () => {
    const report = await fuzzThrough(undefined);
    expect(report.findings.map(formatFinding)).toEqual([]);
    expect(report.byKind.sequence ?? 0).toBeGreaterThan(10);
  }, 600_000);

  it('reports a deleted badge still served', async () => {
    // The proxy remembers each badge as last read, and serves it again once deleted.
    const lastRead = new Map<string, ProxiedResponse>();
    const report = await fuzzThrough((request, response) => {
      const path = request.url.split('?')[0] ?? '';
      if (matches(request, 'GET', PROJECT_BADGE) && response.status === 200) lastRead.set(path, response);
      if (matches(request, 'GET', PROJECT_BADGE) && response.status === 404) return lastRead.get(path);
      return undefined;
    });
    expect(proxy.injected.length).toBeGreaterThan(0);
    expect(named(report, 'deleted resource still served')).toEqual(['getProjectBadge']);
    const finding = report.findings.find((f) => f.check === 'deleted resource still served');
    expect(finding?.curl).toMatch(/^curl .* -X GET .*\/badges\/\d+'$/);
  }, 600_000);

  it('reports a created badge not readable', async () => {
    // Every badge read right after its creation is "not found" (the proxy forgets new badges once).
    const created = new Set<string>();
    const report = await fuzzThrough((request, response) => {
      if (matches(request, 'POST', PROJECT_BADGES) && response.status === 201) {
        const { id } = JSON.parse(response.body.toString('utf8')) as { id: number };
        created.add(`${request.url.split('?')[0]}/${id}`);
      }
      const path = request.url.split('?')[0] ?? '';
      if (matches(request, 'GET', PROJECT_BADGE) && created.delete(path)) return notFound();
      return undefined;
    });
    expect(named(report, 'created resource not readable')).toEqual(['getProjectBadge']);
  }, 600_000);

  it('reports an invalid badge accepted', async () => {
    // A refused create is answered as if it had been taken: 201 with the last badge really created.
    let lastCreated: ProxiedResponse | undefined;
    const report = await fuzzThrough((request, response) => {
      if (!matches(request, 'POST', PROJECT_BADGES)) return undefined;
      if (response.status === 201) lastCreated = response;
      if (response.status === 400 && lastCreated) return lastCreated;
      return undefined;
    });
    expect(named(report, 'invalid request accepted')).toContain('addProjectBadge');
    expect(named(report, 'invalid request accepted').every((id) => id === 'addProjectBadge')).toBe(true);
  }, 600_000);
});

describe('diff follows the links of what both servers created', () => {
  // Reference: the server itself; target: the same server behind the proxy. Both creates succeed (two
  // badges, two IDs), so every difference comes from the fault on the target's side.
  async function diffThrough(fault: Fault | undefined): Promise<DiffReport> {
    proxy.setFault(fault);
    try {
      return await diff({
        reference: server.baseUrl,
        target: proxy.url,
        config: demoConfig(server.baseUrl),
        seed: 11,
        requests: 60,
        only: (entry) => /ProjectBadge/.test(entry.operationId),
      });
    } finally {
      proxy.setFault(undefined);
    }
  }

  it('finds no difference without a fault, after following links', async () => {
    const report = await diffThrough(undefined);
    expect(report.differences).toEqual([]);
    expect(report.linkRequests).toBeGreaterThan(5);
  }, 600_000);

  it("reports the target's read of its own new badge, with the target's ID in the path", async () => {
    const created = new Set<string>();
    const report = await diffThrough((request, response) => {
      if (matches(request, 'POST', PROJECT_BADGES) && response.status === 201) {
        const { id } = JSON.parse(response.body.toString('utf8')) as { id: number };
        created.add(`${request.url.split('?')[0]}/${id}`);
      }
      const path = request.url.split('?')[0] ?? '';
      if (matches(request, 'GET', PROJECT_BADGE) && created.has(path)) return notFound();
      return undefined;
    });
    const reads = report.differences.filter((difference) => difference.operationId === 'getProjectBadge');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.kind === 'status' || read.kind === 'body').toBe(true);
      expect(created.has(read.path.split('?')[0] ?? '')).toBe(true);
    }
    expect(
      reads.some((read) => read.details.includes('status 200 in the reference, 404 in the target')),
    ).toBe(true);
  }, 600_000);
});

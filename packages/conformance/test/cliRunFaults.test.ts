// The tool catches faults: `collab-conformance run --only badge` goes through a fault-injecting proxy to a
// local reference server, each fault breaking one badge operation once, and the report must fail each of
// those operations with the fault's own violation (or, for the skipped auth check, the test's assertion),
// name it in the JUnit report, and exit with 1. Every other badge operation passes in the same run (so the
// faults, not the setup, make it fail; the package test runs a clean `run`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/cli/report.js';
import { demoConfig } from '../src/config.js';
import {
  type Fault,
  type FaultProxy,
  matches,
  type ProxiedRequest,
  type ProxiedResponse,
  startFaultProxy,
  withJson,
} from '../src/faultProxy.js';
import { type LocalServer, startLocalServer } from '../src/localServer.js';
import type { Violation } from '../src/responseValidator.js';
import { runCli } from './cliProcess.js';

let server: LocalServer;
let proxy: FaultProxy;
let work: string;

beforeAll(async () => {
  server = await startLocalServer();
  proxy = await startFaultProxy({ upstream: server.baseUrl });
  work = mkdtempSync(join(tmpdir(), 'collab-cli-faults-'));
  writeFileSync(join(work, 'config.json'), JSON.stringify(demoConfig(server.baseUrl)));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  report: Report;
  junit: string;
}

/** `collab-conformance run --only badge` against the proxy. */
async function runAgainstProxy(name: string): Promise<Outcome> {
  const json = join(work, `${name}.json`);
  const junit = join(work, `${name}.xml`);
  const args = ['run', '--base-url', proxy.url, '--config', join(work, 'config.json')];
  args.push('--only', 'badge', '--report-json', json, '--report-junit', junit, '--out', join(work, name));
  // The CLI starts a vitest of its own: none of this one's variables (VITEST_*, the suite's config) leak in.
  const { code, stdout, stderr } = await runCli(args);
  return {
    code,
    stdout,
    stderr,
    report: JSON.parse(readFileSync(json, 'utf8')) as Report,
    junit: readFileSync(junit, 'utf8'),
  };
}

const PROJECT_BADGES = /^\/api\/v4\/projects\/[^/]+\/badges$/;
const PROJECT_BADGE = /^\/api\/v4\/projects\/[^/]+\/badges\/\d+$/;
const GROUP_BADGES = /^\/api\/v4\/groups\/[^/]+\/badges$/;
const GROUP_BADGE = /^\/api\/v4\/groups\/[^/]+\/badges\/\d+$/;
const TOKENS = demoConfig('').tokens;
/** Whether the request was sent with the role's token. */
const by = (request: ProxiedRequest, role: 'admin' | 'maintainer') =>
  request.headers['private-token'] === TOKENS[role];

interface InjectedFault {
  /** What the fault does, for the test's messages. */
  name: string;
  operationId: string;
  /** Rewrites the answer when the request is the fault's; undefined otherwise. */
  apply(
    request: ProxiedRequest,
    response: ProxiedResponse,
    upstream: (request: ProxiedRequest) => Promise<ProxiedResponse>,
  ): ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;
  /** Whether the report's failure for the operation is the fault's. */
  reported(failure: { violations: Violation[]; message: string; status?: number }): boolean;
}

/**
 * A fault aborts the test it hits (a contract violation throws), so the group badge faults are tied to the
 * role a later test of badges.test.ts reads with: each one is reached in a different test.
 */
const FAULTS: InjectedFault[] = [
  {
    name: 'a required field dropped',
    operationId: 'getGroupBadge',
    apply: (req, res) =>
      matches(req, 'GET', GROUP_BADGE) && by(req, 'maintainer') && res.status === 200
        ? withJson(res, (body) => {
            delete (body as Record<string, unknown>).id;
          })
        : undefined,
    reported: (f) => f.violations.some((v) => v.kind === 'body' && v.keyword === 'required'),
  },
  {
    name: 'a field of the wrong type',
    operationId: 'listGroupBadges',
    apply: (req, res) =>
      matches(req, 'GET', GROUP_BADGES) && by(req, 'maintainer') && res.status === 200 && res.body.length > 2
        ? withJson(res, (body) => {
            (body as Record<string, unknown>[])[0] = {
              ...(body as Record<string, unknown>[])[0],
              id: 'seven',
            };
          })
        : undefined,
    reported: (f) =>
      f.violations.some((v) => v.kind === 'body' && v.keyword === 'type' && v.path === '/0/id'),
  },
  {
    name: 'a null where none is allowed',
    operationId: 'updateGroupBadge',
    apply: (req, res) =>
      matches(req, 'PUT', GROUP_BADGE) && res.status === 200
        ? withJson(res, (body) => {
            (body as Record<string, unknown>).link_url = null;
          })
        : undefined,
    reported: (f) =>
      f.violations.some((v) => v.kind === 'body' && v.keyword === 'type' && v.path === '/link_url'),
  },
  {
    name: 'an undocumented status code',
    operationId: 'deleteGroupBadge',
    apply: (req, res) =>
      matches(req, 'DELETE', GROUP_BADGE) && by(req, 'admin') && res.status === 204
        ? { ...res, status: 202 }
        : undefined,
    reported: (f) => f.violations.some((v) => v.kind === 'status') && f.status === 202,
  },
  {
    name: 'a 201 turned into a 200',
    operationId: 'addProjectBadge',
    apply: (req, res) =>
      matches(req, 'POST', PROJECT_BADGES) && res.status === 201 ? { ...res, status: 200 } : undefined,
    reported: (f) => f.violations.some((v) => v.kind === 'status') && f.status === 200,
  },
  {
    name: 'a wrong content type',
    operationId: 'renderProjectBadge',
    apply: (req, res) =>
      matches(req, 'GET', /\/projects\/[^/]+\/badges\/render$/) && res.status === 200
        ? { ...res, headers: { ...res.headers, 'content-type': 'text/html; charset=utf-8' } }
        : undefined,
    reported: (f) => f.violations.some((v) => v.kind === 'content-type'),
  },
  {
    name: 'a pagination header missing',
    operationId: 'listProjectBadges',
    apply: (req, res) => {
      if (!matches(req, 'GET', PROJECT_BADGES) || res.status !== 200) return undefined;
      const { 'x-total': _, ...headers } = res.headers;
      return { ...res, headers };
    },
    reported: (f) =>
      f.violations.some(
        (v) => v.kind === 'header' && v.path?.toLowerCase() === 'x-total' && v.keyword === 'required',
      ),
  },
  {
    name: 'a 500',
    operationId: 'updateProjectBadge',
    apply: (req, res) =>
      matches(req, 'PUT', PROJECT_BADGE) && res.status === 200
        ? {
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from('{"message":"500 Internal Server Error"}'),
          }
        : undefined,
    reported: (f) => f.violations.some((v) => v.kind === 'status') && f.status === 500,
  },
  {
    name: 'an auth check skipped (a private project badge served without a token)',
    operationId: 'getProjectBadge',
    apply: async (req, res, upstream) => {
      const anonymous = req.headers['private-token'] === undefined && !req.url.includes('private_token=');
      if (!matches(req, 'GET', PROJECT_BADGE) || !anonymous || res.status !== 404) return undefined;
      if (!req.url.startsWith(`/api/v4/projects/${encodeURIComponent('acme/backend')}/`)) return undefined;
      const served = await upstream({ ...req, headers: { ...req.headers, 'private-token': TOKENS.admin } });
      return served.status === 200 ? served : undefined;
    },
    // Nothing in the answer breaks the spec (a 200 with a valid badge): the test's expectation of a 404 does.
    reported: (f) => f.status === 200 && /404/.test(f.message),
  },
];

/** Every fault, each applied to the first request it matches only (so one fault does not hide another). */
function oneShotFaults(): { fault: Fault; fired: Set<string> } {
  const fired = new Set<string>();
  const fault: Fault = async (request, response, context) => {
    for (const injected of FAULTS) {
      if (fired.has(injected.name)) continue;
      const rewritten = await injected.apply(request, response, context.upstream);
      if (rewritten) {
        fired.add(injected.name);
        return rewritten;
      }
    }
    return undefined;
  };
  return { fault, fired };
}

describe('collab-conformance run through a fault-injecting proxy', () => {
  it('reports each injected fault and names its operation', { timeout: 300_000 }, async () => {
    const { fault, fired } = oneShotFaults();
    proxy.setFault(fault);
    const { code, report, junit, stdout } = await runAgainstProxy('faults');
    proxy.setFault(undefined);

    // Every fault found a request to break, so every check below is about a fault that happened.
    expect([...fired].sort()).toEqual(FAULTS.map((f) => f.name).sort());
    expect(code, stdout).toBe(1);
    for (const injected of FAULTS) {
      const operation = report.operations.find((o) => o.operationId === injected.operationId);
      expect(operation?.state, `${injected.name}: ${injected.operationId}\n${stdout}`).toBe('fail');
      expect(
        operation?.failures.some((failure) => injected.reported(failure)),
        `${injected.name}: ${JSON.stringify(operation?.failures, null, 2)}`,
      ).toBe(true);
      // The failure carries a curl command that repeats the request, and the terminal and JUnit name it.
      expect(operation?.failures.every((failure) => failure.curl?.startsWith('curl '))).toBe(true);
      expect(stdout).toContain(`✗ ${injected.operationId}`);
      expect(junit).toMatch(new RegExp(`name="${injected.operationId} \\([^"]*\\)"[^>]*>\\s*<failure`));
    }
    // No operation is blamed for another's fault.
    expect(
      report.operations
        .filter((o) => o.state === 'fail')
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(FAULTS.map((f) => f.operationId).sort());
  });
});

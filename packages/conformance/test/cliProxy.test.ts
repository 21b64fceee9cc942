// `collab-conformance proxy` (issue 20, point 2): a client talks to a local reference server through the
// validating proxy (the command, as a process), with a fault-injecting proxy (src/faultProxy.ts) behind it
// that drops a required field from one operation's answers. The command must log that exchange as a
// violation naming the operation, the field and a curl command that repeats it, and log nothing for the
// client's other exchanges; a request that is no operation of the spec is logged too. Ctrl-C ends it with
// the counts and exit code 1.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createCollabClient } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../src/config.js';
import { type FaultProxy, matches, startFaultProxy, withJson } from '../src/faultProxy.js';
import { type LocalServer, startLocalServer } from '../src/localServer.js';
import { RUN } from '../src/run.js';
import { PACKAGE_DIR, TSX, userEnvironment } from './cliProcess.js';

const PROJECT_BADGE = /^\/api\/v4\/projects\/[^/]+\/badges\/\d+$/;
const TOKENS = demoConfig('').tokens;

let server: LocalServer;
let faults: FaultProxy;
let child: ChildProcessWithoutNullStreams;
let stdout = '';
let proxyUrl: string;

/** Resolves once the command's output matches `pattern`. */
async function output(pattern: RegExp, timeout = 120_000): Promise<string> {
  const started = Date.now();
  while (!pattern.test(stdout)) {
    if (Date.now() - started > timeout || child.exitCode !== null)
      throw new Error(`no ${pattern} in the proxy's output:\n${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return stdout;
}

beforeAll(async () => {
  server = await startLocalServer();
  // The one fault: a project badge read loses its required `image_url`.
  faults = await startFaultProxy({
    upstream: server.baseUrl,
    fault: (request, response) =>
      matches(request, 'GET', PROJECT_BADGE) && response.status === 200
        ? withJson(response, (badge) => {
            delete (badge as Record<string, unknown>).image_url;
          })
        : undefined,
  });
  // The server's URL as it prints it, with /api/v4: the proxy forwards to the origin.
  child = spawn(TSX, ['src/cli/main.ts', 'proxy', '--base-url', `${faults.url}/api/v4`, '--port', '0'], {
    cwd: PACKAGE_DIR,
    env: userEnvironment(),
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const listening = /listening on (http:\/\/\S+),/.exec(await output(/listening on http:\/\/\S+,/));
  proxyUrl = listening?.[1] ?? '';
}, 180_000);
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  await faults?.close();
  await server?.close();
});

describe('collab-conformance proxy', () => {
  it('logs the faulty exchange with its operation and a curl command, and nothing for the others', async () => {
    const client = createCollabClient({ baseUrl: proxyUrl, token: TOKENS.maintainer, retry: false });
    const project = 'acme/website';
    const created = await client.POST('/projects/{id}/badges', {
      params: { path: { id: project } },
      body: {
        name: `proxy-${RUN}`,
        link_url: 'https://example.com/%{project_path}',
        image_url: 'https://example.com/badge.svg',
      },
    });
    expect(created.response.status).toBe(201);
    const id = created.data?.id ?? 0;
    const listed = await client.GET('/projects/{id}/badges', { params: { path: { id: project } } });
    expect(listed.response.status).toBe(200);
    const read = await client.GET('/projects/{id}/badges/{badge_id}', {
      params: { path: { id: project, badge_id: id } },
    });
    expect(read.response.status).toBe(200);
    const log = await output(/VIOLATION \(response\) getProjectBadge/);
    expect(log).toMatch(/image_url/);
    expect(log).toMatch(
      new RegExp(
        `reproduce: curl .*-X GET .*'${faults.url.replace(/[.:/]/g, '\\$&')}/api/v4/projects/acme%2Fwebsite/badges/${id}'`,
      ),
    );
    expect(log).toMatch(/PRIVATE-TOKEN: <token>/i);
    // The create and the list went through clean.
    expect(log).not.toMatch(/addProjectBadge|listProjectBadges/);
    await client.DELETE('/projects/{id}/badges/{badge_id}', {
      params: { path: { id: project, badge_id: id } },
    });
  }, 120_000);

  it('reports paths outside the spec as such, not as violations, and exits 1 with the counts', async () => {
    const response = await fetch(`${proxyUrl}/api/v4/no/such/operation`, {
      headers: { 'PRIVATE-TOKEN': TOKENS.maintainer },
    });
    expect(response.status).toBe(404);
    await output(/OUTSIDE THE SPEC: GET \/api\/v4\/no\/such\/operation → 404/);
    const docs = await fetch(`${proxyUrl}/docs`);
    expect(docs.status).toBe(200);
    await docs.arrayBuffer();
    await output(/OUTSIDE THE SPEC: GET \/docs → 200/);
    child.kill('SIGINT');
    const code: number = await new Promise((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (exit) => resolve(exit ?? -1)),
    );
    expect(stdout).toMatch(
      /collab-conformance proxy: \d+ exchanges, 1 violations; \d+ checked, 2 outside the spec, 0 not selected/,
    );
    expect(stdout).not.toMatch(/VIOLATION \(response\) no operation/);
    // The one violation (the badge without image_url) makes the exit code.
    expect(code).toBe(1);
  }, 120_000);
});

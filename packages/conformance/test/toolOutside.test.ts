// The tool as a person outside this repository gets it: `pnpm pack:tool` makes one tarball, installed alone
// (`npm install ./collab-conformance.tgz`, its registry dependencies from npm) into a fresh project in the
// OS's temporary folder. The installed command then
// - diffs two fresh reference servers, one behind a proxy that drops a field: every difference it reports
//   is that field's, and it exits 1;
// - runs twice in a row against one server (exit 0 both times), writing nothing but its output folder
//   (no token in it, its temporary folder left empty) and a JUnit report with real times;
// - runs against that server behind a fault and says which operation broke, with exit code 1.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/cli/report.js';
import { demoConfig } from '../src/config.js';
import type { DiffReport } from '../src/diff/engine.js';
import { type FaultProxy, matches, startFaultProxy, withJson } from '../src/faultProxy.js';
import { type LocalServer, startLocalServer } from '../src/localServer.js';
import { PACKAGE_DIR, runToEnd } from './cliProcess.js';

const npmVersion = (() => {
  try {
    return execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();

const PROJECT_BADGE = /^\/api\/v4\/projects\/[^/]+\/badges(\/\d+)?$/;
const BADGES = /^\/api\/v4\/(projects|groups)\/[^/]+\/badges$/;
const TOKENS = Object.values(demoConfig('').tokens);

let work: string;
let app: string;
let bin: string;
/** The folder the command's TMPDIR points at: it must stay empty. */
let scratch: string;
let reference: LocalServer;
let second: LocalServer;
let faulty: FaultProxy;

/** Every file under `dir`, relative. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

function tool(args: string[]) {
  return runToEnd(bin, args, app, { TMPDIR: scratch });
}

beforeAll(async () => {
  if (!npmVersion) return;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'collab-tool-outside-')));
  scratch = join(work, 'tmp');
  app = join(work, 'app');
  mkdirSync(scratch);
  mkdirSync(app);
  execFileSync(process.execPath, ['scripts/pack.mjs', '--out', work], { cwd: PACKAGE_DIR, stdio: 'pipe' });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // The one tarball alone; its registry dependencies come from npm (its cache first).
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '../collab-conformance.tgz'],
    { cwd: app, stdio: 'pipe' },
  );
  bin = join(app, 'node_modules/.bin/collab-conformance');
  writeFileSync(join(app, 'config.json'), JSON.stringify(demoConfig('http://unused.invalid')));
  [reference, second] = await Promise.all([startLocalServer(), startLocalServer()]);
  // The second server behind a proxy that drops `name` from every badge it creates.
  faulty = await startFaultProxy({
    upstream: second.baseUrl,
    fault: (request, response) =>
      matches(request, 'POST', BADGES) && response.status === 201
        ? withJson(response, (badge) => {
            delete (badge as { name?: string }).name;
          })
        : undefined,
  });
}, 1_200_000);

afterAll(async () => {
  await faulty?.close();
  await Promise.all([reference?.close(), second?.close()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!npmVersion)('collab-conformance installed alone from its tarball', () => {
  it('diff: reports the target’s dropped field, and only that, with exit code 1', async () => {
    const args = ['diff', '--reference', `${reference.baseUrl}/api/v4`, '--target', faulty.url];
    args.push('--only', 'badge', '--seed', '5', '--requests', '48', '--report-json', 'diff.json');
    const { code, output } = await tool(args);
    expect(code, output).toBe(1);
    const report = JSON.parse(readFileSync(join(app, 'diff.json'), 'utf8')) as DiffReport;
    expect(report.requests).toBe(48);
    expect(report.differences.length, output).toBeGreaterThan(0);
    for (const difference of report.differences) {
      expect(difference, output).toMatchObject({ kind: 'body', method: 'POST' });
      expect(difference.operationId).toMatch(/^add(Project|Group)Badge$/);
      expect(difference.details.every((line) => /\/name: key missing in the target$/.test(line))).toBe(true);
    }
    expect(output).toMatch(/DIFFERENCE \(body\) step \d+, add(Project|Group)Badge: POST /);
    rmSync(join(app, 'diff.json'));
  }, 600_000);

  it('runs twice in a row against one server, exit 0, writing only its output folder', async () => {
    const before = filesUnder(app).filter((file) => !file.startsWith('node_modules/'));
    for (const round of [1, 2]) {
      const { code, output } = await tool([
        'run',
        '--base-url',
        `${reference.baseUrl}/api/v4/`,
        '--config',
        'config.json',
        '--only',
        'badge',
      ]);
      expect(code, `round ${round}\n${output}`).toBe(0);
      const report = JSON.parse(readFileSync(join(app, 'conformance-report/report.json'), 'utf8')) as Report;
      expect(report.totals, output).toEqual({ operations: 12, passed: 12, failed: 0, skipped: 0 });
      expect(report.baseUrl).toBe(reference.baseUrl);
      // Coverage: each operation's documented statuses, produced or not, add up to the spec's.
      for (const operation of report.operations)
        expect(operation.documented.produced.length, operation.operationId).toBeGreaterThan(0);
      expect(output).toMatch(/coverage: \d+ of the \d+ documented statuses/);
    }
    const after = filesUnder(app).filter((file) => !file.startsWith('node_modules/'));
    expect(after.sort()).toEqual(
      [
        ...before,
        'conformance-report/report.html',
        'conformance-report/report.json',
        'conformance-report/report.xml',
      ].sort(),
    );
    expect(readdirSync(scratch)).toEqual([]);
    for (const file of readdirSync(join(app, 'conformance-report'))) {
      const text = readFileSync(join(app, 'conformance-report', file), 'utf8');
      for (const token of TOKENS) expect(text.includes(token), `${file} holds a token`).toBe(false);
    }
    const junit = readFileSync(join(app, 'conformance-report/report.xml'), 'utf8');
    const times = [...junit.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(times).toHaveLength(12);
    expect(times.every((time) => time > 0)).toBe(true);
    const html = readFileSync(join(app, 'conformance-report/report.html'), 'utf8');
    expect(html).toContain('documented, never produced');
    expect(html).not.toMatch(/<script|src="http|href="http/);
  }, 900_000);

  it('fails the faulty operation and exits 1 against a server with a fault', async () => {
    const proxy = await startFaultProxy({
      upstream: reference.baseUrl,
      fault: (request, response) =>
        matches(request, 'GET', PROJECT_BADGE) && /\/\d+$/.test(request.url) && response.status === 200
          ? withJson(response, (badge) => {
              (badge as { id: unknown }).id = 'seven';
            })
          : undefined,
    });
    try {
      const args = [
        'run',
        '--base-url',
        proxy.url,
        '--config',
        'config.json',
        '--only',
        'badge',
        '--out',
        'faulty',
      ];
      const { code, output } = await tool(args);
      expect(code, output).toBe(1);
      const report = JSON.parse(readFileSync(join(app, 'faulty/report.json'), 'utf8')) as Report;
      const failedIds = report.operations.filter((o) => o.state === 'fail').map((o) => o.operationId);
      expect(failedIds, output).toEqual(['getProjectBadge']);
      const failure = report.operations.find((o) => o.operationId === 'getProjectBadge')?.failures[0];
      expect(failure?.violations.some((v) => v.path === '/id' && v.keyword === 'type')).toBe(true);
      expect(output).toMatch(/^FAIL +getProjectBadge /m);
      expect(readFileSync(join(app, 'faulty/report.xml'), 'utf8')).toMatch(
        /<testcase classname="Badges" name="getProjectBadge [^>]*>\s*<failure /,
      );
      expect(existsSync(join(app, 'faulty/exchanges.jsonl'))).toBe(false);
    } finally {
      await proxy.close();
    }
  }, 600_000);
});

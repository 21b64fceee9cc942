// `collab-conformance fuzz` (issue 20, points 2 and 4): the same seed plans the same requests and another
// seed others; a bounded fuzz of the reference server (2,000 requests, 20,000 in `pnpm test:full`, a fixed
// seed) finds nothing, over every kind of request (valid, invalid, auth, methods, sequences along the spec's
// links); and the command itself prints its counts and time, writes its JSON report and exits 0 (1 on
// findings, 2 on a usage error).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzReport, fuzz, fuzzPlan } from '../src/fuzz/engine.js';
import { formatFinding, formatSummary } from '../src/fuzz/output.js';
import { openTarget, type Target } from '../src/index.js';
import { loadSpecIndex } from '../src/specIndex.js';
import { FULL } from '../src/volume.js';
import { runCli } from './cliProcess.js';

const index = loadSpecIndex();
/** Requests of the bounded fuzz (ten times more in `pnpm test:full`), and its seed. */
const REQUESTS = FULL ? 20_000 : 2_000;
const SEED = 20_20;

let target: Target;
let work: string;

beforeAll(async () => {
  target = await openTarget();
  work = mkdtempSync(join(tmpdir(), 'collab-cli-fuzz-'));
  writeFileSync(join(work, 'config.json'), JSON.stringify(target.config));
});
afterAll(async () => {
  await target?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A job as text: everything that is sent (the operation, path, query, content type and body). */
function describeJob(job: ReturnType<ReturnType<typeof fuzzPlan>['job']>): string {
  if ('unsupported' in job) return `${job.entry.operationId} unsupported`;
  const body = typeof job.c.body === 'string' ? job.c.body : Buffer.from(job.c.body ?? []).toString('base64');
  return JSON.stringify([job.kind, job.entry.operationId, job.c.path, job.c.query, job.c.contentType, body]);
}

describe('collab-conformance fuzz', () => {
  it('plans the same requests for the same seed, and others for another seed', () => {
    const plan = (seed: number) => {
      const { job } = fuzzPlan(index, target.config.fixtures, index.walkable, seed);
      return Array.from({ length: 400 }, (_, i) => describeJob(job(i)));
    };
    const first = plan(7);
    expect(plan(7)).toEqual(first);
    const other = plan(8);
    expect(other.filter((text, i) => text === first[i]).length).toBeLessThan(40);
    // Every kind of request is in a plan, and the first jobs cover every operation once.
    const kinds = new Set(first.map((text) => (JSON.parse(text) as string[])[0]));
    expect([...kinds].sort()).toEqual(['auth', 'invalid', 'method', 'sequence', 'valid']);
    // Every operation but the one that would revoke the fuzz's own token (x-revokes-caller-token).
    const fuzzable = index.walkable.length;
    const operations = new Set(first.slice(0, fuzzable).map((t) => (JSON.parse(t) as string[])[1]));
    expect(operations.size).toBe(fuzzable);
  });

  it(`finds nothing in ${REQUESTS} requests to the reference server (seed ${SEED})`, async () => {
    const report: FuzzReport = await fuzz({
      config: target.config,
      requests: REQUESTS,
      // Bounded by the count alone: a loaded machine makes it slower, never shorter (20 minutes of a
      // loaded machine sent fewer than half of the 20,000).
      seconds: Number.POSITIVE_INFINITY,
      seed: SEED,
      parallel: 4,
    });
    console.info(`fuzz of the reference server:\n${formatSummary(report)}`);
    expect(report.findings.map(formatFinding)).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
    // The fuzz reached the server's own checks, not only the validator: creates made what their links read.
    expect(report.byKind.sequence ?? 0).toBeGreaterThan(100);
    expect(report.byStatus['2xx'] ?? 0).toBeGreaterThan(REQUESTS / 5);
    expect(report.operations.fuzzed).toBeGreaterThan(200);
    expect(report.unsupported).toEqual({});
    // Only against a hang: the run ends when its requests are sent.
  }, 3_600_000);

  it('prints counts and time, writes the JSON report, and exits 0 without findings (2 on a usage error)', async () => {
    const json = join(work, 'report.json');
    const run = await cli(['--config', join(work, 'config.json'), '--requests', '60', '--seed', '3']);
    const withReport = await cli([
      '--config',
      join(work, 'config.json'),
      '--requests',
      '60',
      '--seed',
      '3',
      '--only',
      'badge',
      '--report-json',
      json,
      '--quiet',
    ]);
    expect(run.stdout).toMatch(/^\d+ requests in \d+\.\d s \(\d+\/s; seed 3;/m);
    expect(run.stdout).toMatch(/findings: +none/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(withReport.code, withReport.stdout + withReport.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as FuzzReport;
    expect(report.seed).toBe(3);
    expect(report.requests).toBeGreaterThanOrEqual(60);
    expect(Object.keys(report.perOperation).every((id) => id.toLowerCase().includes('badge'))).toBe(true);
    expect(report.findings).toEqual([]);
    const usage = await cli(['--requests', 'many']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Usage: collab-conformance fuzz/);
  }, 600_000);
});

/** `collab-conformance fuzz ARGS` as a process. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // None of this test's variables (VITEST_*, the suite's config and run suffix) leak into the command.
  const { code, stdout, stderr } = await runCli(['fuzz', ...args]);
  return { code, stdout, stderr };
}

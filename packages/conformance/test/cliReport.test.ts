// The report of `collab-conformance run` (src/cli/report.ts), built from made-up exchanges and test results:
// which operations a run limited by --only shows.
import { describe, expect, it } from 'vitest';
import { onlyMatcher } from '../src/cli/options.js';
import { buildReport, type ReportInput } from '../src/cli/report.js';
import { loadSpecIndex } from '../src/specIndex.js';

const operations = loadSpecIndex().operations;

function exchangeTo(operationId: string, status: number): ReportInput['exchanges'][number] {
  return {
    operationId,
    method: 'GET',
    url: `http://127.0.0.1/api/v4/${operationId}`,
    status,
    problems: [],
    violations: [],
    curl: 'curl …',
  };
}

function reportOf(only: string | undefined, sent: string[]) {
  return buildReport({
    baseUrl: 'http://127.0.0.1',
    startedAt: new Date(0),
    durationMs: 1,
    operations,
    exchanges: sent.map((operationId) => exchangeTo(operationId, 200)),
    tests: [],
    files: [],
    ...(only ? { only: { pattern: only, selects: onlyMatcher(only) } } : {}),
  });
}

describe('the operations a report shows', () => {
  it('shows every operation of the spec without --only, those without requests skipped', () => {
    const report = reportOf(undefined, ['listProjectBadges']);
    expect(report.totals.operations).toBe(operations.length);
    expect(report.totals.passed).toBe(1);
    expect(report.totals.skipped).toBe(operations.length - 1);
  });

  it('shows the operations --only matches, whatever else the tests sent', () => {
    const report = reportOf('*ProjectBadge*', ['listProjectBadges', 'createProject']);
    const shown = report.operations.map((o) => o.operationId);
    expect(shown).toContain('listProjectBadges');
    expect(shown).not.toContain('createProject');
    expect(shown.every((id) => /ProjectBadge/.test(id))).toBe(true);
  });

  it('shows the operations the tests sent to when --only names a test file and no operation', () => {
    const report = reportOf('parameterReading', ['listProjects', 'getGroup', 'getGroup']);
    expect(report.operations.map((o) => o.operationId).sort()).toEqual(['getGroup', 'listProjects']);
    expect(report.totals).toEqual({ operations: 2, passed: 2, failed: 0, skipped: 0 });
    expect(report.operations.find((o) => o.operationId === 'getGroup')?.requests).toBe(2);
  });
});

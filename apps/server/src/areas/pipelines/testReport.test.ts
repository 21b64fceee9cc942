import { describe, expect, it } from 'vitest';
import type { CiTestCase } from './config.js';
import { buildTestReport } from './testReport.js';

function testCase(name: string, status: CiTestCase['status'], executionTime: number): CiTestCase {
  return {
    name,
    classname: 'spec',
    status,
    execution_time: executionTime,
    system_output: null,
    stack_trace: null,
  };
}

describe('buildTestReport', () => {
  it('gives zero totals and no suites without reports', () => {
    expect(buildTestReport([])).toEqual({
      total_time: 0,
      total_count: 0,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      error_count: 0,
      test_suites: [],
    });
  });

  it('counts each status per suite and overall, and merges suites of the same name across jobs', () => {
    const report = buildTestReport([
      [
        { name: 'unit', cases: [testCase('a', 'success', 0.1), testCase('b', 'failed', 0.2)] },
        { name: 'lint', cases: [testCase('c', 'skipped', 0)] },
      ],
      [{ name: 'unit', cases: [testCase('d', 'error', 1.5)] }],
    ]);
    expect(report.test_suites.map((suite) => [suite.name, suite.test_cases.map((c) => c.name)])).toEqual([
      ['unit', ['a', 'b', 'd']],
      ['lint', ['c']],
    ]);
    expect(report.test_suites[0]).toMatchObject({
      total_time: 1.8,
      total_count: 3,
      success_count: 1,
      failed_count: 1,
      skipped_count: 0,
      error_count: 1,
    });
    expect(report).toMatchObject({
      total_time: 1.8,
      total_count: 4,
      success_count: 1,
      failed_count: 1,
      skipped_count: 1,
      error_count: 1,
    });
  });

  it('rounds summed times so that float noise does not show', () => {
    const report = buildTestReport([
      [{ name: 's', cases: [testCase('a', 'success', 0.1), testCase('b', 'success', 0.2)] }],
    ]);
    expect(report.total_time).toBe(0.3);
  });
});

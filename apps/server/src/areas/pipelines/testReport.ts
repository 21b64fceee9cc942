// Builds a pipeline's test report from the test suites its finished jobs declared, counting as it goes.
// Pure: suites of the same name from several jobs are merged into one, in the order they first appear.
import type { Schemas } from '../../core/http/types.js';
import type { CiTestSuite } from './config.js';

export type TestReport = Schemas['PipelineTestReport'];
export type TestSuiteReport = Schemas['PipelineTestSuite'];

/** Sums of seconds are rounded to the millisecond so that float noise (0.1 + 0.2) never shows. */
function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function emptySuite(name: string): TestSuiteReport {
  return {
    name,
    total_time: 0,
    total_count: 0,
    success_count: 0,
    failed_count: 0,
    skipped_count: 0,
    error_count: 0,
    test_cases: [],
  };
}

type Counts = Pick<
  TestSuiteReport,
  'total_time' | 'total_count' | 'success_count' | 'failed_count' | 'skipped_count' | 'error_count'
>;

function countCases(cases: TestSuiteReport['test_cases']): Counts {
  const counts: Counts = {
    total_time: 0,
    total_count: 0,
    success_count: 0,
    failed_count: 0,
    skipped_count: 0,
    error_count: 0,
  };
  for (const testCase of cases) {
    counts.total_time += testCase.execution_time;
    counts.total_count += 1;
    counts[`${testCase.status}_count`] += 1;
  }
  counts.total_time = roundSeconds(counts.total_time);
  return counts;
}

/** `suitesPerJob`: the declared suites of each job that has finished, in job order. */
export function buildTestReport(suitesPerJob: readonly (readonly CiTestSuite[])[]): TestReport {
  const suites = new Map<string, TestSuiteReport>();
  for (const jobSuites of suitesPerJob) {
    for (const suite of jobSuites) {
      const report = suites.get(suite.name) ?? emptySuite(suite.name);
      report.test_cases.push(...suite.cases.map((testCase) => ({ ...testCase })));
      suites.set(suite.name, report);
    }
  }
  const testSuites = [...suites.values()].map((suite) => ({ ...suite, ...countCases(suite.test_cases) }));
  const totals = countCases(testSuites.flatMap((suite) => suite.test_cases));
  return { ...totals, test_suites: testSuites };
}

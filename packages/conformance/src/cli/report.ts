// The per-operation report of `collab-conformance run`: every operation of the bundled spec, passed, failed
// or skipped with a reason, built from the recorded exchanges (which operation each request went to, and
// what its response broke) and the test results; printed as a table, written as JSON and as JUnit XML.

import type { Violation } from '../responseValidator.js';
import type { OperationEntry } from '../specIndex.js';
import type { Exchange } from '../validatingFetch.js';

/** A test's result, as the run's reporter hands it over (independent of vitest's classes). */
export interface TestOutcome {
  id: string;
  /** Absolute path of the test file. */
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped';
  errors: string[];
  /** How long the test ran, in milliseconds. */
  ms?: number;
}

/** A test file that did not run, or failed as a whole (an error in a hook or at load). */
export interface FileOutcome {
  file: string;
  /** Why it did not run (`skipped`), or its own errors (`failed`). */
  state: 'skipped' | 'failed';
  reason: string;
}

export interface Failure {
  operationId: string | undefined;
  /** `file › test name` of the test that saw it, when a test did. */
  test?: string;
  method?: string;
  url?: string;
  status?: number;
  /** The test's assertion, or the contract violations as text. */
  message: string;
  violations: Violation[];
  curl?: string;
  /** For a failure no operation is named for: how long its test ran. */
  ms?: number;
}

export type OperationState = 'pass' | 'fail' | 'skip';

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  state: OperationState;
  /** Why it was skipped. */
  reason?: string;
  /** How many requests went to it, and the statuses they got. */
  requests: number;
  statuses: number[];
  /** Coverage: the statuses the spec documents for it (`200`, `4XX`, `default`), produced or never produced. */
  documented: { produced: string[]; notProduced: string[] };
  /** Milliseconds its requests took, together. */
  ms: number;
  failures: Failure[];
}

export interface Report {
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  /** The --only pattern, when the run was limited. */
  only?: string;
  totals: { operations: number; passed: number; failed: number; skipped: number };
  /** Coverage of the documented statuses of the operations shown: how many the run produced, of how many. */
  coverage: { produced: number; documented: number };
  tests: { passed: number; failed: number; skipped: number };
  operations: OperationResult[];
  /** Failures no operation can be named for (a test that failed before any request, a file that could not load). */
  unattributed: Failure[];
  files: FileOutcome[];
}

export interface ReportInput {
  baseUrl: string;
  startedAt: Date;
  durationMs: number;
  operations: OperationEntry[];
  exchanges: Exchange[];
  tests: TestOutcome[];
  files: FileOutcome[];
  /** Optional fixtures the config lacks (`scim`): the operations of the tag they are named after skip. */
  configGaps?: string[];
  /** The operations the run was limited to (--only), and the pattern. */
  only?: { pattern: string; selects(entry: OperationEntry): boolean };
}

/** Failures kept per operation in the report (the first ones; a broken server repeats itself). */
const MAX_FAILURES = 20;

/** Lower-case words of a camelCase name or a tag ("Project import/export" → project, import, export). */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a test file is about a tag: every word of its name is a word of the tag (branches → Protected branches). */
export function fileCoversTag(file: string, tag: string): boolean {
  const own = words((file.split('/').at(-1) ?? '').replace(/\.test\.ts$/, ''));
  const of = new Set(words(tag));
  return own.length > 0 && own.every((word) => of.has(word));
}

function relative(file: string): string {
  const at = file.lastIndexOf('/test/');
  return at >= 0 ? file.slice(at + 1) : file;
}

function failureOf(exchange: Exchange, test: string | undefined, message?: string): Failure {
  return {
    operationId: exchange.operationId,
    test,
    method: exchange.method,
    url: exchange.url,
    status: exchange.status,
    message: message ?? exchange.problems.join('; '),
    violations: exchange.violations,
    curl: exchange.curl,
  };
}

export function buildReport(input: ReportInput): Report {
  const byOperation = new Map<
    string,
    { requests: number; statuses: Set<number>; failures: Failure[]; ms: number }
  >();
  const slot = (operationId: string) => {
    let entry = byOperation.get(operationId);
    if (!entry) {
      entry = { requests: 0, statuses: new Set(), failures: [], ms: 0 };
      byOperation.set(operationId, entry);
    }
    return entry;
  };
  const unattributed: Failure[] = [];
  const operationIds = new Set(input.operations.map((entry) => entry.operationId));
  const testName = new Map(input.tests.map((t) => [t.id, `${relative(t.file)} › ${t.name}`]));

  // Every response that broke the contract fails its operation, whichever test (or hook) sent it.
  const byTest = new Map<string, Exchange[]>();
  const hooksByFile = new Map<string, Exchange[]>();
  for (const exchange of input.exchanges) {
    const ref = exchange.test;
    if (ref && 'id' in ref) byTest.set(ref.id, [...(byTest.get(ref.id) ?? []), exchange]);
    else if (ref) hooksByFile.set(ref.file, [...(hooksByFile.get(ref.file) ?? []), exchange]);
    const name = ref && 'id' in ref ? testName.get(ref.id) : ref ? relative(ref.file) : undefined;
    if (exchange.operationId === undefined) {
      if (exchange.violations.length > 0) unattributed.push(failureOf(exchange, name));
      continue;
    }
    const entry = slot(exchange.operationId);
    entry.requests++;
    entry.ms += exchange.ms ?? 0;
    entry.statuses.add(exchange.status);
    if (exchange.violations.length > 0) entry.failures.push(failureOf(exchange, name));
  }

  // A test that failed on its own assertion (not a contract violation, already counted) is charged to the
  // operation of its last request: a test checks the answer it just got.
  for (const test of input.tests) {
    if (test.state !== 'failed') continue;
    // A ContractViolation (the validating fetch's) is already counted with its exchange.
    if (test.errors.length > 0 && test.errors.every((error) => error.includes('breaks the contract')))
      continue;
    // A test named after an operation (the spec-driven files: `... > createProject: ...`) is charged to it:
    // those tests run concurrently, so their last request may be another test's operation.
    const named = [...test.name.matchAll(/\b([a-z][A-Za-z0-9]+)\b/g)]
      .map((match) => match[1] as string)
      .find((word) => operationIds.has(word));
    const all = byTest.get(test.id) ?? [];
    const sent = named ? all.filter((exchange) => exchange.operationId === named) : all;
    const last = sent.at(-1);
    const name = `${relative(test.file)} › ${test.name}`;
    if (named && !last) {
      slot(named).failures.push({
        operationId: named,
        test: name,
        message: test.errors.join('\n') || 'failed',
        violations: [],
      });
      continue;
    }
    const message = test.errors.join('\n') || 'failed';
    if (last?.operationId) slot(last.operationId).failures.push(failureOf(last, name, message));
    else if (last) unattributed.push({ ...failureOf(last, name, message), ms: test.ms ?? 0 });
    else unattributed.push({ operationId: undefined, test: name, message, violations: [], ms: test.ms ?? 0 });
  }
  // A file that failed as a whole (a hook, or loading it): charged to the last request of its hooks.
  for (const file of input.files) {
    if (file.state !== 'failed') continue;
    const sent = hooksByFile.get(file.file) ?? [];
    if (sent.some((exchange) => exchange.violations.length > 0)) continue;
    const last = sent.at(-1);
    const failure: Failure = last
      ? failureOf(last, relative(file.file), file.reason)
      : { operationId: undefined, test: relative(file.file), message: file.reason, violations: [] };
    if (last?.operationId) slot(last.operationId).failures.push(failure);
    else unattributed.push(failure);
  }

  const skippedFiles = input.files.filter((file) => file.state === 'skipped');
  const operations: OperationResult[] = input.operations.map((entry) => {
    const seen = byOperation.get(entry.operationId);
    const base = {
      operationId: entry.operationId,
      method: entry.method,
      path: entry.template,
      tag: String((entry.operation.tags as string[] | undefined)?.[0] ?? ''),
      requests: seen?.requests ?? 0,
      statuses: [...(seen?.statuses ?? [])].sort((a, b) => a - b),
      documented: coverageOf(entry, seen?.statuses ?? new Set()),
      ms: seen?.ms ?? 0,
      failures: (seen?.failures ?? []).slice(0, MAX_FAILURES),
    };
    if (seen && seen.failures.length > 0) return { ...base, state: 'fail' };
    if (seen) return { ...base, state: 'pass' };
    return { ...base, state: 'skip', reason: skipReason(base.tag, input, skippedFiles) };
  });
  const matched = input.only
    ? operations.filter((_, i) => input.only?.selects(input.operations[i] as OperationEntry))
    : operations;
  // A run limited by a test file's name alone (--only parameterReading) matches no operation: it reports the
  // operations its tests sent requests to.
  const selected = input.only && matched.length === 0 ? operations.filter((o) => o.requests > 0) : matched;
  // A limited run still reports failures of the operations outside it that its tests ran into.
  const outside = input.only ? operations.filter((o) => o.state === 'fail' && !selected.includes(o)) : [];
  const shown = [...selected, ...outside];

  const count = (state: OperationState) => shown.filter((o) => o.state === state).length;
  const tests = (state: TestOutcome['state']) => input.tests.filter((t) => t.state === state).length;
  return {
    baseUrl: input.baseUrl,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    ...(input.only ? { only: input.only.pattern } : {}),
    totals: {
      operations: shown.length,
      passed: count('pass'),
      failed: count('fail'),
      skipped: count('skip'),
    },
    coverage: {
      produced: shown.reduce((sum, o) => sum + o.documented.produced.length, 0),
      documented: shown.reduce(
        (sum, o) => sum + o.documented.produced.length + o.documented.notProduced.length,
        0,
      ),
    },
    tests: { passed: tests('passed'), failed: tests('failed'), skipped: tests('skipped') },
    operations: shown,
    unattributed,
    files: input.files,
  };
}

/** Which of the operation's documented statuses (`404`, a range `4XX`, `default`) the run produced. */
export function coverageOf(
  entry: OperationEntry,
  statuses: ReadonlySet<number>,
): OperationResult['documented'] {
  const documented = Object.keys((entry.operation.responses as Record<string, unknown> | undefined) ?? {});
  const exact = new Set(documented.filter((key) => /^\d{3}$/.test(key)));
  const produced = (key: string) => {
    if (exact.has(key)) return statuses.has(Number(key));
    const range = /^([1-5])XX$/i.exec(key);
    if (range)
      return [...statuses].some((status) => String(status)[0] === range[1] && !exact.has(String(status)));
    // `default`: any status the operation documents no other way.
    return [...statuses].some(
      (status) => !exact.has(String(status)) && !documented.includes(`${String(status)[0]}XX`),
    );
  };
  return {
    produced: documented.filter(produced),
    notProduced: documented.filter((key) => !produced(key)),
  };
}

function skipReason(tag: string, input: ReportInput, skippedFiles: FileOutcome[]): string {
  const tagWords = new Set(words(tag));
  const gaps = (input.configGaps ?? []).filter((gap) => words(gap).every((word) => tagWords.has(word)));
  if (gaps.length > 0) return `config lacks ${gaps.map((gap) => `fixtures.${gap}`).join(', ')}`;
  const why = ['not exercised by any test'];
  const skippedTests = input.tests.filter((t) => t.state === 'skipped' && fileCoversTag(t.file, tag));
  if (skippedTests.length > 0) {
    const files = [...new Set(skippedTests.map((t) => relative(t.file)))];
    why.push(`${skippedTests.length} test(s) of ${files.join(', ')} skipped themselves`);
  }
  const notRun = skippedFiles.filter((f) => fileCoversTag(f.file, tag));
  if (notRun.length > 0)
    why.push(`not run: ${notRun.map((f) => `${relative(f.file)} (${f.reason})`).join(', ')}`);
  return why.join('; ');
}

/** Whether a run failed: any failed operation, or any failure no operation could be named for. */
export function failed(report: Report): boolean {
  return report.totals.failed > 0 || report.unattributed.length > 0 || report.tests.failed > 0;
}

/** Whether a run checked nothing: no request reached an operation it reports. */
export function checkedNothing(report: Report): boolean {
  return report.operations.every((o) => o.requests === 0);
}

// --- Terminal output -------------------------------------------------------------------------------------

const MARK: Record<OperationState, string> = { pass: 'pass', fail: 'FAIL', skip: 'skip' };

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function describeViolation(violation: Violation): string {
  const where = [
    violation.kind,
    violation.path !== undefined ? `at ${violation.path || '(root)'}` : undefined,
    violation.keyword ? `keyword ${violation.keyword}` : undefined,
    violation.schemaPath ? `(${violation.schemaPath})` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return `${where}: ${violation.message}`;
}

/** The per-operation table, then every failure with its violations and curl command, then the totals. */
export function formatReport(report: Report): string {
  const lines: string[] = [];
  const idWidth = Math.max(11, ...report.operations.map((o) => o.operationId.length));
  const pathWidth = Math.max(4, ...report.operations.map((o) => o.method.length + 1 + o.path.length));
  lines.push(`${pad('result', 6)}  ${pad('operation', idWidth)}  ${pad('request', pathWidth)}  detail`);
  for (const o of report.operations) {
    const detail =
      o.state === 'skip'
        ? (o.reason ?? '')
        : `${o.requests} request(s), status ${o.statuses.join(', ')}${o.state === 'fail' ? `; ${o.failures.length} failure(s)` : ''}` +
          `; documented statuses never produced: ${o.documented.notProduced.join(', ') || 'none'}`;
    lines.push(
      `${pad(MARK[o.state], 6)}  ${pad(o.operationId, idWidth)}  ${pad(`${o.method} ${o.path}`, pathWidth)}  ${detail}`,
    );
  }
  const failures = [...report.operations.flatMap((o) => o.failures), ...report.unattributed];
  if (failures.length > 0) {
    lines.push('', `Failures (${failures.length}):`);
    for (const f of failures) {
      lines.push('', `✗ ${f.operationId ?? '(no operation)'}${f.test ? `  [${f.test}]` : ''}`);
      if (f.method) lines.push(`  ${f.method} ${f.url} → ${f.status}`);
      for (const violation of f.violations) lines.push(`  - ${describeViolation(violation)}`);
      if (f.violations.length === 0)
        for (const line of f.message.split('\n').slice(0, 12)) lines.push(`  ${line}`);
      if (f.curl) lines.push(`  reproduce: ${f.curl}`);
    }
  }
  const failedFiles = report.files.filter((f) => f.state === 'failed');
  for (const f of failedFiles)
    lines.push('', `test file ${relative(f.file)} failed: ${f.reason.split('\n')[0]}`);
  const t = report.totals;
  lines.push(
    '',
    `${t.operations} operations${report.only ? ` (--only ${report.only})` : ''}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped` +
      ` · tests ${report.tests.passed} passed, ${report.tests.failed} failed, ${report.tests.skipped} skipped` +
      ` · ${(report.durationMs / 1000).toFixed(1)} s`,
    `coverage: ${report.coverage.produced} of the ${report.coverage.documented} documented statuses of these operations produced` +
      ` (${percent(report.coverage.produced, report.coverage.documented)})`,
  );
  return lines.join('\n');
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`;
}

// --- JUnit XML -------------------------------------------------------------------------------------------

function xml(text: string): string {
  // XML 1.0 has no place for control characters other than tab, newline and carriage return.
  const printable = [...text].filter(
    (c) => c.charCodeAt(0) >= 0x20 || c === '\t' || c === '\n' || c === '\r',
  );
  return printable
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function failureText(f: Failure): string {
  return [
    f.test ? `test: ${f.test}` : undefined,
    f.method ? `${f.method} ${f.url} → ${f.status}` : undefined,
    ...f.violations.map((v) => `- ${describeViolation(v)}`),
    f.violations.length === 0 ? f.message : undefined,
    f.curl ? `reproduce: ${f.curl}` : undefined,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** One test case per operation (classname: its tag), failed with its failures or skipped with the reason. */
export function junitReport(report: Report): string {
  const cases = report.operations.map((o) => {
    const open = `    <testcase classname="${xml(o.tag || 'operations')}" name="${xml(`${o.operationId} (${o.method} ${o.path})`)}" time="${seconds(o.ms)}">`;
    if (o.state === 'skip')
      return `${open}\n      <skipped message="${xml(o.reason ?? '')}"/>\n    </testcase>`;
    if (o.state === 'pass') return `${open}</testcase>`;
    const first = o.failures[0];
    return `${open}\n      <failure message="${xml(first?.message.split('\n')[0] ?? 'failed')}" type="ContractViolation">${xml(o.failures.map(failureText).join('\n\n'))}</failure>\n    </testcase>`;
  });
  for (const f of report.unattributed) {
    cases.push(
      `    <testcase classname="unattributed" name="${xml(f.test ?? 'failure')}" time="${seconds(f.ms ?? 0)}">\n      <failure message="${xml(f.message.split('\n')[0] ?? '')}">${xml(failureText(f))}</failure>\n    </testcase>`,
    );
  }
  const t = report.totals;
  const failures = t.failed + report.unattributed.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="collab-conformance" tests="${cases.length}" failures="${failures}" skipped="${t.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="operations" timestamp="${report.startedAt}" tests="${cases.length}" failures="${failures}" skipped="${t.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// `collab-conformance run`: the suite's test files (vitest, through its Node API) against the server at
// --base-url with the tokens and fixtures of --config, then a report per operation of the bundled spec.
// The tests read the configuration as always (COLLAB_CONFORMANCE_CONFIG, see src/config.ts); the validating
// fetch appends every exchange to a JSONL file (COLLAB_CONFORMANCE_EXCHANGES) that the report is built from.
/// <reference types="vitest/config" />
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { type ConformanceConfig, configFromEnvironment } from '../config.js';
import { loadSpecIndex, type OperationEntry } from '../specIndex.js';
import type { Exchange } from '../validatingFetch.js';
import {
  buildReport,
  type FileOutcome,
  failed,
  fileCoversTag,
  formatReport,
  junitReport,
  type TestOutcome,
} from './report.js';

export const summary = 'run the conformance suite against a server and report per operation';

export const usage = `Usage: collab-conformance run --base-url URL --config FILE [options]

Runs every test file of the suite against the server at URL, one file after the other, and reports every
operation of the bundled spec as passed, failed (with the violations and a curl command per failure) or
skipped (with the reason). Exits with 1 when anything failed, 2 on a usage or configuration error.

Options:
  --base-url URL        the server, without /api/v4 (overrides the config's baseUrl)
  --config FILE         JSON: baseUrl, a token per role and the fixtures (see ConformanceConfig;
                        the reference server writes one: --write-conformance-config FILE)
  --report-json FILE    write the report as JSON
  --report-junit FILE   write the report as JUnit XML (one test case per operation)
  --only PATTERN        limit the run to operations whose operationId or tag matches: comma-separated
                        terms, each a case-insensitive substring or a glob with * (e.g. "*Badge*,Branches");
                        only the test files of the selected operations' tags run; a term may also
                        name test files (--only parameterReading), whose operations are then reported
  --exchanges FILE      where to write the exchanges (JSONL); a temporary file by default
  --test-timeout MS     per-test timeout (default 30000)
  --verbose             show the tests' own output
  -h, --help            this text
`;

/** The package's root: two levels above this file, in src/cli (source) as in dist/cli (built). */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEST_DIR = join(PACKAGE_ROOT, 'test');
/** The setup file, as TypeScript source: it must share the validating fetch module with the test files. */
const SETUP_FILE = join(PACKAGE_ROOT, 'src/cli/setup.ts');

/**
 * Test files that check the tool or the spec rather than the server under test. Files named cli*, fuzz*,
 * proxy* and package* test the tool too.
 */
const TOOL_TESTS = new Set([
  'spec.test.ts',
  'audit-spec.test.ts',
  'responseValidator.test.ts',
  'curl.test.ts',
  'docs.browser.test.ts',
  'faultProxy.test.ts',
]);
const TOOL_PREFIX = /^(cli|fuzz|proxy|package)/;

/** Fixtures a config may leave out: the tests that need them skip themselves (see ConformanceConfig). */
const OPTIONAL_FIXTURES = ['scim'] as const;

interface Options {
  baseUrl: string | undefined;
  config: string | undefined;
  reportJson: string | undefined;
  reportJunit: string | undefined;
  only: string | undefined;
  exchanges: string | undefined;
  testTimeout: number;
  verbose: boolean;
  help: boolean;
}

function parse(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      config: { type: 'string' },
      'report-json': { type: 'string' },
      'report-junit': { type: 'string' },
      only: { type: 'string' },
      exchanges: { type: 'string' },
      'test-timeout': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const timeout = Number(values['test-timeout'] ?? 30_000);
  if (!Number.isInteger(timeout) || timeout <= 0) throw new UsageError('--test-timeout takes milliseconds');
  return {
    baseUrl: values['base-url'],
    config: values.config,
    reportJson: values['report-json'],
    reportJunit: values['report-junit'],
    only: values.only,
    exchanges: values.exchanges,
    testTimeout: timeout,
    verbose: values.verbose ?? false,
    help: values.help ?? false,
  };
}

export class UsageError extends Error {}

// --- Selecting operations and test files -----------------------------------------------------------------

function tagOf(entry: OperationEntry): string {
  return String((entry.operation.tags as string[] | undefined)?.[0] ?? '');
}

/** --only: whether an operation is selected. */
export function onlyMatcher(pattern: string): (entry: OperationEntry) => boolean {
  const terms = pattern
    .split(',')
    .map((term) => term.trim().toLowerCase())
    .filter(Boolean);
  const tests = terms.map((term) => {
    if (term.includes('*')) {
      const glob = new RegExp(
        `^${term
          .split('*')
          .map((part) => part.replace(/[.+?^$(){}|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
      return (entry: OperationEntry) =>
        glob.test(entry.operationId.toLowerCase()) || glob.test(tagOf(entry).toLowerCase());
    }
    return (entry: OperationEntry) =>
      entry.operationId.toLowerCase().includes(term) || tagOf(entry).toLowerCase() === term;
  });
  return (entry) => tests.some((test) => test(entry));
}

/** The bare package names a test file imports (to skip a file whose packages are not installed). */
function importedPackages(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\bfrom\s+'([^'.][^']*)'/g)) {
    const specifier = match[1] as string;
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return [...names];
}

export interface Selection {
  files: string[];
  skipped: FileOutcome[];
}

/**
 * The suite's test files; with --only, the files whose name's words all belong to the tag of a selected
 * operation (badges.test.ts for the tag Badges, branches.test.ts for Protected branches too), or that a term
 * names. A file that imports a package this installation lacks is skipped with that reason.
 */
export function selectTestFiles(operations: OperationEntry[], only: string | undefined): Selection {
  const require = createRequire(join(PACKAGE_ROOT, 'package.json'));
  const names = readdirSync(TEST_DIR)
    .filter((name) => name.endsWith('.test.ts') && !TOOL_TESTS.has(name) && !TOOL_PREFIX.test(name))
    .sort();
  const selects = only ? onlyMatcher(only) : undefined;
  const tags = selects ? [...new Set(operations.filter(selects).map(tagOf))] : [];
  const terms =
    only
      ?.split(',')
      .map((term) => term.trim().toLowerCase())
      .filter((term) => term && !term.includes('*')) ?? [];
  const files: string[] = [];
  const skipped: FileOutcome[] = [];
  for (const name of names) {
    const stem = name.replace(/\.test\.ts$/, '');
    if (selects) {
      const byTag = tags.some((tag) => fileCoversTag(name, tag));
      const byName = terms.some((term) => stem.toLowerCase().includes(term));
      if (!byTag && !byName) continue;
    }
    const file = join(TEST_DIR, name);
    const missing = importedPackages(readFileSync(file, 'utf8')).filter((pkg) => {
      try {
        require.resolve(pkg);
        return false;
      } catch {
        // A package without a main entry (types only) resolves through its package.json.
        try {
          require.resolve(`${pkg}/package.json`);
          return false;
        } catch {
          return true;
        }
      }
    });
    if (missing.length > 0)
      skipped.push({ file, state: 'skipped', reason: `needs ${missing.join(', ')}, not installed` });
    else files.push(file);
  }
  return { files, skipped };
}

// --- Progress and results -------------------------------------------------------------------------------

/** A progress line on stderr (one updating line on a TTY, a line every 10 s otherwise) and the results. */
class RunReporter implements Reporter {
  readonly tests = new Map<string, TestOutcome>();
  readonly files: FileOutcome[] = [];
  private filesTotal = 0;
  private filesDone = 0;
  private testsTotal = 0;
  private testsDone = 0;
  private failures = 0;
  private current = '';
  private readonly started = Date.now();
  private lastLine = 0;
  private readonly tty = Boolean(process.stderr.isTTY);
  private timer: NodeJS.Timeout | undefined;

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.filesTotal = specifications.length;
    this.timer = setInterval(() => this.progress(), this.tty ? 1000 : 10_000);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.current = basename(module.moduleId);
    this.progress(true);
  }

  onTestModuleCollected(module: TestModule): void {
    for (const _ of module.children.allTests()) this.testsTotal++;
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const state = result.state === 'failed' ? 'failed' : result.state === 'passed' ? 'passed' : 'skipped';
    this.testsDone++;
    if (state === 'failed') this.failures++;
    this.tests.set(testCase.id, {
      id: testCase.id,
      file: testCase.module.moduleId,
      name: testCase.fullName,
      state,
      errors: (result.errors ?? []).map((error) => error.message ?? String(error)),
    });
    this.progress(true);
  }

  onTestModuleEnd(module: TestModule): void {
    this.filesDone++;
    const errors = module.errors();
    if (errors.length > 0)
      this.files.push({
        file: module.moduleId,
        state: 'failed',
        reason: errors.map((error) => error.message ?? String(error)).join('\n'),
      });
    this.progress(true);
  }

  onTestRunEnd(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.tty) process.stderr.write('\r\x1b[K');
  }

  private progress(event = false): void {
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const line =
      `files ${this.filesDone}/${this.filesTotal} · tests ${this.testsDone}/${this.testsTotal}` +
      ` · ${this.failures} failed · ${seconds} s${this.current ? ` · ${this.current}` : ''}`;
    if (this.tty) {
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
    } else if (!event || Date.now() - this.lastLine >= 10_000) {
      // Off a terminal: a line at most every 10 s, so a CI log shows the run moving without a flood.
      this.lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    }
  }
}

function readExchanges(file: string): Exchange[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exchange);
}

/** The config file, validated, with --base-url applied; written to `dir` for the test workers. */
function effectiveConfig(options: Options, dir: string): { file: string; config: ConformanceConfig } {
  if (!options.config) throw new UsageError('--config FILE is required');
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(options.config, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot read --config ${options.config}: ${(error as Error).message}`);
  }
  if (options.baseUrl) raw.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  if (typeof raw.baseUrl !== 'string')
    throw new UsageError('--base-url URL is required (or baseUrl in the config)');
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(raw, null, 2));
  try {
    const config = configFromEnvironment({ COLLAB_CONFORMANCE_CONFIG: file });
    if (!config) throw new Error('no configuration');
    return { file, config };
  } catch (error) {
    throw new UsageError((error as Error).message.replace(file, options.config));
  }
}

export async function main(args: string[]): Promise<number> {
  let options: Options;
  try {
    options = parse(args);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'collab-conformance-run-'));
  let config: { file: string; config: ConformanceConfig };
  try {
    config = effectiveConfig(options, runDir);
  } catch (error) {
    process.stderr.write(`collab-conformance run: ${(error as Error).message}\n`);
    return 2;
  }
  const index = loadSpecIndex();
  const selection = selectTestFiles(index.operations, options.only);
  const exchangesFile = resolve(options.exchanges ?? join(runDir, 'exchanges.jsonl'));
  writeFileSync(exchangesFile, '');

  // The test workers inherit this environment: the configured server, and where to record exchanges.
  process.env.COLLAB_CONFORMANCE_CONFIG = config.file;
  process.env.COLLAB_CONFORMANCE_EXCHANGES = exchangesFile;
  delete process.env.COLLAB_BASE_URL;

  process.stderr.write(
    `collab-conformance: ${selection.files.length} test file(s) against ${config.config.baseUrl}` +
      `${options.only ? ` (--only ${options.only})` : ''}; exchanges in ${exchangesFile}\n`,
  );
  const startedAt = new Date();
  const reporter = new RunReporter();
  if (selection.files.length > 0) {
    const { createVitest } = await import('vitest/node');
    const vitest = await createVitest(
      'test',
      {
        root: PACKAGE_ROOT,
        config: false,
        watch: false,
        include: ['test/**/*.test.ts'],
        setupFiles: [SETUP_FILE],
        reporters: [reporter],
        // One server for every file: the files run one after the other (as in vitest.config.ts).
        maxWorkers: 1,
        fileParallelism: false,
        testTimeout: options.testTimeout,
        // The spec-driven files probe every operation in beforeAll; on a loaded machine that takes minutes.
        hookTimeout: 600_000,
        silent: !options.verbose,
        passWithNoTests: true,
      },
      {
        logLevel: options.verbose ? 'info' : 'error',
        // Test files and src/ are TypeScript in an installed package too: transformed, never externalized.
        test: { server: { deps: { inline: [/@collab\/conformance/] } } },
      },
    );
    try {
      await vitest.start(selection.files);
    } finally {
      await vitest.close();
    }
  }
  const only = options.only;
  const report = buildReport({
    baseUrl: config.config.baseUrl,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    operations: loadSpecIndex().operations.sort(
      (a, b) => a.template.localeCompare(b.template) || a.method.localeCompare(b.method),
    ),
    exchanges: readExchanges(exchangesFile),
    tests: [...reporter.tests.values()],
    files: [...selection.skipped, ...reporter.files],
    configGaps: OPTIONAL_FIXTURES.filter((name) => config.config.fixtures[name] === undefined),
    ...(only ? { only: { pattern: only, selects: onlyMatcher(only) } } : {}),
  });
  process.stdout.write(`${formatReport(report)}\n`);
  if (options.reportJson) writeFileSync(options.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  if (options.reportJunit) writeFileSync(options.reportJunit, junitReport(report));
  return failed(report) ? 1 : 0;
}

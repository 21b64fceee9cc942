// `collab-conformance run`: the suite's test files (vitest, through its Node API) against the server at
// --base-url with the tokens and fixtures of --config, then a report per operation of the bundled spec.
// The tests read the configuration from the environment (COLLAB_CONFORMANCE_CONFIG holding the JSON, see
// src/config.ts: never a file, since it holds tokens); the validating fetch appends every exchange to a JSONL file
// (COLLAB_CONFORMANCE_EXCHANGES) that the report is built from. Everything the run writes is in its output
// folder: the reports, and while it runs the exchanges and the tests' temporary files (TMPDIR).
/// <reference types="vitest/config" />
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { type ConformanceConfig, configFromEnvironment } from '../config.js';
import { loadSpecIndex, type OperationEntry } from '../specIndex.js';
import type { Exchange } from '../validatingFetch.js';
import { htmlReport } from './htmlReport.js';
import { baseUrlOption, ONLY_HELP, onlyMatcher, onlyTerms, tagOf, UsageError } from './options.js';
import {
  buildReport,
  checkedNothing,
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
skipped (with the reason), with the documented statuses each one produced and those it never did. Writes
report.json, report.xml (JUnit) and report.html into the output folder, and nothing elsewhere. Exits with 1
when anything failed or nothing was checked, 2 on a usage or configuration error.

Options:
  --base-url URL        the server, with or without /api/v4 (overrides the config's baseUrl)
  --config FILE         JSON: baseUrl, a token per role and the fixtures (see ConformanceConfig;
                        the reference server writes one: --write-conformance-config FILE)
  --out DIR             the output folder (default ./conformance-report)
  --only PATTERN        limit the run to some operations: ${ONLY_HELP};
                        only the test files of the selected operations' tags run; a term may also
                        name test files (--only parameterReading), whose operations are then reported
  --exchanges           keep every exchange in the output folder (exchanges.jsonl; tokens masked)
  --report-json FILE    also write the JSON report to FILE
  --report-junit FILE   also write the JUnit report to FILE
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
 * Test files that check the tool, the spec or the docs rather than the server under test. Files named cli*,
 * fuzz*, proxy*, tool* and package* test the tool too.
 */
const TOOL_TESTS = new Set([
  'spec.test.ts',
  'audit-spec.test.ts',
  'responseValidator.test.ts',
  'curl.test.ts',
  'docs.browser.test.ts',
  'docs.samples.test.ts',
  'faultProxy.test.ts',
]);
const TOOL_PREFIX = /^(cli|fuzz|proxy|package|tool)/;

/** Fixtures a config may leave out: the tests that need them skip themselves (see ConformanceConfig). */
const OPTIONAL_FIXTURES = ['scim'] as const;

interface Options {
  baseUrl: string | undefined;
  config: string | undefined;
  out: string;
  reportJson: string | undefined;
  reportJunit: string | undefined;
  only: string | undefined;
  exchanges: boolean;
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
      out: { type: 'string' },
      'report-json': { type: 'string' },
      'report-junit': { type: 'string' },
      only: { type: 'string' },
      exchanges: { type: 'boolean', default: false },
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
    baseUrl: values['base-url'] === undefined ? undefined : baseUrlOption(values['base-url']),
    config: values.config,
    out: resolve(values.out ?? 'conformance-report'),
    reportJson: values['report-json'],
    reportJunit: values['report-junit'],
    only: values.only,
    exchanges: values.exchanges ?? false,
    testTimeout: timeout,
    verbose: values.verbose ?? false,
    help: values.help ?? false,
  };
}

// --- Selecting operations and test files -----------------------------------------------------------------

/** The bare specifiers a module names: its imports, and the packages it resolves (`require.resolve('x')`). */
function specifiers(text: string): string[] {
  const found = [
    ...text.matchAll(/\bfrom\s+'([^']+)'/g),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ...text.matchAll(/\.resolve\(\s*'([^'./][^']*)'\s*\)/g),
  ];
  return found.map((match) => match[1] as string);
}

/**
 * What a test file needs that this installation lacks: packages not installed, files outside the package
 * (the repository's other folders). The helpers it imports from the test folder (`./x.js`) are read too.
 */
function missingFor(file: string, require: NodeJS.Require, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const missing: string[] = [];
  for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
    if (specifier.startsWith('node:')) continue;
    if (specifier.startsWith('.')) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (!target.startsWith(PACKAGE_ROOT)) missing.push(`${specifier} (outside the package)`);
      // The test folder's helpers are read too; src/ is the tool's own, installed with it.
      else if (target.startsWith(TEST_DIR) && existsSync(target))
        missing.push(...missingFor(target, require, seen));
      continue;
    }
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
    if (!installed(name, require)) missing.push(name);
  }
  return [...new Set(missing)];
}

function installed(name: string, require: NodeJS.Require): boolean {
  for (const request of [name, `${name}/package.json`]) {
    try {
      require.resolve(request);
      return true;
    } catch {
      // A package without a main entry (types only) resolves through its package.json.
    }
  }
  return false;
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
  const terms = only ? onlyTerms(only).filter((term) => !term.includes('*')) : [];
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
    const missing = missingFor(file, require);
    if (missing.length > 0)
      skipped.push({ file, state: 'skipped', reason: `needs ${missing.join(', ')}, not installed here` });
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
      ms: testCase.diagnostic()?.duration ?? 0,
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

/** The config file, validated, with --base-url applied: read here, handed to the tests in memory. */
function effectiveConfig(options: Options): ConformanceConfig {
  if (!options.config) throw new UsageError('--config FILE is required');
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(options.config, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot read --config ${options.config}: ${(error as Error).message}`);
  }
  if (options.baseUrl) raw.baseUrl = options.baseUrl;
  else if (typeof raw.baseUrl === 'string') raw.baseUrl = baseUrlOption(raw.baseUrl, 'baseUrl in the config');
  if (typeof raw.baseUrl !== 'string')
    throw new UsageError('--base-url URL is required (or baseUrl in the config)');
  try {
    const config = configFromEnvironment({ COLLAB_CONFORMANCE_CONFIG: JSON.stringify(raw) });
    if (!config) throw new Error('no configuration');
    return config;
  } catch (error) {
    throw new UsageError(`--config ${options.config}: ${(error as Error).message}`);
  }
}

/** The output folder, made; refused when it holds something other than an earlier run's reports. */
function outputFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const ours = new Set(['report.json', 'report.xml', 'report.html', 'exchanges.jsonl', '.tmp']);
  const foreign = readdirSync(dir).filter((name) => !ours.has(name));
  if (foreign.length > 0)
    throw new UsageError(
      `--out ${dir} holds other files (${foreign.slice(0, 3).join(', ')}): name an empty or new folder`,
    );
}

export async function main(args: string[]): Promise<number> {
  let options: Options;
  let config: ConformanceConfig;
  try {
    options = parse(args);
    if (options.help) {
      process.stdout.write(usage);
      return 0;
    }
    config = effectiveConfig(options);
    outputFolder(options.out);
  } catch (error) {
    const usageText = error instanceof UsageError ? '' : `\n${usage}`;
    process.stderr.write(`collab-conformance run: ${(error as Error).message}\n${usageText}`);
    return 2;
  }
  const index = loadSpecIndex();
  const selection = selectTestFiles(index.operations, options.only);
  const exchangesFile = join(options.out, 'exchanges.jsonl');
  writeFileSync(exchangesFile, '');
  // The tests' temporary files (git clones, archives) and vitest's cache: inside the output folder, removed.
  const scratch = join(options.out, '.tmp');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);

  // The test workers inherit this environment: the configured server, where to record exchanges, and
  // where temporary files go.
  process.env.COLLAB_CONFORMANCE_CONFIG = JSON.stringify(config);
  process.env.COLLAB_CONFORMANCE_EXCHANGES = exchangesFile;
  process.env.TMPDIR = scratch;
  delete process.env.COLLAB_BASE_URL;

  process.stderr.write(
    `collab-conformance: ${selection.files.length} test file(s) against ${config.baseUrl}` +
      `${options.only ? ` (--only ${options.only})` : ''}; reports in ${options.out}\n`,
  );
  const startedAt = new Date();
  const reporter = new RunReporter();
  try {
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
          cacheDir: join(scratch, 'vite'),
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
      baseUrl: config.baseUrl,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      operations: loadSpecIndex().operations.sort(
        (a, b) => a.template.localeCompare(b.template) || a.method.localeCompare(b.method),
      ),
      exchanges: readExchanges(exchangesFile),
      tests: [...reporter.tests.values()],
      files: [...selection.skipped, ...reporter.files],
      configGaps: OPTIONAL_FIXTURES.filter((name) => config.fixtures[name] === undefined),
      ...(only ? { only: { pattern: only, selects: onlyMatcher(only) } } : {}),
    });
    process.stdout.write(`${formatReport(report)}\n`);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const junit = junitReport(report);
    writeFileSync(join(options.out, 'report.json'), json);
    writeFileSync(join(options.out, 'report.xml'), junit);
    writeFileSync(join(options.out, 'report.html'), htmlReport(report));
    if (options.reportJson) writeFileSync(options.reportJson, json);
    if (options.reportJunit) writeFileSync(options.reportJunit, junit);
    process.stdout.write(`reports: ${join(options.out, 'report.html')}, report.json, report.xml\n`);
    if (checkedNothing(report)) {
      process.stderr.write(
        'collab-conformance run: nothing was checked (no request reached an operation of the spec)\n',
      );
      return 1;
    }
    return failed(report) ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (!options.exchanges) rmSync(exchangesFile, { force: true });
  }
}

// The CI configuration file (`.collab-ci.yml`) and its parser. The configuration is declarative: each job
// says which stage it belongs to, what its outcome is and how long it takes. Scripts are recorded, never run.
// Pure: text in, configuration or error messages out.
import { parseDocument } from 'yaml';

export const CI_CONFIG_PATH = '.collab-ci.yml';
/** GitLab's default stages when `stages` is absent (without the implicit `.pre`/`.post`). */
export const DEFAULT_STAGES = ['build', 'test', 'deploy'] as const;
/** GitLab's default stage of a job without `stage`. */
export const DEFAULT_STAGE = 'test';
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** A job's declared duration is capped at one day. */
export const MAX_JOB_DURATION_SECONDS = 86_400;

export const JOB_OUTCOMES = ['success', 'failed', 'skipped', 'manual'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];
export const TEST_CASE_STATUSES = ['success', 'failed', 'skipped', 'error'] as const;
export type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

export interface CiTestCase {
  name: string;
  classname: string;
  status: TestCaseStatus;
  execution_time: number;
  system_output: string | null;
  stack_trace: string | null;
}

export interface CiTestSuite {
  name: string;
  cases: CiTestCase[];
}

export interface CiJob {
  name: string;
  stage: string;
  /** The position of `stage` in `stages`. */
  stageIndex: number;
  script: string[];
  outcome: JobOutcome;
  durationSeconds: number;
  allowFailure: boolean;
  /** A percentage, null when the job reports none. */
  coverage: number | null;
  /** Null when the job declares no test report. */
  testReport: CiTestSuite[] | null;
}

export interface CiConfig {
  stages: string[];
  /** In stage order, then in the order of the file. */
  jobs: CiJob[];
}

export type CiConfigResult = { ok: true; config: CiConfig } | { ok: false; errors: string[] };

/** Top-level keys that are not jobs. */
const GLOBAL_KEYWORDS = new Set(['stages', 'variables']);
const JOB_KEYWORDS = new Set([
  'stage',
  'script',
  'outcome',
  'duration',
  'allow_failure',
  'coverage',
  'test_report',
]);
const TEST_CASE_KEYWORDS = new Set([
  'name',
  'classname',
  'status',
  'execution_time',
  'system_output',
  'stack_trace',
]);

type Mapping = Record<string, unknown>;

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A number given as a YAML number or a numeric text (`coverage: '85.5'`); undefined when it is neither. */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function parseTestCase(where: string, value: unknown, errors: string[]): CiTestCase | undefined {
  if (!isMapping(value)) {
    errors.push(`${where} should be a hash`);
    return undefined;
  }
  const unknown = Object.keys(value).filter((key) => !TEST_CASE_KEYWORDS.has(key));
  if (unknown.length > 0) errors.push(`${where} contains unknown keys: ${unknown.join(', ')}`);
  const name = value.name;
  if (typeof name !== 'string' || name === '') errors.push(`${where} name should be a non-empty string`);
  const classname = value.classname ?? '';
  if (typeof classname !== 'string') errors.push(`${where} classname should be a string`);
  const status = value.status ?? 'success';
  if (!TEST_CASE_STATUSES.includes(status as TestCaseStatus)) {
    errors.push(`${where} status should be one of ${TEST_CASE_STATUSES.join(', ')}`);
  }
  const executionTime = value.execution_time === undefined ? 0 : toNumber(value.execution_time);
  if (executionTime === undefined || executionTime < 0)
    errors.push(`${where} execution_time should be a number of seconds`);
  const optionalText = (key: 'system_output' | 'stack_trace'): string | null => {
    const text = value[key];
    if (text === undefined || text === null) return null;
    if (!isScalar(text)) {
      errors.push(`${where} ${key} should be a string`);
      return null;
    }
    return String(text);
  };
  const systemOutput = optionalText('system_output');
  const stackTrace = optionalText('stack_trace');
  if (typeof name !== 'string' || typeof classname !== 'string' || executionTime === undefined)
    return undefined;
  return {
    name,
    classname,
    status: status as TestCaseStatus,
    execution_time: executionTime,
    system_output: systemOutput,
    stack_trace: stackTrace,
  };
}

function parseTestReport(jobWhere: string, value: unknown, errors: string[]): CiTestSuite[] | null {
  const where = `${jobWhere}:test_report`;
  if (!isMapping(value) || !Array.isArray(value.suites)) {
    errors.push(`${where} should be a hash with a suites array`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => key !== 'suites');
  if (unknown.length > 0) errors.push(`${where} contains unknown keys: ${unknown.join(', ')}`);
  const suites: CiTestSuite[] = [];
  value.suites.forEach((suite: unknown, index: number) => {
    const suiteWhere = `${where}:suites[${index}]`;
    if (!isMapping(suite) || typeof suite.name !== 'string' || suite.name === '') {
      errors.push(`${suiteWhere} should be a hash with a non-empty name`);
      return;
    }
    const extra = Object.keys(suite).filter((key) => key !== 'name' && key !== 'cases');
    if (extra.length > 0) errors.push(`${suiteWhere} contains unknown keys: ${extra.join(', ')}`);
    const rawCases = suite.cases ?? [];
    if (!Array.isArray(rawCases)) {
      errors.push(`${suiteWhere}:cases should be an array`);
      return;
    }
    const cases = rawCases
      .map((item: unknown, caseIndex: number) =>
        parseTestCase(`${suiteWhere}:cases[${caseIndex}]`, item, errors),
      )
      .filter((item): item is CiTestCase => item !== undefined);
    suites.push({ name: suite.name, cases });
  });
  return suites;
}

function parseScript(where: string, value: unknown, errors: string[]): string[] {
  if (typeof value === 'string' && value.trim() !== '') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) return value.map(String);
  errors.push(
    value === undefined
      ? `${where} config should implement a script: keyword`
      : `${where} script should be a string or a non-empty array of strings`,
  );
  return [];
}

function parseJob(
  name: string,
  value: unknown,
  stages: readonly string[],
  errors: string[],
): CiJob | undefined {
  const where = `jobs:${name}`;
  if (!isMapping(value)) {
    errors.push(`${where} config should be a hash`);
    return undefined;
  }
  const before = errors.length;
  const unknown = Object.keys(value).filter((key) => !JOB_KEYWORDS.has(key));
  if (unknown.length > 0) errors.push(`${where} config contains unknown keys: ${unknown.join(', ')}`);

  const script = parseScript(where, value.script, errors);
  const stage = value.stage ?? DEFAULT_STAGE;
  const stageIndex = typeof stage === 'string' ? stages.indexOf(stage) : -1;
  if (typeof stage !== 'string') {
    errors.push(`${where} stage should be a string`);
  } else if (stageIndex < 0) {
    errors.push(`${where} chosen stage ${stage} does not exist; available stages are ${stages.join(', ')}`);
  }
  const outcome = value.outcome ?? 'success';
  if (!JOB_OUTCOMES.includes(outcome as JobOutcome)) {
    errors.push(`${where} outcome should be one of ${JOB_OUTCOMES.join(', ')}`);
  }
  const duration = value.duration === undefined ? 1 : toNumber(value.duration);
  if (duration === undefined || duration < 0 || duration > MAX_JOB_DURATION_SECONDS) {
    errors.push(`${where} duration should be a number of seconds between 0 and ${MAX_JOB_DURATION_SECONDS}`);
  }
  const allowFailure = value.allow_failure ?? false;
  if (typeof allowFailure !== 'boolean') errors.push(`${where} allow_failure should be a boolean value`);
  let coverage: number | null = null;
  if (value.coverage !== undefined && value.coverage !== null) {
    const parsed = toNumber(value.coverage);
    if (parsed === undefined || parsed < 0 || parsed > 100) {
      errors.push(`${where} coverage should be a percentage between 0 and 100`);
    } else {
      coverage = parsed;
    }
  }
  const testReport =
    value.test_report === undefined ? null : parseTestReport(where, value.test_report, errors);

  if (errors.length > before) return undefined;
  return {
    name,
    stage: stage as string,
    stageIndex,
    script,
    outcome: outcome as JobOutcome,
    durationSeconds: duration as number,
    allowFailure: allowFailure as boolean,
    coverage,
    testReport,
  };
}

function parseStages(value: unknown, errors: string[]): string[] {
  if (value === undefined) return [...DEFAULT_STAGES];
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((stage) => typeof stage === 'string' && stage !== '')
  ) {
    errors.push('stages config should be a non-empty array of strings');
    return [];
  }
  const stages = value as string[];
  const duplicates = stages.filter((stage, index) => stages.indexOf(stage) !== index);
  if (duplicates.length > 0)
    errors.push(`stages config contains duplicate stages: ${[...new Set(duplicates)].join(', ')}`);
  return stages;
}

function parseVariables(value: unknown, errors: string[]): void {
  if (value === undefined) return;
  if (!isMapping(value) || !Object.values(value).every((item) => isScalar(item) || item === null)) {
    errors.push('variables config should be a hash of key value pairs');
  }
}

/** Parses the text of a CI configuration file; every problem found is reported, GitLab-style. */
export function parseCiConfig(text: string): CiConfigResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_CONFIG_BYTES) {
    return { ok: false, errors: [`The CI configuration is larger than ${MAX_CONFIG_BYTES} bytes`] };
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const yamlError = document.errors[0];
  if (yamlError)
    return { ok: false, errors: [`Invalid configuration format: ${yamlError.message.split('\n')[0]}`] };
  let root: unknown;
  try {
    // Aliases are capped so that a small file cannot expand into a huge one ("billion laughs").
    root = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return {
      ok: false,
      errors: [`Invalid configuration format: ${(error as Error).message.split('\n')[0]}`],
    };
  }
  if (!isMapping(root))
    return { ok: false, errors: ['Invalid configuration format: the root should be a hash'] };

  const errors: string[] = [];
  const stages = parseStages(root.stages, errors);
  parseVariables(root.variables, errors);
  const jobs: CiJob[] = [];
  for (const [name, value] of Object.entries(root)) {
    // Keys starting with a dot are hidden jobs (templates), as in GitLab.
    if (GLOBAL_KEYWORDS.has(name) || name.startsWith('.')) continue;
    const job = parseJob(name, value, stages, errors);
    if (job) jobs.push(job);
  }
  const visibleJobs = Object.keys(root).filter((name) => !GLOBAL_KEYWORDS.has(name) && !name.startsWith('.'));
  if (visibleJobs.length === 0) errors.push('jobs config should contain at least one visible job');
  if (errors.length > 0) return { ok: false, errors };
  // A stable sort keeps the file's order within a stage.
  jobs.sort((a, b) => a.stageIndex - b.stageIndex);
  return { ok: true, config: { stages, jobs } };
}

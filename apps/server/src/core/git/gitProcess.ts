/**
 * Running git. One command at a time (runGit: a spawn, its output collected), or, for one repository, through
 * GitDir: its commands, and its long-running processes (`cat-file --batch` for objects, `update-ref --stdin`
 * for compare-and-swap ref updates, `diff-tree --stdin` for patches), which cost a pipe round trip instead
 * of a spawn. Every git process gets the same configuration and environment, so that nothing outside our
 * repositories changes git's behaviour. Never a shell: arguments are always arrays.
 */

import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { type BatchObject, CatFileReader } from './catFile.js';
import { DiffTreeReader } from './diffTree.js';
import { gitPath } from './gitPath.js';
import { type RefUpdateOutcome, RefUpdater } from './refUpdates.js';

/** A git command that failed for a reason the caller cannot act on (corrupt repo, missing binary…). */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} exited with ${exitCode}: ${stderr.trim()}`);
    this.name = 'GitError';
  }
}

export interface RunOptions {
  input?: Buffer | string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

/**
 * Configuration passed on every call so that nothing outside our repositories changes git's behaviour:
 * no user-level attributes (they could add textconv/eol filters) and no hooks (ours are not a
 * workstation's repositories), raw UTF-8 paths in output.
 */
export const CONFIG_ARGS = [
  '-c',
  'core.quotePath=false',
  '-c',
  'core.attributesFile=/dev/null',
  '-c',
  'core.hooksPath=/dev/null',
];

let cachedEnv: NodeJS.ProcessEnv | undefined;

/**
 * The environment for every git process: the server's own, minus any GIT_* variable that could point git
 * at another repository or index, plus settings that make git non-interactive and config-independent.
 */
function gitEnv(): NodeJS.ProcessEnv {
  if (cachedEnv === undefined) {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!key.startsWith('GIT_')) env[key] = value;
    }
    env.GIT_TERMINAL_PROMPT = '0';
    env.GIT_CONFIG_NOSYSTEM = '1';
    env.GIT_CONFIG_GLOBAL = '/dev/null';
    // File paths are data, never pathspec magic or globs (`*.md`, `:(top)`…).
    env.GIT_LITERAL_PATHSPECS = '1';
    env.GIT_NO_REPLACE_OBJECTS = '1';
    // Non-interactive ssh for mirrors: fail instead of asking for a passphrase.
    env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
    // Stable English error messages (we match a few of them).
    env.LC_ALL = 'C';
    cachedEnv = env;
  }
  return cachedEnv;
}

/** Runs git and collects its output; never rejects on a non-zero exit, only when git cannot start. */
export function runGit(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const timed = options.timeoutMs !== undefined;
    const child = spawn(gitPath(), args, {
      env: options.env ? { ...gitEnv(), ...options.env } : gitEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own, so a timeout also kills the helpers (ssh, git-remote-https).
      detached: timed,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = timed
      ? setTimeout(() => {
          timedOut = true;
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        }, options.timeoutMs)
      : undefined;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // git may exit before reading all of stdin (e.g. an invalid object name): ignore the EPIPE.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
      });
    });
    child.stdin.end(options.input);
  });
}

/**
 * Per repository, one `cat-file --batch`, one `update-ref --stdin` and one `diff-tree --stdin` kept running
 * while used (closed
 * after 30 s idle, on exit, when the repository directory is replaced, or for a newer repository when 16
 * run), restarted when they die.
 */
const POOL_OPTIONS = { idleMs: 30_000, maxProcesses: 16 };

const poolCommand = (args: string[]) => (path: string) => ({
  args: [`--git-dir=${path}`, ...CONFIG_ARGS, ...args],
  env: gitEnv(),
});

const catFiles = new CatFileReader(poolCommand(['cat-file', '--batch']), POOL_OPTIONS);

const refUpdates = new RefUpdater(poolCommand(['update-ref', '--stdin']), POOL_OPTIONS);

const diffTrees = new DiffTreeReader(
  poolCommand(['diff-tree', '--stdin', '-p', '-M', '--always']),
  POOL_OPTIONS,
);

/** Pids of the long-running git processes serving a repository, if they run (for tests and diagnostics). */
export function pooledProcessIds(repositoryPath: string): {
  catFile?: number;
  updateRef?: number;
  diffTree?: number;
} {
  return {
    catFile: catFiles.processId(repositoryPath),
    updateRef: refUpdates.processId(repositoryPath),
    diffTree: diffTrees.processId(repositoryPath),
  };
}

/** A repository directory and the ways to run git in it. */
export class GitDir {
  constructor(readonly path: string) {
    if (!isAbsolute(path)) throw new Error(`repository path must be absolute: ${path}`);
  }

  /** Runs git against this repository; `--git-dir` also disables repository discovery from the cwd. */
  git(args: string[], options?: RunOptions): Promise<RunResult> {
    return runGit([`--git-dir=${this.path}`, ...CONFIG_ARGS, ...args], options);
  }

  /** Like git(), for commands whose failure is unexpected: returns stdout or throws GitError. */
  async gitOk(args: string[], options?: RunOptions): Promise<Buffer> {
    const result = await this.git(args, options);
    if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
    return result.stdout;
  }

  /** Reads objects (`<sha>`, `<ref>^{commit}`, `<tree>:<path>`…) through the long-running cat-file process. */
  async readObjects(lines: string[]): Promise<(BatchObject | null)[]> {
    try {
      return await catFiles.read(this.path, lines);
    } catch (error) {
      throw new GitError(['cat-file', '--batch'], -1, error instanceof Error ? error.message : String(error));
    }
  }

  /** `update-ref <ref> <new> <old>` through the long-running update-ref process (see refUpdates.ts). */
  updateRef(ref: string, newId: string, oldId: string): Promise<RefUpdateOutcome> {
    return refUpdates.update(this.path, ref, newId, oldId);
  }

  /** The patch between two commits through the long-running diff-tree process (see diffTree.ts). */
  diffCommits(from: string, to: string): Promise<Buffer> {
    return diffTrees.diff(this.path, from, to);
  }
}

/**
 * One bare git repository, driven by the `git` binary.
 *
 * Every SHA, tree, blame and ref update is git's own: we spawn plumbing commands (never a shell, arguments
 * always as arrays) and parse their machine-readable output. Process spawns are the main cost, so each
 * operation uses as few as it can and runs independent ones in parallel. The one write path that must be
 * fast, commitFileChange, spawns nothing at all in the common case: it reads objects through a long-running
 * `cat-file --batch` (catFile.ts), writes blob, trees and commit as loose objects byte for byte as git
 * would (objects.ts), and leaves the ref update, the compare-and-swap, to git through a long-running
 * `update-ref --stdin` (refUpdates.ts).
 */

import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { type BatchObject, CatFileReader } from './catFile.js';
import {
  CommitFormatError,
  commitContent,
  currentCommitDate,
  EMPTY_TREE_ID,
  type EncodedObject,
  encodeObject,
  entryType,
  MODE_FILE,
  MODE_TREE,
  parseTree,
  serializeTree,
  type TreeEntry,
  verifyPath,
  writeLooseObject,
} from './objects.js';
import { repositoryReadCache } from './readCache.js';
import { RefUpdater } from './refUpdates.js';

const ZERO_OID = '0'.repeat(40);
const PUSH_TIMEOUT_MS = 60_000;
const FULL_SHA = /^[0-9a-f]{40}$/;

/* ------------------------------------------------------------------------------------------------ */
/* Public types                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

export interface FileBlob {
  blobId: string;
  size: number;
  content: Buffer;
  /** The commit the ref resolved to. */
  commitId: string;
  /** The newest commit reachable from `commitId` that touched the path. */
  lastCommitId: string;
}

export interface BlameCommit {
  id: string;
  message: string;
  parent_ids: string[];
  /** ISO 8601 in UTC with milliseconds, e.g. `2026-01-15T10:00:00.000Z`. */
  authored_date: string;
  author_name: string;
  author_email: string;
  committed_date: string;
  committer_name: string;
  committer_email: string;
}

export interface BlameRange {
  commit: BlameCommit;
  lines: string[];
}

export interface BranchCommitInfo {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  /** Strict ISO 8601 keeping the commit's offset, e.g. `2026-01-15T10:00:00.000+00:00`. */
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  parent_ids: string[];
}

export interface BranchInfo {
  name: string;
  commit: BranchCommitInfo;
}

/** A file of a tree listing and its size in bytes. */
export interface TreeFile {
  path: string;
  size: number;
}

export type FileAction = 'create' | 'update' | 'delete';

export interface CommitFileChangeInput {
  branch: string;
  /** Base for `branch` when it does not exist yet. */
  startBranch?: string;
  action: FileAction;
  filePath: string;
  /** Required for create and update (an absent value means an empty file). */
  content?: Buffer;
  authorName: string;
  authorEmail: string;
  committerName: string;
  committerEmail: string;
  message: string;
  /** Optimistic lock: the caller's idea of the file's last commit. */
  expectedLastCommitId?: string;
}

export type CommitFailureReason =
  | 'path_traversal'
  | 'invalid_path'
  | 'invalid_branch'
  | 'empty_commit'
  | 'branch_moved'
  | 'file_exists'
  | 'file_missing'
  | 'branch_missing';

export type Failure<R extends string> = { ok: false; reason: R; message: string };

export type CommitFileChangeResult =
  /** `before`: the branch's tip the commit replaced, the zero SHA when the commit made the branch. */
  { ok: true; commitId: string; before: string } | Failure<CommitFailureReason>;

/** An attempt's result: `update-ref` refused to move the branch (it moved, or its lock was taken). */
type CommitAttempt = CommitFileChangeResult | { ok: false; reason: 'ref_refused' };

/**
 * How often a commit without expectedLastCommitId is made again when its branch moved meanwhile. Commits of
 * one process to one branch take turns (below), so an attempt loses only to another process's commit: with
 * two processes committing without pause to one branch, about one attempt in two.
 */
export const MAX_COMMIT_ATTEMPTS = 20;

/** The last queued commit per repository and branch, in this process. */
const branchCommits = new Map<string, Promise<unknown>>();

/**
 * Runs the commits of this process to one branch one after the other. They would all read the same tip and
 * all but one lose the compare-and-swap, again and again; in turn, each finds the tip the previous one left.
 */
function inTurn<T>(key: string, commit: () => Promise<T>): Promise<T> {
  const previous = branchCommits.get(key) ?? Promise.resolve();
  const run = previous.then(commit);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  branchCommits.set(key, settled);
  void settled.then(() => {
    if (branchCommits.get(key) === settled) branchCommits.delete(key);
  });
  return run;
}

export type CreateBranchResult =
  | { ok: true; branch: BranchInfo }
  | Failure<'invalid_name' | 'exists' | 'unknown_ref'>;

export type DeleteBranchResult = { ok: true } | Failure<'not_found' | 'branch_moved'>;

export type PushMirrorResult = { ok: true } | { ok: false; error: string };

export interface PushMirrorOptions {
  /** The branches to push (every tag is pushed too). */
  branches: string[];
  /** Overwrite what differs on the mirror and delete what the project no longer has (keep_divergent_refs off). */
  force: boolean;
  /** Which of the mirror's branches this mirror manages, so may delete (only_protected_branches limits it). */
  coversBranch: (name: string) => boolean;
}

export type PathCheck = { ok: true; path: string } | Failure<'path_traversal' | 'invalid_path'>;

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

/* ------------------------------------------------------------------------------------------------ */
/* Process plumbing                                                                                  */
/* ------------------------------------------------------------------------------------------------ */

interface RunOptions {
  input?: Buffer | string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

interface RunResult {
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
const CONFIG_ARGS = [
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
function runGit(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const timed = options.timeoutMs !== undefined;
    const child = spawn('git', args, {
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

/* ------------------------------------------------------------------------------------------------ */
/* Validation and parsing helpers                                                                    */
/* ------------------------------------------------------------------------------------------------ */

/**
 * Checks a repository file path. `..` and absolute paths try to leave the tree (path_traversal); empty
 * paths, `.`/empty segments, `.git` segments and control characters are never valid tree entries.
 */
export function checkFilePath(filePath: string): PathCheck {
  const invalid = (message: string): PathCheck => ({ ok: false, reason: 'invalid_path', message });
  if (filePath.length === 0) return invalid('file path is empty');
  if (filePath.startsWith('/')) {
    return { ok: false, reason: 'path_traversal', message: 'file path must be relative' };
  }
  // NUL and newline would break git's line-oriented input (cat-file --batch, commit headers).
  if (/[\0\n\r]/.test(filePath)) return invalid('file path contains control characters');
  for (const segment of filePath.split('/')) {
    if (segment === '..') {
      return { ok: false, reason: 'path_traversal', message: 'file path cannot include directory traversal' };
    }
    if (segment === '' || segment === '.') return invalid('file path has an empty or "." segment');
    if (segment.toLowerCase() === '.git') return invalid('file path cannot contain a .git segment');
  }
  return { ok: true, path: filePath };
}

/** Refs are passed as arguments: one starting with `-` would be read as an option. */
function isSafeRevision(ref: string): boolean {
  return ref.length > 0 && !ref.startsWith('-') && !/[\0\n\r]/.test(ref);
}

/**
 * Splits output written with a format of `fieldCount` NUL-terminated fields per record (git appends a
 * newline after each record). NUL cannot occur inside commit messages or ref names, so this is safe
 * where any printable separator could be forged by a commit message.
 */
function parseRecords(output: Buffer, fieldCount: number): string[][] {
  const tokens = output.toString('utf8').split('\0');
  const records: string[][] = [];
  for (let i = 0; i + fieldCount <= tokens.length; i += fieldCount) {
    const record = tokens.slice(i, i + fieldCount);
    // The record terminator ("\n") of the previous record lands at the start of this one.
    if (record[0] !== undefined) record[0] = record[0].replace(/^\n/, '');
    records.push(record);
  }
  return records;
}

/** `<a@b>` → `a@b` (for-each-ref's :trim modifier is newer than some gits we may meet). */
function stripAngles(email: string): string {
  return email.replace(/^<(.*)>$/, '$1');
}

/** git's iso-strict (`2026-01-15T10:00:00+00:00` or `…Z`) → `2026-01-15T10:00:00.000+00:00`. */
function isoWithOffset(date: string): string {
  const match = /^(.*T\d\d:\d\d:\d\d)(Z|[+-]\d\d:\d\d)$/.exec(date);
  if (!match) return date;
  const offset = match[2] === 'Z' ? '+00:00' : (match[2] ?? '+00:00');
  return `${match[1]}.000${offset}`;
}

function isoUtc(date: string): string {
  return new Date(date).toISOString();
}

/** Hides `user:password@` in URLs and any literal password from `url` in a message. */
export function maskCredentials(text: string, url?: string): string {
  let masked = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1*****@');
  if (url) {
    try {
      const parsed = new URL(url);
      for (const secret of [parsed.password, parsed.username]) {
        if (secret.length >= 3) {
          masked = masked.split(secret).join('*****');
          masked = masked.split(decodeURIComponent(secret)).join('*****');
        }
      }
    } catch {
      // Not a URL (scp-like or a local path): the regex above is all we can do.
    }
  }
  return masked;
}

const BRANCH_FIELDS = [
  '%(refname)',
  '%(objectname)',
  '%(parent)',
  '%(authorname)',
  '%(authoremail)',
  '%(authordate:iso-strict)',
  '%(committername)',
  '%(committeremail)',
  '%(committerdate:iso-strict)',
  '%(contents)',
];
const BRANCH_FORMAT = BRANCH_FIELDS.map((field) => `${field}%00`).join('');

function toBranchInfo(record: string[]): BranchInfo {
  const [
    ref = '',
    id = '',
    parents = '',
    an = '',
    ae = '',
    ad = '',
    cn = '',
    ce = '',
    cd = '',
    message = '',
  ] = record;
  return {
    name: ref.replace(/^refs\/heads\//, ''),
    commit: {
      id,
      short_id: id.slice(0, 8),
      title: message.split('\n', 1)[0] ?? '',
      message,
      author_name: an,
      author_email: stripAngles(ae),
      authored_date: isoWithOffset(ad),
      committer_name: cn,
      committer_email: stripAngles(ce),
      committed_date: isoWithOffset(cd),
      parent_ids: parents.split(' ').filter((p) => p.length > 0),
    },
  };
}

/** toBranchInfo's fields from `git log` (no ref name: the first field stays empty). */
const RANGE_COMMIT_FIELDS = ['', '%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'];
const RANGE_COMMIT_FORMAT = RANGE_COMMIT_FIELDS.map((field) => `${field}%x00`).join('');

const BLAME_COMMIT_FIELDS = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'];
const BLAME_COMMIT_FORMAT = BLAME_COMMIT_FIELDS.map((field) => `${field}%x00`).join('');

/** stderr of commands that failed because a ref, object or path does not exist. */
const MISSING =
  /no such path|bad revision|unknown revision|ambiguous argument|not a valid|invalid object|bad object|does not exist|not a tree|not a blob|is a directory|needed a single revision/i;

interface BranchTip {
  commit: string;
  tree: string;
}

/**
 * check-ref-format sets no length limit, but git stores a new ref as a file `refs/heads/<name>` (and its
 * `.lock`): each `/`-separated part must fit the file system's NAME_MAX (255 bytes, less `.lock`), and the
 * whole name stays well inside PATH_MAX with the repository's own path in front.
 */
function fitsRefStorage(name: string): boolean {
  return Buffer.byteLength(name) <= 1024 && name.split('/').every((part) => Buffer.byteLength(part) <= 250);
}

/** Refuses revision syntax (`main^`, `a..b`, `x@{1}`, `:/`) where a plain branch name is expected. */
function looksLikeBranchName(name: string): boolean {
  return isSafeRevision(name) && !/[\s~^:?*[\\\x7f]|\.\.|@\{/.test(name);
}

/**
 * Per repository, one `cat-file --batch` and one `update-ref --stdin` kept running while used (closed
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

/** Pids of the long-running git processes serving a repository, if they run (for tests and diagnostics). */
export function pooledProcessIds(repositoryPath: string): { catFile?: number; updateRef?: number } {
  return { catFile: catFiles.processId(repositoryPath), updateRef: refUpdates.processId(repositoryPath) };
}

/* ------------------------------------------------------------------------------------------------ */
/* Repository                                                                                        */
/* ------------------------------------------------------------------------------------------------ */

/**
 * git's own branch-name rules (`check-ref-format --branch`), for a name chosen before any repository exists
 * (a new project's default branch): the names GitRepository's branch writes accept.
 */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!isSafeRevision(name) || name === 'HEAD' || !fitsRefStorage(name)) return false;
  const result = await runGit([...CONFIG_ARGS, 'check-ref-format', '--branch', name]);
  // `--branch` expands shorthands such as `@{-1}`: only a name that stays itself is a branch name.
  return result.code === 0 && result.stdout.toString('utf8').trim() === name;
}

/** Creates a bare repository (and missing parent directories) whose HEAD names `defaultBranch`. */
export async function initBareRepository(path: string, defaultBranch: string): Promise<GitRepository> {
  if (!isAbsolute(path)) throw new Error(`repository path must be absolute: ${path}`);
  if (!isSafeRevision(defaultBranch)) throw new Error(`invalid default branch: ${defaultBranch}`);
  const args = [...CONFIG_ARGS, 'init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, '--', path];
  const result = await runGit(args);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  repositoryReadCache.invalidate(path);
  return new GitRepository(path);
}

export class GitRepository {
  constructor(readonly path: string) {
    if (!isAbsolute(path)) throw new Error(`repository path must be absolute: ${path}`);
  }

  /** Runs git against this repository; `--git-dir` also disables repository discovery from the cwd. */
  private git(args: string[], options?: RunOptions): Promise<RunResult> {
    return runGit([`--git-dir=${this.path}`, ...CONFIG_ARGS, ...args], options);
  }

  /** Like git(), for commands whose failure is unexpected: returns stdout or throws GitError. */
  private async gitOk(args: string[], options?: RunOptions): Promise<Buffer> {
    const result = await this.git(args, options);
    if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
    return result.stdout;
  }

  /** Branch, tag, or full/short SHA → commit SHA; null when unknown, ambiguous or not a commit. */
  async resolveRef(ref: string): Promise<string | null> {
    return repositoryReadCache.get(this.path, `resolveRef\0${ref}`, async (): Promise<string | null> => {
      if (!isSafeRevision(ref)) return null;
      const result = await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
      const sha = result.stdout.toString('utf8').trim();
      return result.code === 0 && FULL_SHA.test(sha) ? sha : null;
    });
  }

  /**
   * The blob at `filePath` in `ref`. Two processes: one `cat-file --batch` resolves the commit and reads
   * the blob together, then `log -1` finds the last commit that touched the path.
   */
  async readFile(ref: string, filePath: string): Promise<FileBlob | null> {
    return repositoryReadCache.get(
      this.path,
      `readFile\0${ref}\0${filePath}`,
      async (): Promise<FileBlob | null> => {
        if (!checkFilePath(filePath).ok || !isSafeRevision(ref)) return null;
        // `<rev>:<path>` splits at the first colon, so a revision containing one is resolved first.
        const rev = ref.includes(':') ? await this.resolveRef(ref) : ref;
        if (rev === null) return null;
        const result = await this.git(['cat-file', '--batch'], {
          input: `${rev}^{commit}\n${rev}:${filePath}\n`,
        });
        if (result.code !== 0) throw new GitError(['cat-file', '--batch'], result.code, result.stderr);
        const objects = parseBatchOutput(result.stdout);
        const commit = objects[0];
        const blob = objects[1];
        if (commit?.type !== 'commit' || blob?.type !== 'blob') return null;
        const log = await this.gitOk(['log', '-1', '--format=%H', commit.id, '--', filePath]);
        return {
          blobId: blob.id,
          size: blob.content.length,
          content: blob.content,
          commitId: commit.id,
          lastCommitId: log.toString('utf8').trim(),
        };
      },
      (blob) => blob?.size ?? 0,
    );
  }

  /**
   * Line ranges of `filePath` at `ref`, each with the commit that last changed them; consecutive lines of
   * one commit form one range. `blame --porcelain` gives the line → commit map, one `log --no-walk` call
   * gives full messages and parents for all commits at once. Null when the ref or path does not exist.
   */
  async blame(ref: string, filePath: string): Promise<BlameRange[] | null> {
    return repositoryReadCache.get(
      this.path,
      `blame\0${ref}\0${filePath}`,
      async (): Promise<BlameRange[] | null> => {
        if (!checkFilePath(filePath).ok || !isSafeRevision(ref)) return null;
        const result = await this.git(['blame', '--porcelain', ref, '--', filePath]);
        if (result.code !== 0) {
          if (MISSING.test(result.stderr)) return null;
          throw new GitError(['blame', ref, '--', filePath], result.code, result.stderr);
        }

        const groups: { sha: string; lines: string[] }[] = [];
        let current = '';
        for (const line of result.stdout.toString('utf8').split('\n')) {
          if (line.startsWith('\t')) {
            const last = groups[groups.length - 1];
            if (last?.sha === current) last.lines.push(line.slice(1));
            else groups.push({ sha: current, lines: [line.slice(1)] });
          } else {
            // Header lines are "<sha> <orig-line> <final-line>[ <count>]"; metadata lines start with a word.
            const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
            if (header?.[1] !== undefined) current = header[1];
          }
        }
        if (groups.length === 0) return [];

        const shas = [...new Set(groups.map((g) => g.sha))];
        const log = await this.gitOk([
          'log',
          '--no-walk=unsorted',
          `--format=${BLAME_COMMIT_FORMAT}`,
          ...shas,
          '--',
        ]);
        const commits = new Map<string, BlameCommit>();
        for (const [
          id = '',
          parents = '',
          an = '',
          ae = '',
          ad = '',
          cn = '',
          ce = '',
          cd = '',
          message = '',
        ] of parseRecords(log, BLAME_COMMIT_FIELDS.length)) {
          commits.set(id, {
            id,
            message,
            parent_ids: parents.split(' ').filter((p) => p.length > 0),
            authored_date: isoUtc(ad),
            author_name: an,
            author_email: ae,
            committed_date: isoUtc(cd),
            committer_name: cn,
            committer_email: ce,
          });
        }
        return groups.map((group) => {
          const commit = commits.get(group.sha);
          if (!commit) throw new Error(`blame: commit ${group.sha} missing from log output`);
          return { commit, lines: group.lines };
        });
      },
    );
  }

  /**
   * Creates, updates or deletes one file in one new commit on `branch`. The trees along the path are read
   * through the repository's cat-file process and the new blob, trees and commit are written in-process
   * exactly as hash-object, write-tree and commit-tree would write them, so the repository and other
   * writers are never disturbed. The final `update-ref <new> <old>` is a compare-and-swap: of concurrent
   * edits based on the same tip exactly one wins, and no published commit is ever overwritten.
   *
   * A change whose branch moved meanwhile is made again on the new tip (at most MAX_COMMIT_ATTEMPTS times),
   * checked against that tip as a new request would be: a 'create' of a file that now exists fails with
   * file_exists. Only a change made with `expectedLastCommitId` gets branch_moved instead: its author based
   * it on what they read.
   */
  async commitFileChange(input: CommitFileChangeInput): Promise<CommitFileChangeResult> {
    return inTurn(`${this.path}\0${input.branch}`, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const result = await this.commitFileChangeOnce(input);
        if (result.ok || result.reason !== 'ref_refused') return result;
        // Refused: the branch moved, or another process held its lock while moving it (the next attempt
        // finds the new tip). A name git cannot store at all (`a/b` beside `a`) is refused every time: the
        // bound ends that.
        if (input.expectedLastCommitId !== undefined || attempt >= MAX_COMMIT_ATTEMPTS) {
          return {
            ok: false,
            reason: 'branch_moved',
            message: `branch ${input.branch} was changed by someone else`,
          };
        }
      }
    });
  }

  /** One attempt of commitFileChange, on the branch's tip as it is now. */
  private async commitFileChangeOnce(input: CommitFileChangeInput): Promise<CommitAttempt> {
    const fail = (reason: CommitFailureReason, message: string): CommitFileChangeResult => ({
      ok: false,
      reason,
      message,
    });
    const pathCheck = checkFilePath(input.filePath);
    if (!pathCheck.ok) return pathCheck;
    const filePath = pathCheck.path;
    for (const name of [input.branch, input.startBranch]) {
      if (name !== undefined && !looksLikeBranchName(name))
        return fail('invalid_branch', `invalid branch name: ${name}`);
    }

    // Stage 1: what branch and startBranch hold now (one cat-file round trip).
    const wanted = [input.branch, ...(input.startBranch !== undefined ? [input.startBranch] : [])];
    const tips = await this.readBranchTipsBatch(wanted);

    // The base: the branch itself, else startBranch's tip for a new branch, else nothing (empty repo).
    let base: BranchTip | null = tips.get(input.branch) ?? null;
    const oldValue = base?.commit ?? ZERO_OID;
    if (base === null) {
      if (!(await this.isValidBranchName(input.branch))) {
        return fail('invalid_branch', `invalid branch name: ${input.branch}`);
      }
      if (input.startBranch !== undefined) {
        base = tips.get(input.startBranch) ?? null;
        if (base === null) return fail('branch_missing', `start branch ${input.startBranch} does not exist`);
      } else if (await this.hasRefs()) {
        return fail('branch_missing', `branch ${input.branch} does not exist`);
      }
    }

    // Stage 2, in parallel: the trees along the path and, for the optimistic lock, the file's last commit.
    const segments = filePath.split('/').map((segment) => Buffer.from(segment, 'utf8'));
    const dirCount = segments.length - 1;
    const lastCommit =
      base && input.expectedLastCommitId !== undefined
        ? this.gitOk(['log', '-1', '--format=%H', base.commit, '--', filePath]).then(
            (out) => ({ ok: true as const, id: out.toString().trim() }),
            (error: unknown) => ({ ok: false as const, error }),
          )
        : Promise.resolve({ ok: true as const, id: null });
    const [path, lastCommitId] = await Promise.all([
      base ? this.readTreesAlong(base.tree, filePath, segments) : Promise.resolve(null),
      lastCommit,
    ]);
    // path.trees[i]: the entries of the directory made of the first i segments, while it exists.
    const trees = path?.trees ?? [[]];
    const entry = trees.length > dirCount ? findEntry(trees[dirCount] ?? [], segments[dirCount]) : null;
    if (input.action === 'create' && entry) return fail('file_exists', `${filePath} already exists`);
    if (input.action !== 'create' && (entry === null || entryType(entry.mode) !== 'blob'))
      return fail('file_missing', `${filePath} does not exist`);
    if (input.expectedLastCommitId !== undefined) {
      if (!lastCommitId.ok) throw lastCommitId.error;
      if (input.expectedLastCommitId.toLowerCase() !== lastCommitId.id)
        return fail('branch_moved', `${filePath} has been changed since ${input.expectedLastCommitId}`);
    }

    // Stage 3: what update-index refused or did. An update keeps the entry's mode (executable, symlink).
    const mode = entry?.mode ?? MODE_FILE;
    if (!verifyPath(filePath, input.action === 'delete' ? 0 : mode)) {
      // update-index --index-info skips ("Ignoring path") a removal it considers invalid.
      if (input.action === 'delete') return fail('empty_commit', 'the change leaves the tree unchanged');
      throw new GitError(['update-index', filePath], 128, `error: Invalid path '${filePath}'`);
    }
    // The one expected clash: a file where the path needs a directory, such as creating `a/b` where `a` is
    // a file (the entry checks above cover the other cases).
    if (path?.blockedAt !== undefined)
      return fail('file_exists', `${filePath} conflicts with an existing file or directory`);

    const objects: EncodedObject[] = [];
    let child: TreeEntry | null = null;
    if (input.action !== 'delete') {
      const blob = encodeObject('blob', input.content ?? Buffer.alloc(0));
      objects.push(blob);
      child = { name: segments[dirCount] ?? Buffer.alloc(0), mode, id: blob.id };
    }
    // Bottom-up: each directory without the old entry, with the new one; a directory left empty goes away
    // (as it has no index entries), the root stays (the empty tree).
    let tree = EMPTY_TREE_ID;
    for (let depth = dirCount; depth >= 0; depth -= 1) {
      const name = segments[depth] ?? Buffer.alloc(0);
      const entries = (trees[depth] ?? []).filter(
        // write-tree never writes a directory without files: an empty subtree does not survive a rebuild.
        (e) => !e.name.equals(name) && !(e.mode === MODE_TREE && e.id === EMPTY_TREE_ID),
      );
      if (child) entries.push({ ...child, name });
      if (entries.length === 0 && depth > 0) {
        child = null;
        continue;
      }
      const object = encodeObject('tree', serializeTree(entries));
      objects.push(object);
      child = { name: Buffer.alloc(0), mode: MODE_TREE, id: object.id };
      tree = object.id;
    }
    if (tree === base?.tree) return fail('empty_commit', 'the change leaves the tree unchanged');

    const parents = base ? [base.commit] : [];
    let commit: EncodedObject;
    try {
      commit = encodeObject(
        'commit',
        commitContent({
          tree,
          parents,
          author: { name: input.authorName, email: input.authorEmail },
          committer: { name: input.committerName, email: input.committerEmail },
          message: input.message,
          date: currentCommitDate(),
        }),
      );
    } catch (error) {
      if (!(error instanceof CommitFormatError)) throw error;
      const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent])];
      throw new GitError(args, error.exitCode, error.message);
    }
    objects.push(commit);
    const objectsDir = join(this.path, 'objects');
    await Promise.all(objects.map((object) => writeLooseObject(objectsDir, object)));

    // The compare-and-swap, git's own: `update-ref <ref> <new> <old>` through the repository's
    // update-ref process. A refusal is told to commitFileChange, which retries or reports branch_moved.
    const ref = `refs/heads/${input.branch}`;
    let outcome = await refUpdates.update(this.path, ref, commit.id, oldValue);
    if (outcome === 'unknown') {
      // git died between locking and committing: the commit is new, so the branch holds it (or moved on
      // from it) exactly when the update happened.
      const tip = (await this.readBranchTipsBatch([input.branch])).get(input.branch);
      const applied =
        tip !== undefined &&
        (tip.commit === commit.id ||
          (await this.git(['merge-base', '--is-ancestor', commit.id, tip.commit])).code === 0);
      outcome = applied ? 'committed' : 'refused';
    }
    if (outcome !== 'committed') return { ok: false, reason: 'ref_refused' };
    repositoryReadCache.invalidate(this.path);
    return { ok: true, commitId: commit.id, before: oldValue };
  }

  /** All branches, sorted by name, with their tip commits, from a single for-each-ref call. */
  async listBranches(): Promise<BranchInfo[]> {
    return repositoryReadCache.get(this.path, 'listBranches', async (): Promise<BranchInfo[]> => {
      const out = await this.gitOk([
        'for-each-ref',
        '--sort=refname',
        `--format=${BRANCH_FORMAT}`,
        'refs/heads/',
      ]);
      return parseRecords(out, BRANCH_FIELDS.length).map(toBranchInfo);
    });
  }

  async getBranch(name: string): Promise<BranchInfo | null> {
    return (await this.branchesNamed([name]))[0] ?? null;
  }

  /**
   * The names of all branches, sorted by name (git's byte order, as GitLab's lists), from one for-each-ref
   * that reads no commit. A list filters and cuts this, then reads the page's branches only.
   */
  async branchNames(): Promise<readonly string[]> {
    return repositoryReadCache.get(this.path, 'branchNames', async (): Promise<readonly string[]> => {
      const out = await this.gitOk([
        'for-each-ref',
        '--sort=refname',
        '--format=%(refname:lstrip=2)',
        'refs/heads/',
      ]);
      return out
        .toString('utf8')
        .split('\n')
        .filter((name) => name.length > 0);
    });
  }

  /**
   * The named branches with their tip commits, in the order asked, from one for-each-ref over exactly
   * those refs; names that are not branches are left out.
   */
  async branchesNamed(names: readonly string[]): Promise<BranchInfo[]> {
    const wanted = names.filter(looksLikeBranchName);
    if (wanted.length === 0) return [];
    return repositoryReadCache.get(
      this.path,
      `branchesNamed\0${wanted.join('\0')}`,
      async (): Promise<BranchInfo[]> => {
        const out = await this.gitOk([
          'for-each-ref',
          `--format=${BRANCH_FORMAT}`,
          ...wanted.map((name) => `refs/heads/${name}`),
        ]);
        // A pattern also matches `name/…` (git cannot hold both `a` and `a/b`, but be exact anyway).
        const byRef = new Map(parseRecords(out, BRANCH_FIELDS.length).map((r) => [r[0], r] as const));
        return wanted.flatMap((name) => {
          const record = byRef.get(`refs/heads/${name}`);
          return record ? [toBranchInfo(record)] : [];
        });
      },
    );
  }

  /** Creates `name` at `ref`; the zero old value makes git refuse if the branch appeared meanwhile. */
  async createBranch(name: string, ref: string): Promise<CreateBranchResult> {
    const [valid, commit] = await Promise.all([this.isValidBranchName(name), this.resolveRef(ref)]);
    if (!valid) return { ok: false, reason: 'invalid_name', message: `Branch name is invalid: ${name}` };
    if (commit === null)
      return { ok: false, reason: 'unknown_ref', message: `Invalid reference name: ${ref}` };
    const created = await this.git(['update-ref', `refs/heads/${name}`, commit, ZERO_OID]);
    repositoryReadCache.invalidate(this.path);
    if (created.code !== 0) {
      // Either the branch exists, or it clashes with one (`a/b` next to `a`): git cannot store both.
      return (await this.getBranch(name))
        ? { ok: false, reason: 'exists', message: `Branch already exists: ${name}` }
        : {
            ok: false,
            reason: 'invalid_name',
            message: `Branch name conflicts with an existing branch: ${name}`,
          };
    }
    const branch = await this.getBranch(name);
    if (!branch) throw new Error(`branch ${name} vanished right after its creation`);
    return { ok: true, branch };
  }

  /**
   * Deletes a branch with a compare-and-swap on its tip (the tip read now, or `expectedCommit`), so a
   * branch that receives a commit meanwhile is not deleted.
   */
  async deleteBranch(name: string, expectedCommit?: string): Promise<DeleteBranchResult> {
    const tip = isSafeRevision(name) ? (await this.readBranchTips([name])).get(name) : undefined;
    if (!tip) return { ok: false, reason: 'not_found', message: `Branch not found: ${name}` };
    const old = expectedCommit ?? tip.commit;
    const deleted = await this.git(['update-ref', '-d', `refs/heads/${name}`, old]);
    repositoryReadCache.invalidate(this.path);
    return deleted.code === 0
      ? { ok: true }
      : { ok: false, reason: 'branch_moved', message: `branch ${name} was changed by someone else` };
  }

  /** Whether `branchCommit` is reachable from the tip of `intoBranch` (false when either is unknown). */
  async isMerged(branchCommit: string, intoBranch: string): Promise<boolean> {
    if (!isSafeRevision(branchCommit) || !isSafeRevision(intoBranch)) return false;
    const result = await this.git(['merge-base', '--is-ancestor', branchCommit, `refs/heads/${intoBranch}`]);
    return result.code === 0;
  }

  /**
   * Names of the branches whose tips are reachable from `defaultBranch`, in one for-each-ref call. The
   * default branch itself is left out (it is not "merged" into itself, as in GitLab).
   */
  async mergedBranches(defaultBranch: string): Promise<Set<string>> {
    return this.mergedAmong(defaultBranch, null);
  }

  /**
   * Which of the named branches (all branches for null) are merged into `defaultBranch`, as
   * mergedBranches says: a list asks for its page's branches only.
   */
  async mergedAmong(defaultBranch: string, names: readonly string[] | null): Promise<Set<string>> {
    const wanted = names?.filter(looksLikeBranchName) ?? null;
    if (wanted?.length === 0) return new Set();
    return repositoryReadCache.get(
      this.path,
      `mergedAmong\0${defaultBranch}\0${wanted === null ? '*' : `=${wanted.join('\0')}`}`,
      async (): Promise<Set<string>> => {
        if (!isSafeRevision(defaultBranch)) return new Set();
        const patterns = wanted === null ? ['refs/heads/'] : wanted.map((name) => `refs/heads/${name}`);
        const result = await this.git([
          'for-each-ref',
          '--format=%(refname)',
          `--merged=refs/heads/${defaultBranch}`,
          ...patterns,
        ]);
        if (result.code !== 0) return new Set(); // the default branch does not exist (yet)
        const names = result.stdout
          .toString('utf8')
          .split('\n')
          .filter((line) => line.length > 0)
          .map((ref) => ref.replace(/^refs\/heads\//, ''));
        const asked = wanted === null ? null : new Set(wanted);
        return new Set(names.filter((name) => name !== defaultBranch && (asked?.has(name) ?? true)));
      },
    );
  }

  /** The branch HEAD points to (it may not exist yet in an empty repository); null when detached. */
  async defaultBranch(): Promise<string | null> {
    const result = await this.git(['symbolic-ref', '--quiet', 'HEAD']);
    const ref = result.stdout.toString('utf8').trim();
    return result.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  }

  async setDefaultBranch(name: string): Promise<void> {
    if (!(await this.isValidBranchName(name))) throw new Error(`invalid branch name: ${name}`);
    await this.gitOk(['symbolic-ref', 'HEAD', `refs/heads/${name}`]);
    repositoryReadCache.invalidate(this.path);
  }

  /**
   * Mirrors the repository to `url` as GitLab's push mirrors do: the given branches and every tag, with
   * explicit refspecs. With `force` (keep_divergent_refs off) refs that differ on the mirror are overwritten
   * and the mirror's branches (those `coversBranch` accepts) and tags that the project does not have are
   * deleted; without it nothing is overwritten or deleted, and git reports what diverged. Errors are
   * returned with credentials masked, never thrown.
   */
  async pushMirror(url: string, options: PushMirrorOptions): Promise<PushMirrorResult> {
    if (url.length === 0 || url.startsWith('-')) return { ok: false, error: 'invalid mirror URL' };
    const bad = options.branches.find((name) => !isSafeRevision(name));
    if (bad !== undefined) return { ok: false, error: `invalid branch name: ${bad}` };
    const plus = options.force ? '+' : '';
    const tags = await this.tagNames();
    const refspecs = [
      ...options.branches.map((name) => `${plus}refs/heads/${name}:refs/heads/${name}`),
      ...tags.map((name) => `${plus}refs/tags/${name}:refs/tags/${name}`),
    ];
    try {
      if (options.force) {
        const remote = await this.remoteRefs(url);
        if (!remote.ok) return remote;
        const branches = new Set(options.branches);
        const localTags = new Set(tags);
        for (const ref of remote.refs) {
          const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
          const tag = ref.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : undefined;
          if (branch !== undefined && !branches.has(branch) && options.coversBranch(branch))
            refspecs.push(`:${ref}`);
          if (tag !== undefined && !localTags.has(tag)) refspecs.push(`:${ref}`);
        }
      }
      if (refspecs.length === 0) return { ok: true };
      const result = await this.git(
        ['push', '--quiet', '--no-verify', '--end-of-options', url, ...refspecs],
        {
          timeoutMs: PUSH_TIMEOUT_MS,
        },
      );
      if (result.timedOut) return { ok: false, error: `push timed out after ${PUSH_TIMEOUT_MS / 1000} s` };
      if (result.code === 0) return { ok: true };
      const error = result.stderr.trim() || `git push exited with ${result.code}`;
      return { ok: false, error: maskCredentials(error, url) };
    } catch (error) {
      return { ok: false, error: maskCredentials(String(error), url) };
    }
  }

  /**
   * The commits reachable from `tip` and not from `exclude` (a SHA or branch; null for all of them): the
   * newest `limit`, oldest first, and how many there are in all. The commits of a push, as GitLab's hooks
   * list them.
   */
  async commitsInRange(
    tip: string,
    exclude: string | null,
    limit: number,
  ): Promise<{ commits: BranchCommitInfo[]; total: number }> {
    if (!isSafeRevision(tip) || (exclude !== null && !isSafeRevision(exclude)))
      return { commits: [], total: 0 };
    const range = exclude === null ? [tip] : [tip, `^${exclude}`];
    const log = await this.gitOk(['log', `-n${limit}`, `--format=${RANGE_COMMIT_FORMAT}`, ...range, '--']);
    const commits = parseRecords(log, RANGE_COMMIT_FIELDS.length).map(
      (record) => toBranchInfo(record).commit,
    );
    // Fewer than the limit are all of them (a push through the API brings one): only a longer range is
    // counted, by a second git process (spawning one is most of a commit's CPU time in this server).
    const total =
      commits.length < limit
        ? commits.length
        : Number((await this.gitOk(['rev-list', '--count', ...range, '--'])).toString('utf8').trim());
    return { commits: commits.reverse(), total };
  }

  /**
   * The unified diff from `from` to `to` (null `from`: against the empty tree), cut at `maxBytes`: the diffs
   * of a push e-mail. Null when a revision is unknown.
   */
  async diffBetween(from: string | null, to: string, maxBytes: number): Promise<string | null> {
    if (!isSafeRevision(to) || (from !== null && !isSafeRevision(from))) return null;
    const base =
      from ?? (await this.gitOk(['hash-object', '-t', 'tree', '/dev/null'])).toString('utf8').trim();
    const result = await this.git(['diff', '--no-color', '--no-ext-diff', base, to, '--']);
    if (result.code !== 0) return null;
    const text = result.stdout.subarray(0, maxBytes).toString('utf8');
    return result.stdout.length > maxBytes ? `${text}\n[diff cut at ${maxBytes} bytes]\n` : text;
  }

  /** The names of the repository's tags. */
  async tagNames(): Promise<string[]> {
    const out = await this.gitOk(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/tags/']);
    return out.toString('utf8').split('\n').filter(Boolean);
  }

  /** The branches and tags of a remote repository (full ref names), or the masked error. */
  private async remoteRefs(
    url: string,
  ): Promise<{ ok: true; refs: string[] } | { ok: false; error: string }> {
    const result = await this.git(['ls-remote', '--refs', '--heads', '--tags', '--end-of-options', url], {
      timeoutMs: PUSH_TIMEOUT_MS,
    });
    if (result.timedOut) return { ok: false, error: `listing the mirror's refs timed out` };
    if (result.code !== 0) {
      const error = result.stderr.trim() || `git ls-remote exited with ${result.code}`;
      return { ok: false, error: maskCredentials(error, url) };
    }
    const refs = result.stdout
      .toString('utf8')
      .split('\n')
      .map((line) => line.split('\t')[1])
      .filter((ref): ref is string => ref !== undefined && isSafeRevision(ref));
    return { ok: true, refs };
  }

  /** Writes every ref and the objects they need into one bundle file (throws for an empty repository). */
  async createBundle(outputPath: string): Promise<void> {
    await this.gitOk(['bundle', 'create', '--quiet', outputPath, '--all']);
  }

  /**
   * A new bare repository at `targetPath` holding every branch and tag of the bundle at the same SHAs.
   * The bundle is not kept as a remote: the repository must not depend on the import file.
   */
  static async cloneFromBundle(bundlePath: string, targetPath: string): Promise<GitRepository> {
    if (!isAbsolute(targetPath) || bundlePath.startsWith('-'))
      throw new Error('invalid bundle or target path');
    const args = [...CONFIG_ARGS, 'clone', '--quiet', '--bare', '--', bundlePath, targetPath];
    const result = await runGit(args);
    if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
    repositoryReadCache.invalidate(targetPath);
    const repository = new GitRepository(targetPath);
    await repository.gitOk(['remote', 'remove', 'origin']);
    return repository;
  }

  /** Every file (blob) path at `ref`, recursively; null when the ref is unknown. */
  async listTreePaths(ref: string): Promise<string[] | null> {
    return repositoryReadCache.get(this.path, `listTreePaths\0${ref}`, async (): Promise<string[] | null> => {
      if (!isSafeRevision(ref)) return null;
      const result = await this.git(['ls-tree', '-r', '-z', '--full-tree', `${ref}^{commit}`]);
      if (result.code !== 0) {
        if (MISSING.test(result.stderr)) return null;
        throw new GitError(['ls-tree', ref], result.code, result.stderr);
      }
      const paths: string[] = [];
      for (const line of result.stdout.toString('utf8').split('\0')) {
        // "<mode> <type> <sha>\t<path>"; gitlinks (submodules) are not files of this repository.
        const tab = line.indexOf('\t');
        if (tab > 0 && line.split(' ', 2)[1] === 'blob') paths.push(line.slice(tab + 1));
      }
      return paths;
    });
  }

  /**
   * Every file (blob) at `ref` with its size in bytes (`ls-tree -r -l`), recursively, or only the top level
   * with `recursive: false`; null when the ref is unknown (an empty repository).
   */
  async listTreeFiles(ref: string, options: { recursive: boolean }): Promise<TreeFile[] | null> {
    const key = `listTreeFiles\0${options.recursive ? 'r' : '1'}\0${ref}`;
    return repositoryReadCache.get(this.path, key, async (): Promise<TreeFile[] | null> => {
      if (!isSafeRevision(ref)) return null;
      const args = [
        'ls-tree',
        '-l',
        '-z',
        '--full-tree',
        ...(options.recursive ? ['-r'] : []),
        `${ref}^{commit}`,
      ];
      const result = await this.git(args);
      if (result.code !== 0) {
        if (MISSING.test(result.stderr)) return null;
        throw new GitError(['ls-tree', ref], result.code, result.stderr);
      }
      const files: TreeFile[] = [];
      for (const line of result.stdout.toString('utf8').split('\0')) {
        // "<mode> blob <sha> <size padded>\t<path>"; trees and gitlinks have no size ("-").
        const tab = line.indexOf('\t');
        if (tab <= 0) continue;
        const [, type, , size] = line.slice(0, tab).split(/ +/);
        if (type === 'blob' && size !== undefined && /^\d+$/.test(size))
          files.push({ path: line.slice(tab + 1), size: Number(size) });
      }
      return files;
    });
  }

  /** The number of commits reachable from `ref`; 0 when the ref is unknown (an empty repository). */
  async commitCount(ref: string): Promise<number> {
    return repositoryReadCache.get(this.path, `commitCount\0${ref}`, async (): Promise<number> => {
      if (!isSafeRevision(ref)) return 0;
      const result = await this.git(['rev-list', '--count', `${ref}^{commit}`, '--']);
      if (result.code !== 0) {
        if (MISSING.test(result.stderr)) return 0;
        throw new GitError(['rev-list', '--count', ref], result.code, result.stderr);
      }
      return Number(result.stdout.toString('utf8').trim());
    });
  }

  /* ---------------------------------------------------------------------------------------------- */

  /** Tips (commit and tree) of the named branches that exist, from one for-each-ref call. */
  private async readBranchTips(names: string[]): Promise<Map<string, BranchTip>> {
    const out = await this.gitOk([
      'for-each-ref',
      '--format=%(refname)%00%(objectname)%00%(tree)%00',
      ...names.map((name) => `refs/heads/${name}`),
    ]);
    const tips = new Map<string, BranchTip>();
    for (const [ref = '', commit = '', tree = ''] of parseRecords(out, 3)) {
      const name = ref.replace(/^refs\/heads\//, '');
      if (names.includes(name)) tips.set(name, { commit, tree });
    }
    return tips;
  }

  /** Whether the repository has any branch or tag, i.e. is not freshly created. */
  private async hasRefs(): Promise<boolean> {
    const out = await this.gitOk([
      'for-each-ref',
      '--count=1',
      '--format=%(refname)',
      'refs/heads/',
      'refs/tags/',
    ]);
    return out.length > 0;
  }

  /** Reads objects through the repository's long-running cat-file process. */
  private async catFile(lines: string[]): Promise<(BatchObject | null)[]> {
    try {
      return await catFiles.read(this.path, lines);
    } catch (error) {
      throw new GitError(['cat-file', '--batch'], -1, error instanceof Error ? error.message : String(error));
    }
  }

  /** Tips (commit and root tree) of the named branches that exist, from one cat-file round trip. */
  private async readBranchTipsBatch(names: string[]): Promise<Map<string, BranchTip>> {
    const objects = await this.catFile(names.map((name) => `refs/heads/${name}^{commit}`));
    const tips = new Map<string, BranchTip>();
    names.forEach((name, i) => {
      const commit = objects[i];
      const tree =
        commit?.type === 'commit'
          ? /^tree ([0-9a-f]{40})/.exec(commit.content.toString('latin1'))?.[1]
          : undefined;
      if (commit && tree) tips.set(name, { commit: commit.id, tree });
    });
    return tips;
  }

  /**
   * The entries of the root tree and of each existing directory on the way to the last segment, from one
   * cat-file round trip (`<tree>`, `<tree>:a`, `<tree>:a/b`…; all by the root's SHA, so consistent). The
   * walk follows the parent's entries: it stops at the first missing directory, and `blockedAt` is the
   * depth of a non-directory (file, symlink, submodule) where a directory is needed.
   */
  private async readTreesAlong(
    root: string,
    filePath: string,
    segments: Buffer[],
  ): Promise<{ trees: TreeEntry[][]; blockedAt?: number }> {
    const names = filePath.split('/');
    const prefixes: string[] = [];
    for (let depth = 1; depth < segments.length; depth += 1) {
      prefixes.push(`${root}:${names.slice(0, depth).join('/')}`);
    }
    const objects = await this.catFile([root, ...prefixes]);
    const trees: TreeEntry[][] = [];
    let expected: string = root;
    for (let depth = 0; depth < segments.length; depth += 1) {
      const object = objects[depth];
      if (object?.type !== 'tree' || object.id !== expected) {
        throw new GitError(['cat-file', '--batch'], -1, `tree ${expected} could not be read`);
      }
      const entries = parseTree(object.content);
      trees.push(entries);
      if (depth === segments.length - 1) break;
      const next = findEntry(entries, segments[depth]);
      if (next === null) break;
      if (next.mode !== MODE_TREE) return { trees, blockedAt: depth + 1 };
      expected = next.id;
    }
    return { trees };
  }

  /** git's own branch-name rules (`check-ref-format --branch`), plus the names git branch refuses. */
  private async isValidBranchName(name: string): Promise<boolean> {
    if (!isSafeRevision(name) || name === 'HEAD' || !fitsRefStorage(name)) return false;
    const result = await this.git(['check-ref-format', '--branch', name]);
    // `--branch` expands shorthands such as `@{-1}`: only a name that stays itself is a branch name.
    return result.code === 0 && result.stdout.toString('utf8').trim() === name;
  }
}

/** The entry named `name` in a parsed tree. */
function findEntry(entries: readonly TreeEntry[], name: Buffer | undefined): TreeEntry | null {
  if (name === undefined) return null;
  return entries.find((entry) => entry.name.equals(name)) ?? null;
}

/** Parses `cat-file --batch` output: "<sha> <type> <size>\n<content>\n" or "<name> missing\n" per input. */
function parseBatchOutput(output: Buffer): ({ id: string; type: string; content: Buffer } | null)[] {
  const objects: ({ id: string; type: string; content: Buffer } | null)[] = [];
  let offset = 0;
  while (offset < output.length) {
    const newline = output.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = output.subarray(offset, newline).toString('utf8');
    const match = /^([0-9a-f]{40}) (\w+) (\d+)$/.exec(header);
    if (!match) {
      objects.push(null); // "<name> missing" or "<name> ambiguous"
      offset = newline + 1;
      continue;
    }
    const size = Number(match[3]);
    const start = newline + 1;
    objects.push({ id: match[1] ?? '', type: match[2] ?? '', content: output.subarray(start, start + size) });
    offset = start + size + 1;
  }
  return objects;
}

/**
 * Commits of one file change, with compare-and-swap on the branch. The trees along the path are read through
 * the repository's cat-file process and the new blob, trees and commit are written in-process exactly as
 * hash-object, write-tree and commit-tree would write them (objects.ts); the ref update, the compare-and-swap,
 * is git's own through the repository's update-ref process. The common case spawns no process at all.
 */

import { join } from 'node:path';
import { type BranchTip, branchTips, readBranchTipsBatch } from './branches.js';
import type { BatchObject } from './catFile.js';
import { type BranchCommitInfo, commitInfoFromObject } from './commitInfo.js';
import { ZERO_OID } from './gitOutput.js';
import { type GitDir, GitError } from './gitProcess.js';
import { checkFilePath, type Failure, isValidBranchName, looksLikeBranchName } from './names.js';
import {
  CommitFormatError,
  commitContent,
  currentCommitDate,
  EMPTY_TREE_ID,
  type EncodedObject,
  encodeObject,
  entryType,
  MODE_EXECUTABLE,
  MODE_FILE,
  MODE_TREE,
  parseTree,
  serializeTree,
  type TreeEntry,
  verifyPath,
  writeLooseObject,
} from './objects.js';
import { repositoryReadCache } from './readCache.js';

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
  /** Executable (100755) or not (100644); undefined keeps an updated file's mode (a new file is plain). */
  executable?: boolean;
}

/** The mode a written file gets: a regular file's executable bit as asked; a symbolic link stays one. */
function fileMode(current: number, executable: boolean | undefined): number {
  if (executable === undefined || (current !== MODE_FILE && current !== MODE_EXECUTABLE)) return current;
  return executable ? MODE_EXECUTABLE : MODE_FILE;
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

export type CommitFileChangeResult =
  /**
   * `before`: the branch's tip the commit replaced, the zero SHA when the commit made the branch. `commit`:
   * the new commit as `git log` would describe it (null in the unexpected case that it cannot be read back).
   */
  | { ok: true; commitId: string; before: string; commit: BranchCommitInfo | null }
  | Failure<CommitFailureReason>;

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
export async function commitFileChange(
  repo: GitDir,
  input: CommitFileChangeInput,
): Promise<CommitFileChangeResult> {
  return inTurn(`${repo.path}\0${input.branch}`, async () => {
    for (let attempt = 1; ; attempt += 1) {
      const result = await commitFileChangeOnce(repo, input);
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
async function commitFileChangeOnce(repo: GitDir, input: CommitFileChangeInput): Promise<CommitAttempt> {
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

  // Stage 1: what branch and startBranch hold now and, in the same cat-file round trip, the branch's trees
  // along the path (each line resolves the ref again: walkTrees checks that they all saw one tip).
  const wanted = [input.branch, ...(input.startBranch !== undefined ? [input.startBranch] : [])];
  const segments = filePath.split('/').map((segment) => Buffer.from(segment, 'utf8'));
  const dirCount = segments.length - 1;
  const branchRef = `refs/heads/${input.branch}`;
  const read = await repo.readObjects([
    ...wanted.map((name) => `refs/heads/${name}^{commit}`),
    `${branchRef}^{tree}`,
    ...treePrefixes(filePath, dirCount).map((prefix) => `${branchRef}:${prefix}`),
  ]);
  const tips = branchTips(wanted, read);

  // The base: the branch itself, else startBranch's tip for a new branch, else nothing (empty repo).
  let base: BranchTip | null = tips.get(input.branch) ?? null;
  const oldValue = base?.commit ?? ZERO_OID;
  if (base === null) {
    if (!(await isValidBranchName(input.branch))) {
      return fail('invalid_branch', `invalid branch name: ${input.branch}`);
    }
    if (input.startBranch !== undefined) {
      base = tips.get(input.startBranch) ?? null;
      if (base === null) return fail('branch_missing', `start branch ${input.startBranch} does not exist`);
    } else if (await hasRefs(repo)) {
      return fail('branch_missing', `branch ${input.branch} does not exist`);
    }
  }

  // Stage 2, in parallel: the trees along the path unless read above and, for the optimistic lock, the
  // file's last commit.
  const branchTrees =
    base !== null && base === tips.get(input.branch)
      ? walkTrees(read.slice(wanted.length), base.tree, segments)
      : null;
  const lastCommit =
    base && input.expectedLastCommitId !== undefined
      ? repo.gitOk(['log', '-1', '--format=%H', base.commit, '--', filePath]).then(
          (out) => ({ ok: true as const, id: out.toString().trim() }),
          (error: unknown) => ({ ok: false as const, error }),
        )
      : Promise.resolve({ ok: true as const, id: null });
  const [path, lastCommitId] = await Promise.all([
    base ? (branchTrees ?? readTreesAlong(repo, base.tree, filePath, segments)) : Promise.resolve(null),
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
  const mode = fileMode(entry?.mode ?? MODE_FILE, input.executable);
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
  const objectsDir = join(repo.path, 'objects');
  await Promise.all(objects.map((object) => writeLooseObject(objectsDir, object)));

  // The compare-and-swap, git's own: `update-ref <ref> <new> <old>` through the repository's
  // update-ref process. A refusal is told to commitFileChange, which retries or reports branch_moved.
  const ref = `refs/heads/${input.branch}`;
  let outcome = await repo.updateRef(ref, commit.id, oldValue);
  if (outcome === 'unknown') {
    // git died between locking and committing: the commit is new, so the branch holds it (or moved on
    // from it) exactly when the update happened.
    const tip = (await readBranchTipsBatch(repo, [input.branch])).get(input.branch);
    const applied =
      tip !== undefined &&
      (tip.commit === commit.id ||
        (await repo.git(['merge-base', '--is-ancestor', commit.id, tip.commit])).code === 0);
    outcome = applied ? 'committed' : 'refused';
  }
  if (outcome !== 'committed') return { ok: false, reason: 'ref_refused' };
  repositoryReadCache.invalidate(repo.path);
  return {
    ok: true,
    commitId: commit.id,
    before: oldValue,
    commit: commitInfoFromObject(commit.id, commit.raw.subarray(commit.raw.indexOf(0) + 1)),
  };
}

/** Whether the repository has any branch or tag, i.e. is not freshly created. */
async function hasRefs(repo: GitDir): Promise<boolean> {
  const out = await repo.gitOk([
    'for-each-ref',
    '--count=1',
    '--format=%(refname)',
    'refs/heads/',
    'refs/tags/',
  ]);
  return out.length > 0;
}

/**
 * The entries of the root tree and of each existing directory on the way to the last segment, from one
 * cat-file round trip (`<tree>`, `<tree>:a`, `<tree>:a/b`…; all by the root's SHA, so consistent). The
 * walk follows the parent's entries: it stops at the first missing directory, and `blockedAt` is the
 * depth of a non-directory (file, symlink, submodule) where a directory is needed.
 */
async function readTreesAlong(
  repo: GitDir,
  root: string,
  filePath: string,
  segments: Buffer[],
): Promise<{ trees: TreeEntry[][]; blockedAt?: number }> {
  const prefixes = treePrefixes(filePath, segments.length - 1).map((prefix) => `${root}:${prefix}`);
  const walked = walkTrees(await repo.readObjects([root, ...prefixes]), root, segments);
  if (walked === null) throw new GitError(['cat-file', '--batch'], -1, `tree ${root} could not be read`);
  return walked;
}

/** The directories on the way to a path's last segment: `a`, `a/b`… (`dirCount` of them). */
function treePrefixes(filePath: string, dirCount: number): string[] {
  const names = filePath.split('/');
  const prefixes: string[] = [];
  for (let depth = 1; depth <= dirCount; depth += 1) prefixes.push(names.slice(0, depth).join('/'));
  return prefixes;
}

/**
 * The entries of the root tree `root` and of each existing directory on the way to the last segment, from
 * the objects read for `<root>`, `<root>:a`, `<root>:a/b`… The walk follows the parent's entries: it stops
 * at the first missing directory, and `blockedAt` is the depth of a non-directory (file, symlink, submodule)
 * where a directory is needed. Null when an object is not the tree its parent names (read from another tip).
 */
function walkTrees(
  objects: readonly (BatchObject | null)[],
  root: string,
  segments: readonly Buffer[],
): { trees: TreeEntry[][]; blockedAt?: number } | null {
  const trees: TreeEntry[][] = [];
  let expected: string = root;
  for (let depth = 0; depth < segments.length; depth += 1) {
    const object = objects[depth];
    if (object?.type !== 'tree' || object.id !== expected) return null;
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

/** The entry named `name` in a parsed tree. */
function findEntry(entries: readonly TreeEntry[], name: Buffer | undefined): TreeEntry | null {
  if (name === undefined) return null;
  return entries.find((entry) => entry.name.equals(name)) ?? null;
}

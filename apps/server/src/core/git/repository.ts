/**
 * One bare git repository, driven by the `git` binary: the front every area uses. Each operation lives in
 * the module of its concept and GitRepository hands it on:
 * - gitProcess.ts: running git (one command, or the repository's long-running processes);
 * - names.ts: file paths, revisions and branch names git accepts;
 * - gitOutput.ts: reading git's machine-readable output;
 * - commits.ts: commits of a file change, with compare-and-swap on the branch;
 * - branches.ts: refs and branches; blame.ts: blame; trees.ts: files and trees; history.ts: ranges, diffs
 *   and counts; transfers.ts: push mirrors and bundles.
 *
 * Every SHA, tree, blame and ref update is git's own: we spawn plumbing commands (never a shell, arguments
 * always as arrays) and parse their machine-readable output. Process spawns are the main cost, so each
 * operation uses as few as it can; a commit through the API spawns none in the common case.
 */

import { isAbsolute } from 'node:path';
import type { BlameRange } from './blame.js';
import * as blame from './blame.js';
import type { CreateBranchResult, DeleteBranchResult } from './branches.js';
import * as branches from './branches.js';
import type { BranchCommitInfo, BranchInfo } from './commitInfo.js';
import type { CommitFileChangeInput, CommitFileChangeResult } from './commits.js';
import * as commits from './commits.js';
import { CONFIG_ARGS, GitDir, GitError, runGit } from './gitProcess.js';
import * as history from './history.js';
import { isSafeRevision } from './names.js';
import { repositoryReadCache } from './readCache.js';
import type { PushMirrorOptions, PushMirrorResult } from './transfers.js';
import * as transfers from './transfers.js';
import type { FileBlob, TreeFile } from './trees.js';
import * as trees from './trees.js';

export type { BlameCommit, BlameRange } from './blame.js';
export type { BranchTip, CreateBranchResult, DeleteBranchResult } from './branches.js';
export type { BranchCommitInfo, BranchInfo } from './commitInfo.js';
export type {
  CommitFailureReason,
  CommitFileChangeInput,
  CommitFileChangeResult,
  FileAction,
} from './commits.js';
export { MAX_COMMIT_ATTEMPTS } from './commits.js';
export { GitError, pooledProcessIds } from './gitProcess.js';
export type { Failure, PathCheck } from './names.js';
export { checkFilePath, isValidBranchName } from './names.js';
export type { PushMirrorOptions, PushMirrorResult } from './transfers.js';
export { maskCredentials } from './transfers.js';
export type { FileBlob, TreeFile } from './trees.js';

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

/** The operations of one repository; see each module for what they do and how. */
export class GitRepository extends GitDir {
  /**
   * A new bare repository at `targetPath` holding every branch and tag of the bundle at the same SHAs.
   * The bundle is not kept as a remote: the repository must not depend on the import file.
   */
  static async cloneFromBundle(bundlePath: string, targetPath: string): Promise<GitRepository> {
    await transfers.cloneBundle(bundlePath, targetPath);
    return new GitRepository(targetPath);
  }

  resolveRef(ref: string): Promise<string | null> {
    return branches.resolveRef(this, ref);
  }

  readFile(ref: string, filePath: string): Promise<FileBlob | null> {
    return trees.readFile(this, ref, filePath);
  }

  blame(ref: string, filePath: string): Promise<BlameRange[] | null> {
    return blame.blame(this, ref, filePath);
  }

  commitFileChange(input: CommitFileChangeInput): Promise<CommitFileChangeResult> {
    return commits.commitFileChange(this, input);
  }

  listBranches(): Promise<BranchInfo[]> {
    return branches.listBranches(this);
  }

  getBranch(name: string): Promise<BranchInfo | null> {
    return branches.getBranch(this, name);
  }

  branchNames(): Promise<readonly string[]> {
    return branches.branchNames(this);
  }

  branchesNamed(names: readonly string[]): Promise<BranchInfo[]> {
    return branches.branchesNamed(this, names);
  }

  createBranch(name: string, ref: string): Promise<CreateBranchResult> {
    return branches.createBranch(this, name, ref);
  }

  deleteBranch(name: string, expectedCommit?: string): Promise<DeleteBranchResult> {
    return branches.deleteBranch(this, name, expectedCommit);
  }

  isMerged(branchCommit: string, intoBranch: string): Promise<boolean> {
    return branches.isMerged(this, branchCommit, intoBranch);
  }

  mergedBranches(defaultBranch: string): Promise<Set<string>> {
    return branches.mergedBranches(this, defaultBranch);
  }

  mergedAmong(defaultBranch: string, names: readonly string[] | null): Promise<Set<string>> {
    return branches.mergedAmong(this, defaultBranch, names);
  }

  defaultBranch(): Promise<string | null> {
    return branches.defaultBranch(this);
  }

  setDefaultBranch(name: string): Promise<void> {
    return branches.setDefaultBranch(this, name);
  }

  pushMirror(url: string, options: PushMirrorOptions): Promise<PushMirrorResult> {
    return transfers.pushMirror(this, url, options);
  }

  commitsInRange(
    tip: string,
    exclude: string | null,
    limit: number,
  ): Promise<{ commits: BranchCommitInfo[]; total: number }> {
    return history.commitsInRange(this, tip, exclude, limit);
  }

  commitInfo(revision: string): Promise<BranchCommitInfo | null> {
    return history.commitInfo(this, revision);
  }

  diffBetween(from: string | null, to: string, maxBytes: number): Promise<string | null> {
    return history.diffBetween(this, from, to, maxBytes);
  }

  tagNames(): Promise<string[]> {
    return transfers.tagNames(this);
  }

  createBundle(outputPath: string): Promise<void> {
    return transfers.createBundle(this, outputPath);
  }

  listTreePaths(ref: string): Promise<string[] | null> {
    return trees.listTreePaths(this, ref);
  }

  listTreeFiles(ref: string, options: { recursive: boolean }): Promise<TreeFile[] | null> {
    return trees.listTreeFiles(this, ref, options);
  }

  commitCount(ref: string): Promise<number> {
    return history.commitCount(this, ref);
  }
}

/**
 * Merging one commit into a branch, as a merge request is merged (GitLab's MergeService and FfMergeService
 * through Gitaly's UserMergeBranch and UserFFBranch): a merge commit, a merge commit only when a fast-forward
 * is possible (semi-linear history), or a fast-forward, optionally after squashing the source's commits into
 * one. The merged tree is git's own (`merge-tree --write-tree`, no work tree or index), the commits are
 * `commit-tree`'s, and the branch moves by compare-and-swap (`update-ref <new> <old>`): a branch that moved
 * meanwhile is merged again on its new tip, and a published commit is never overwritten.
 */

import { readBranchTipsBatch } from './branches.js';
import { FULL_SHA } from './gitOutput.js';
import { type GitDir, GitError } from './gitProcess.js';
import { type Failure, looksLikeBranchName } from './names.js';
import { repositoryReadCache } from './readCache.js';

/** GitLab's project `merge_method`. */
export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

export interface MergeInput {
  targetBranch: string;
  /** The commit to merge: the source branch's head as the caller checked it. */
  sourceCommit: string;
  method: MergeMethod;
  /** The merge commit's message (unused by a fast-forward). */
  message: string;
  /** Squash the source's commits into one commit on the target first, with this message. */
  squashMessage: string | null;
  /** Author and committer of the commits the merge makes. */
  userName: string;
  userEmail: string;
}

export type MergeFailureReason =
  /** The target branch does not exist. */
  | 'target_missing'
  /** The source commit is already in the target branch: nothing to merge. */
  | 'nothing_to_merge'
  /** The changes conflict. */
  | 'conflict'
  /** The method needs a fast-forward and the target has commits the source lacks. */
  | 'not_fast_forward'
  /** The target kept moving under every attempt. */
  | 'target_moved';

export type MergeResult =
  /** `before` and `after`: the target's tip before and after; `squashCommit`: the squash commit, if made. */
  { ok: true; before: string; after: string; squashCommit: string | null } | Failure<MergeFailureReason>;

/** How often a merge is made again when the target branch moved between its reading and its update. */
export const MAX_MERGE_ATTEMPTS = 5;

export async function mergeIntoBranch(repo: GitDir, input: MergeInput): Promise<MergeResult> {
  if (!FULL_SHA.test(input.sourceCommit) || !looksLikeBranchName(input.targetBranch))
    return fail('target_missing', `branch ${input.targetBranch} does not exist`);
  for (let attempt = 1; ; attempt += 1) {
    const result = await mergeOnce(repo, input);
    if (result !== 'refused') return result;
    if (attempt >= MAX_MERGE_ATTEMPTS)
      return fail('target_moved', `branch ${input.targetBranch} was changed by someone else`);
  }
}

function fail(reason: MergeFailureReason, message: string): Failure<MergeFailureReason> {
  return { ok: false, reason, message };
}

/** What a merge of the source into the target's tip as it is now would take, or why it cannot be made. */
type MergePlan =
  | { ok: true; target: string; fastForward: boolean; tree: string }
  | Failure<MergeFailureReason>;

async function planMerge(
  repo: GitDir,
  targetBranch: string,
  source: string,
  method: MergeMethod,
): Promise<MergePlan> {
  const target = (await readBranchTipsBatch(repo, [targetBranch])).get(targetBranch);
  if (!target) return fail('target_missing', `branch ${targetBranch} does not exist`);
  if (await isAncestor(repo, source, target.commit))
    return fail('nothing_to_merge', 'the source is already merged into the target');
  const fastForward = await isAncestor(repo, target.commit, source);
  if (method !== 'merge' && !fastForward)
    return fail('not_fast_forward', 'a fast-forward merge is not possible; rebase the source branch');
  const tree = fastForward ? await treeOf(repo, source) : await mergedTree(repo, target.commit, source);
  if (tree === null) return fail('conflict', 'the merge has conflicts');
  return { ok: true, target: target.commit, fastForward, tree };
}

/**
 * Whether `sourceCommit` can be merged into `targetBranch` now with `method`, without writing anything but
 * the merged tree's objects: `ok`, or the reason a merge would fail (GitLab's mergeability check).
 */
export async function checkMerge(
  repo: GitDir,
  targetBranch: string,
  sourceCommit: string,
  method: MergeMethod,
): Promise<{ ok: true } | Failure<MergeFailureReason>> {
  if (!FULL_SHA.test(sourceCommit) || !looksLikeBranchName(targetBranch))
    return fail('target_missing', `branch ${targetBranch} does not exist`);
  const plan = await planMerge(repo, targetBranch, sourceCommit, method);
  return plan.ok ? { ok: true } : plan;
}

/** One attempt on the target's tip as it is now; `refused` when the tip moved before the update. */
async function mergeOnce(repo: GitDir, input: MergeInput): Promise<MergeResult | 'refused'> {
  const plan = await planMerge(repo, input.targetBranch, input.sourceCommit, input.method);
  if (!plan.ok) return plan;
  const { target, tree } = plan;
  const identity = { name: input.userName, email: input.userEmail };
  const squashCommit =
    input.squashMessage === null
      ? null
      : await commitTree(repo, tree, [target], input.squashMessage, identity);
  const head = squashCommit ?? input.sourceCommit;
  const after =
    input.method === 'ff' ? head : await commitTree(repo, tree, [target, head], input.message, identity);

  const ref = `refs/heads/${input.targetBranch}`;
  let outcome = await repo.updateRef(ref, after, target);
  if (outcome === 'unknown') {
    // git died between locking and committing: the branch holds the new tip (or moved on from it) exactly
    // when the update happened.
    const tip = (await readBranchTipsBatch(repo, [input.targetBranch])).get(input.targetBranch);
    outcome =
      tip && (tip.commit === after || (await isAncestor(repo, after, tip.commit))) ? 'committed' : 'refused';
  }
  if (outcome !== 'committed') return 'refused';
  repositoryReadCache.invalidate(repo.path);
  return { ok: true, before: target, after, squashCommit };
}

/** Whether `ancestor` is `descendant` or one of its ancestors (false for an unknown commit). */
export async function isAncestor(repo: GitDir, ancestor: string, descendant: string): Promise<boolean> {
  const args = ['merge-base', '--is-ancestor', ancestor, descendant];
  const result = await repo.git(args);
  if (result.code === 0) return true;
  if (result.code === 1) return false;
  throw new GitError(args, result.code, result.stderr);
}

async function treeOf(repo: GitDir, commit: string): Promise<string> {
  return (await repo.gitOk(['rev-parse', '--verify', `${commit}^{tree}`])).toString('utf8').trim();
}

/** The tree of the three-way merge of two commits, null when they conflict (git's exit code 1). */
async function mergedTree(repo: GitDir, ours: string, theirs: string): Promise<string | null> {
  const args = ['merge-tree', '--write-tree', '--no-messages', ours, theirs];
  const result = await repo.git(args);
  if (result.code === 1) return null;
  const tree = result.stdout.toString('utf8').split('\n')[0] ?? '';
  if (result.code !== 0 || !FULL_SHA.test(tree)) throw new GitError(args, result.code, result.stderr);
  return tree;
}

async function commitTree(
  repo: GitDir,
  tree: string,
  parents: readonly string[],
  message: string,
  identity: { name: string; email: string },
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'];
  const out = await repo.gitOk(args, {
    input: message,
    env: {
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: identity.name,
      GIT_COMMITTER_EMAIL: identity.email,
    },
  });
  return out.toString('utf8').trim();
}

/** The diff a merge request shows (GitLab's diff_refs and changes_count). */
export interface MergeDiff {
  /** The merge base of the target and the source: where the diff starts from. */
  baseSha: string | null;
  /** The target branch's head when the diff was made. */
  startSha: string;
  /** The number of files the source changes since the merge base. */
  changesCount: number;
}

/**
 * The diff of `sourceCommit` against the target branch as it is now; null when the target or the commit does
 * not exist.
 */
export async function mergeDiff(
  repo: GitDir,
  targetBranch: string,
  sourceCommit: string,
): Promise<MergeDiff | null> {
  if (!FULL_SHA.test(sourceCommit) || !looksLikeBranchName(targetBranch)) return null;
  const target = (await readBranchTipsBatch(repo, [targetBranch])).get(targetBranch);
  if (!target) return null;
  const base = await repo.git(['merge-base', target.commit, sourceCommit]);
  // No common history (exit 1): the whole source is the diff, as against an empty tree.
  const baseSha = base.code === 0 ? base.stdout.toString('utf8').trim() : null;
  if (base.code !== 0 && base.code !== 1) return null;
  const from = baseSha ?? EMPTY_TREE;
  const names = await repo.gitOk(['diff', '--name-only', '-z', '--no-renames', from, sourceCommit]);
  const changesCount = names
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '').length;
  return { baseSha, startSha: target.commit, changesCount };
}

/** git's empty tree, the base of a source with no history in common with its target. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The commit of the target branch that brought `commit` into it, when it is in it: `commit` itself when the
 * branch was fast-forwarded to it, else the first commit of the branch's first-parent line that descends from
 * it (the merge commit). Null when `commit` is not in the branch. What GitLab's
 * BranchPushMergeCommitAnalyzer finds for a merge request merged outside it.
 */
export async function commitThatMerged(
  repo: GitDir,
  targetBranch: string,
  commit: string,
): Promise<string | null> {
  if (!FULL_SHA.test(commit) || !looksLikeBranchName(targetBranch)) return null;
  const target = (await readBranchTipsBatch(repo, [targetBranch])).get(targetBranch);
  if (!target) return null;
  // Exit 0: in the branch; 1: not in it; else an unknown commit (not in it either).
  const contained = await repo.git(['merge-base', '--is-ancestor', commit, target.commit]);
  if (contained.code !== 0) return null;
  if (target.commit === commit) return commit;
  const range = `${commit}..${target.commit}`;
  const lines = async (args: string[]) =>
    (await repo.gitOk(args))
      .toString('utf8')
      .split('\n')
      .filter((line) => FULL_SHA.test(line));
  // The branch's own line since `commit` (newest first), kept to the commits that descend from `commit`.
  const descendants = new Set(await lines(['rev-list', '--ancestry-path', range]));
  const line = (await lines(['rev-list', '--first-parent', range])).filter((sha) => descendants.has(sha));
  const first = line.at(-1);
  if (first === undefined) return commit;
  const parent = (await repo.gitOk(['rev-parse', '--verify', `${first}^1`])).toString('utf8').trim();
  // The oldest of them has `commit` as its first parent: the branch went through `commit` (a fast-forward).
  return parent === commit ? commit : first;
}

/** History: the commits of a range (a push's), the patch between two commits, and how many commits a ref has. */

import { type BranchCommitInfo, commitInfoFromObject } from './commitInfo.js';
import {
  FULL_SHA,
  MISSING,
  parseRecords,
  RANGE_COMMIT_FIELDS,
  RANGE_COMMIT_FORMAT,
  toBranchInfo,
} from './gitOutput.js';
import { type GitDir, GitError } from './gitProcess.js';
import { isSafeRevision } from './names.js';
import { EMPTY_TREE_ID } from './objects.js';
import { repositoryReadCache } from './readCache.js';

/**
 * The commits reachable from `tip` and not from `exclude` (a SHA or branch; null for all of them): the
 * newest `limit`, oldest first, and how many there are in all. The commits of a push, as GitLab's hooks
 * list them.
 */
export async function commitsInRange(
  repo: GitDir,
  tip: string,
  exclude: string | null,
  limit: number,
): Promise<{ commits: BranchCommitInfo[]; total: number }> {
  if (!isSafeRevision(tip) || (exclude !== null && !isSafeRevision(exclude)))
    return { commits: [], total: 0 };
  const range = exclude === null ? [tip] : [tip, `^${exclude}`];
  const commits = await logCommits(repo, range, limit);
  // Fewer than the limit are all of them (a push through the API brings one): only a longer range is
  // counted, by a second git process (spawning one is most of a commit's CPU time in this server).
  const total =
    commits.length < limit
      ? commits.length
      : Number((await repo.gitOk(['rev-list', '--count', ...range, '--'])).toString('utf8').trim());
  return { commits: commits.reverse(), total };
}

/** The newest `limit` commits of `range` (git log's arguments), newest first. */
async function logCommits(repo: GitDir, range: string[], limit: number): Promise<BranchCommitInfo[]> {
  const log = await repo.gitOk(['log', `-n${limit}`, `--format=${RANGE_COMMIT_FORMAT}`, ...range, '--']);
  return parseRecords(log, RANGE_COMMIT_FIELDS.length).map((record) => toBranchInfo(record).commit);
}

/**
 * The commit `revision` names, described as commitsInRange describes it, or null when it names none. Read
 * through the repository's cat-file process, so a push's consumers (a merge request's last commit in its
 * hook payload) spawn no git; `git log` only for a commit object in a shape commitInfoFromObject leaves to
 * git (an encoding header, a signature).
 */
export async function commitInfo(repo: GitDir, revision: string): Promise<BranchCommitInfo | null> {
  if (!isSafeRevision(revision)) return null;
  const [object] = await repo.readObjects([`${revision}^{commit}`]);
  if (object?.type !== 'commit') return null;
  return (
    commitInfoFromObject(object.id, object.content) ?? (await logCommits(repo, [object.id], 1))[0] ?? null
  );
}

/**
 * The unified diff from `from` to `to` (null `from`: against the empty tree), cut at `maxBytes`: the diffs
 * of a push e-mail. Null when a revision is unknown.
 */
export async function diffBetween(
  repo: GitDir,
  from: string | null,
  to: string,
  maxBytes: number,
): Promise<string | null> {
  if (!isSafeRevision(to) || (from !== null && !isSafeRevision(from))) return null;
  const patch = await patchBetween(repo, from, to);
  if (patch === null) return null;
  const text = patch.subarray(0, maxBytes).toString('utf8');
  return patch.length > maxBytes ? `${text}\n[diff cut at ${maxBytes} bytes]\n` : text;
}

/**
 * diffBetween's whole patch. Between two commit SHAs (a push's before and after) it comes from the
 * repository's long-running diff-tree process; anything else (a branch name, the empty tree, a SHA that
 * is not a commit) from one `git diff`.
 */
async function patchBetween(repo: GitDir, from: string | null, to: string): Promise<Buffer | null> {
  if (from !== null && FULL_SHA.test(from) && FULL_SHA.test(to)) {
    try {
      return await repo.diffCommits(from, to);
    } catch {
      // Not two commits of this repository (diff-tree gave up on them): `git diff` says what it can.
    }
  }
  const result = await repo.git(['diff', '--no-color', '--no-ext-diff', from ?? EMPTY_TREE_ID, to, '--']);
  return result.code === 0 ? result.stdout : null;
}

/** The number of commits reachable from `ref`; 0 when the ref is unknown (an empty repository). */
export async function commitCount(repo: GitDir, ref: string): Promise<number> {
  return repositoryReadCache.get(repo.path, `commitCount\0${ref}`, async (): Promise<number> => {
    if (!isSafeRevision(ref)) return 0;
    const result = await repo.git(['rev-list', '--count', `${ref}^{commit}`, '--']);
    if (result.code !== 0) {
      if (MISSING.test(result.stderr)) return 0;
      throw new GitError(['rev-list', '--count', ref], result.code, result.stderr);
    }
    return Number(result.stdout.toString('utf8').trim());
  });
}

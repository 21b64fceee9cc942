/**
 * Branches and refs: resolving a revision, listing and reading branches (one `for-each-ref` each, cached per
 * repository generation), creating and deleting them with compare-and-swap, merged status, and HEAD.
 */

import type { BatchObject } from './catFile.js';
import type { BranchInfo } from './commitInfo.js';
import { BRANCH_FIELDS, BRANCH_FORMAT, FULL_SHA, parseRecords, toBranchInfo, ZERO_OID } from './gitOutput.js';
import type { GitDir } from './gitProcess.js';
import { type Failure, isSafeRevision, isValidBranchName, looksLikeBranchName } from './names.js';
import { repositoryReadCache } from './readCache.js';

export type CreateBranchResult =
  | { ok: true; branch: BranchInfo }
  | Failure<'invalid_name' | 'exists' | 'unknown_ref'>;

export type DeleteBranchResult = { ok: true } | Failure<'not_found' | 'branch_moved'>;

export interface BranchTip {
  commit: string;
  tree: string;
}

/** Branch, tag, or full/short SHA → commit SHA; null when unknown, ambiguous or not a commit. */
export async function resolveRef(repo: GitDir, ref: string): Promise<string | null> {
  return repositoryReadCache.get(repo.path, `resolveRef\0${ref}`, async (): Promise<string | null> => {
    if (!isSafeRevision(ref)) return null;
    const result = await repo.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    const sha = result.stdout.toString('utf8').trim();
    return result.code === 0 && FULL_SHA.test(sha) ? sha : null;
  });
}

/** All branches, sorted by name, with their tip commits, from a single for-each-ref call. */
export async function listBranches(repo: GitDir): Promise<BranchInfo[]> {
  return repositoryReadCache.get(repo.path, 'listBranches', async (): Promise<BranchInfo[]> => {
    const out = await repo.gitOk([
      'for-each-ref',
      '--sort=refname',
      `--format=${BRANCH_FORMAT}`,
      'refs/heads/',
    ]);
    return parseRecords(out, BRANCH_FIELDS.length).map(toBranchInfo);
  });
}

export async function getBranch(repo: GitDir, name: string): Promise<BranchInfo | null> {
  return (await branchesNamed(repo, [name]))[0] ?? null;
}

/**
 * The names of all branches, sorted by name (git's byte order, as GitLab's lists), from one for-each-ref
 * that reads no commit. A list filters and cuts this, then reads the page's branches only.
 */
export async function branchNames(repo: GitDir): Promise<readonly string[]> {
  return repositoryReadCache.get(repo.path, 'branchNames', async (): Promise<readonly string[]> => {
    const out = await repo.gitOk([
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
export async function branchesNamed(repo: GitDir, names: readonly string[]): Promise<BranchInfo[]> {
  const wanted = names.filter(looksLikeBranchName);
  if (wanted.length === 0) return [];
  return repositoryReadCache.get(
    repo.path,
    `branchesNamed\0${wanted.join('\0')}`,
    async (): Promise<BranchInfo[]> => {
      const out = await repo.gitOk([
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
export async function createBranch(repo: GitDir, name: string, ref: string): Promise<CreateBranchResult> {
  const [valid, commit] = await Promise.all([isValidBranchName(name), resolveRef(repo, ref)]);
  if (!valid) return { ok: false, reason: 'invalid_name', message: `Branch name is invalid: ${name}` };
  if (commit === null) return { ok: false, reason: 'unknown_ref', message: `Invalid reference name: ${ref}` };
  const created = await repo.git(['update-ref', `refs/heads/${name}`, commit, ZERO_OID]);
  repositoryReadCache.invalidate(repo.path);
  if (created.code !== 0) {
    // Either the branch exists, or it clashes with one (`a/b` next to `a`): git cannot store both.
    return (await getBranch(repo, name))
      ? { ok: false, reason: 'exists', message: `Branch already exists: ${name}` }
      : {
          ok: false,
          reason: 'invalid_name',
          message: `Branch name conflicts with an existing branch: ${name}`,
        };
  }
  const branch = await getBranch(repo, name);
  if (!branch) throw new Error(`branch ${name} vanished right after its creation`);
  return { ok: true, branch };
}

/**
 * Deletes a branch with a compare-and-swap on its tip (the tip read now, or `expectedCommit`), so a
 * branch that receives a commit meanwhile is not deleted.
 */
export async function deleteBranch(
  repo: GitDir,
  name: string,
  expectedCommit?: string,
): Promise<DeleteBranchResult> {
  const tip = isSafeRevision(name) ? (await readBranchTips(repo, [name])).get(name) : undefined;
  if (!tip) return { ok: false, reason: 'not_found', message: `Branch not found: ${name}` };
  const old = expectedCommit ?? tip.commit;
  const deleted = await repo.git(['update-ref', '-d', `refs/heads/${name}`, old]);
  repositoryReadCache.invalidate(repo.path);
  return deleted.code === 0
    ? { ok: true }
    : { ok: false, reason: 'branch_moved', message: `branch ${name} was changed by someone else` };
}

/** Whether `branchCommit` is reachable from the tip of `intoBranch` (false when either is unknown). */
export async function isMerged(repo: GitDir, branchCommit: string, intoBranch: string): Promise<boolean> {
  if (!isSafeRevision(branchCommit) || !isSafeRevision(intoBranch)) return false;
  const result = await repo.git(['merge-base', '--is-ancestor', branchCommit, `refs/heads/${intoBranch}`]);
  return result.code === 0;
}

/**
 * Names of the branches merged into `defaultBranch`, in one for-each-ref call, as GitLab counts them
 * (`Repository#merged_to_root_ref?`, `Gitlab::Git::Repository#merged_branch_names`): the tip is reachable
 * from the default branch's and is not the same commit. The default branch itself, and a branch at its head
 * (just created from it, say), are not merged.
 */
export async function mergedBranches(repo: GitDir, defaultBranch: string): Promise<Set<string>> {
  return mergedAmong(repo, defaultBranch, null);
}

/**
 * Which of the named branches (all branches for null) are merged into `defaultBranch`, as
 * mergedBranches says: a list asks for its page's branches only.
 */
export async function mergedAmong(
  repo: GitDir,
  defaultBranch: string,
  names: readonly string[] | null,
): Promise<Set<string>> {
  const wanted = names?.filter(looksLikeBranchName) ?? null;
  if (wanted?.length === 0) return new Set();
  return repositoryReadCache.get(
    repo.path,
    `mergedAmong\0${defaultBranch}\0${wanted === null ? '*' : `=${wanted.join('\0')}`}`,
    async (): Promise<Set<string>> => {
      if (!isSafeRevision(defaultBranch)) return new Set();
      // The default branch is asked for too: it is merged into itself, so its line gives its head.
      const patterns =
        wanted === null ? ['refs/heads/'] : [...wanted, defaultBranch].map((name) => `refs/heads/${name}`);
      const result = await repo.git([
        'for-each-ref',
        '--format=%(objectname) %(refname)',
        `--merged=refs/heads/${defaultBranch}`,
        ...patterns,
      ]);
      if (result.code !== 0) return new Set(); // the default branch does not exist (yet)
      const tips = result.stdout
        .toString('utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => {
          const space = line.indexOf(' ');
          return { commit: line.slice(0, space), name: line.slice(space + 1).replace(/^refs\/heads\//, '') };
        });
      const head = tips.find((tip) => tip.name === defaultBranch)?.commit;
      const asked = wanted === null ? null : new Set(wanted);
      return new Set(
        tips
          .filter(
            (tip) => tip.name !== defaultBranch && tip.commit !== head && (asked?.has(tip.name) ?? true),
          )
          .map((tip) => tip.name),
      );
    },
  );
}

/** The branch HEAD points to (it may not exist yet in an empty repository); null when detached. */
export async function defaultBranch(repo: GitDir): Promise<string | null> {
  const result = await repo.git(['symbolic-ref', '--quiet', 'HEAD']);
  const ref = result.stdout.toString('utf8').trim();
  return result.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

export async function setDefaultBranch(repo: GitDir, name: string): Promise<void> {
  if (!(await isValidBranchName(name))) throw new Error(`invalid branch name: ${name}`);
  await repo.gitOk(['symbolic-ref', 'HEAD', `refs/heads/${name}`]);
  repositoryReadCache.invalidate(repo.path);
}

/** Tips (commit and tree) of the named branches that exist, from one for-each-ref call. */
async function readBranchTips(repo: GitDir, names: string[]): Promise<Map<string, BranchTip>> {
  const out = await repo.gitOk([
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

/** Tips (commit and root tree) of the named branches that exist, from one cat-file round trip. */
export async function readBranchTipsBatch(repo: GitDir, names: string[]): Promise<Map<string, BranchTip>> {
  return branchTips(names, await repo.readObjects(names.map((name) => `refs/heads/${name}^{commit}`)));
}

/** The tips of `names` from their `refs/heads/<name>^{commit}` objects, read in that order. */
export function branchTips(
  names: readonly string[],
  objects: readonly (BatchObject | null)[],
): Map<string, BranchTip> {
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

// mergeIntoBranch and checkMerge against real repositories: each merge method's commits as git reads them
// back, the refusals (conflict, no fast-forward, nothing to merge, missing target), squashing, and merges
// racing for one target branch (the compare-and-swap retries, no merge is lost).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change } from './commitChanges.testSupport.js';
import { checkMerge, commitThatMerged, type MergeInput, mergeDiff, mergeIntoBranch } from './merges.js';
import { type GitRepository, initBareRepository } from './repository.js';

let root: string;
let count = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'collab-merges-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A repository whose main holds `base.txt`, and a helper that commits a file on a branch. */
async function repository() {
  const repo = await initBareRepository(join(root, `repo-${++count}.git`), 'main');
  await commit(repo, 'main', 'base.txt', 'base\n');
  return repo;
}

async function commit(repo: GitRepository, branch: string, file: string, content: string, from?: string) {
  const exists = (await repo.readFile(from ?? branch, file)) !== null;
  const result = await repo.commitFileChange(
    change({
      branch,
      startBranch: from,
      filePath: file,
      action: exists ? 'update' : 'create',
      content: Buffer.from(content),
      message: `write ${file}`,
    }),
  );
  if (!result.ok) throw new Error(result.message);
  return result.commitId;
}

async function parents(repo: GitRepository, sha: string): Promise<string[]> {
  const out = await repo.gitOk(['rev-list', '--parents', '-n', '1', sha]);
  return out.toString().trim().split(' ').slice(1);
}

const merge = (repo: GitRepository, input: Partial<MergeInput> & Pick<MergeInput, 'sourceCommit'>) =>
  mergeIntoBranch(repo, {
    targetBranch: 'main',
    method: 'merge',
    message: 'Merge it',
    squashMessage: null,
    userName: 'Merger',
    userEmail: 'merger@example.com',
    ...input,
  });

describe('mergeIntoBranch', () => {
  it('makes a merge commit of the target and the source with the merged tree', async () => {
    const repo = await repository();
    const source = await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    const target = await commit(repo, 'main', 'b.txt', 'b\n');
    const result = await merge(repo, { sourceCommit: source });
    expect(result).toMatchObject({ ok: true, before: target, squashCommit: null });
    if (!result.ok) return;
    expect(await repo.resolveRef('refs/heads/main')).toBe(result.after);
    expect(await parents(repo, result.after)).toEqual([target, source]);
    expect((await repo.readFile('main', 'a.txt'))?.content.toString()).toBe('a\n');
    expect((await repo.readFile('main', 'b.txt'))?.content.toString()).toBe('b\n');
    const info = (await repo.gitOk(['log', '-1', '--format=%an <%ae>%n%B', result.after])).toString();
    expect(info).toBe('Merger <merger@example.com>\nMerge it\n');
  });

  it('fast-forwards with ff, and refuses ff and rebase_merge when the target moved on', async () => {
    const repo = await repository();
    const source = await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    await commit(repo, 'late', 'l.txt', 'l\n', 'main');
    const result = await merge(repo, { sourceCommit: source, method: 'ff' });
    expect(result).toMatchObject({ ok: true, after: source });
    const late = (await repo.resolveRef('refs/heads/late')) ?? '';
    for (const method of ['ff', 'rebase_merge'] as const) {
      expect(await merge(repo, { sourceCommit: late, method })).toMatchObject({
        ok: false,
        reason: 'not_fast_forward',
      });
      expect(await checkMerge(repo, 'main', late, method)).toMatchObject({
        ok: false,
        reason: 'not_fast_forward',
      });
    }
    expect(await checkMerge(repo, 'main', late, 'merge')).toEqual({ ok: true });
  });

  it('makes a merge commit over a possible fast-forward with rebase_merge', async () => {
    const repo = await repository();
    const before = (await repo.resolveRef('refs/heads/main')) ?? '';
    const source = await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    const result = await merge(repo, { sourceCommit: source, method: 'rebase_merge' });
    if (!result.ok) throw new Error(result.message);
    expect(await parents(repo, result.after)).toEqual([before, source]);
  });

  it('squashes the source into one commit on the target first', async () => {
    const repo = await repository();
    await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    const source = await commit(repo, 'feature', 'c.txt', 'c\n');
    const target = await commit(repo, 'main', 'b.txt', 'b\n');
    const result = await merge(repo, { sourceCommit: source, squashMessage: 'All of it' });
    if (!result.ok || result.squashCommit === null) throw new Error('no squash commit');
    expect(await parents(repo, result.squashCommit)).toEqual([target]);
    expect(await parents(repo, result.after)).toEqual([target, result.squashCommit]);
    const ff = await repository();
    const ffSource = await commit(ff, 'feature', 'a.txt', 'a\n', 'main');
    const squashed = await merge(ff, { sourceCommit: ffSource, method: 'ff', squashMessage: 'One' });
    if (!squashed.ok) throw new Error(squashed.message);
    expect(squashed.after).toBe(squashed.squashCommit);
  });

  it('refuses a conflict, a source already merged and a missing target, leaving the target alone', async () => {
    const repo = await repository();
    const theirs = await commit(repo, 'feature', 'base.txt', 'theirs\n', 'main');
    const ours = await commit(repo, 'main', 'base.txt', 'ours\n');
    expect(await merge(repo, { sourceCommit: theirs })).toMatchObject({ ok: false, reason: 'conflict' });
    expect(await checkMerge(repo, 'main', theirs, 'merge')).toMatchObject({ ok: false, reason: 'conflict' });
    expect(await repo.resolveRef('refs/heads/main')).toBe(ours);
    expect(await merge(repo, { sourceCommit: ours })).toMatchObject({
      ok: false,
      reason: 'nothing_to_merge',
    });
    expect(await merge(repo, { sourceCommit: theirs, targetBranch: 'gone' })).toMatchObject({
      ok: false,
      reason: 'target_missing',
    });
    expect(await merge(repo, { sourceCommit: 'not-a-sha' })).toMatchObject({
      ok: false,
      reason: 'target_missing',
    });
  });

  it('merges concurrent sources into one target, each on the tip the other left', async () => {
    const repo = await repository();
    const sources = await Promise.all(
      [1, 2, 3, 4].map(async (n) => commit(repo, `f${n}`, `f${n}.txt`, `${n}\n`, 'main')),
    );
    const results = await Promise.all(sources.map((sourceCommit) => merge(repo, { sourceCommit })));
    expect(results.every((result) => result.ok)).toBe(true);
    for (const n of [1, 2, 3, 4]) expect(await repo.readFile('main', `f${n}.txt`)).not.toBeNull();
    const merges = (await repo.gitOk(['rev-list', '--merges', '--count', 'refs/heads/main']))
      .toString()
      .trim();
    expect(merges).toBe('4');
  });
});

describe('mergeDiff', () => {
  it('gives the merge base, the target head and the number of files the source changed', async () => {
    const repo = await repository();
    const base = await repo.resolveRef('refs/heads/main');
    await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    const source = await commit(repo, 'feature', 'b.txt', 'b\n');
    const target = await commit(repo, 'main', 'c.txt', 'c\n');
    expect(await mergeDiff(repo, 'main', source ?? '')).toEqual({
      baseSha: base,
      startSha: target,
      changesCount: 2,
    });
    expect(await mergeDiff(repo, 'no-such-branch', source ?? '')).toBeNull();
  });
});

describe('commitThatMerged', () => {
  it('finds the merge commit, the fast-forwarded commit, or nothing for a commit not in the branch', async () => {
    const repo = await repository();
    const merged = await commit(repo, 'feature', 'a.txt', 'a\n', 'main');
    const other = await commit(repo, 'other', 'o.txt', 'o\n', 'main');
    expect(await commitThatMerged(repo, 'main', merged ?? '')).toBeNull();
    await commit(repo, 'main', 'b.txt', 'b\n');
    const result = await merge(repo, { sourceCommit: merged ?? '' });
    if (!result.ok) throw new Error(result.message);
    await commit(repo, 'main', 'c.txt', 'c\n');
    expect(await commitThatMerged(repo, 'main', merged ?? '')).toBe(result.after);
    // Brought by the merge of a branch on top of it: that merge commit, not the branch's own commit.
    const below = await commit(repo, 'below', 'x.txt', 'x\n', 'main');
    await commit(repo, 'above', 'y.txt', 'y\n', 'below');
    const above = await repo.resolveRef('refs/heads/above');
    await commit(repo, 'main', 'd.txt', 'd\n');
    const carried = await merge(repo, { sourceCommit: above ?? '' });
    if (!carried.ok) throw new Error(carried.message);
    expect(await commitThatMerged(repo, 'main', below ?? '')).toBe(carried.after);

    const ff = await repository();
    const ahead = await commit(ff, 'feature', 'a.txt', 'a\n', 'main');
    const fastForward = await merge(ff, { sourceCommit: ahead ?? '', method: 'ff' });
    expect(fastForward.ok).toBe(true);
    expect(await commitThatMerged(ff, 'main', ahead ?? '')).toBe(ahead);
    await commit(ff, 'main', 'later.txt', 'later\n');
    expect(await commitThatMerged(ff, 'main', ahead ?? '')).toBe(ahead);
    expect(await commitThatMerged(repo, 'main', other ?? '')).toBeNull();
  });
});

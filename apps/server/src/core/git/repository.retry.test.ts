// commitFileChange when the branch moves during the commit: made again on the new tip, checked against it,
// a bounded number of times; with expectedLastCommitId, branch_moved as before. The branch is moved between
// an attempt's reading and its compare-and-swap by another writer on the same repository.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change } from './commitChanges.testSupport.js';
import {
  type CommitFileChangeResult,
  GitRepository,
  initBareRepository,
  MAX_COMMIT_ATTEMPTS,
} from './repository.js';

let root: string;
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'collab-git-retry-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Direct git access for assertions and for the other writer, independent of the code under test. */
async function git(repo: string, ...args: string[]): Promise<string> {
  return gitWith(repo, {}, args);
}

async function gitWith(
  repo: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  input?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [`--git-dir=${repo}`, ...args],
      {
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
        encoding: 'utf8',
      },
      (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
    );
    child.stdin?.end(input);
  });
}

/** Another writer (git itself, as another process would): commits `filePath` on top of `main`. */
async function commitElsewhere(repo: string, filePath: string, message: string): Promise<void> {
  const index = { GIT_INDEX_FILE: join(root, `index-${++counter}`) };
  const identity = {
    GIT_AUTHOR_NAME: 'Bob',
    GIT_AUTHOR_EMAIL: 'bob@example.com',
    GIT_COMMITTER_NAME: 'Bob',
    GIT_COMMITTER_EMAIL: 'bob@example.com',
  };
  const blob = await gitWith(repo, {}, ['hash-object', '-w', '--stdin'], `${filePath}\n`);
  await gitWith(repo, index, ['read-tree', 'main']);
  await gitWith(repo, index, ['update-index', '--add', '--cacheinfo', `100644,${blob},${filePath}`]);
  const tree = await gitWith(repo, index, ['write-tree']);
  const tip = await git(repo, 'rev-parse', 'main');
  const commit = await gitWith(repo, identity, ['commit-tree', tree, '-p', tip, '-m', message]);
  await git(repo, 'update-ref', 'refs/heads/main', commit, tip);
}

function expectOk(
  result: CommitFileChangeResult,
): asserts result is Extract<CommitFileChangeResult, { ok: true }> {
  expect(result).toMatchObject({ ok: true });
}

/** A repository with `main` holding seed.txt. */
async function seeded(): Promise<{ repo: GitRepository; seed: string }> {
  counter += 1;
  const repo = await initBareRepository(join(root, `repo-${counter}.git`), 'main');
  const result = await repo.commitFileChange(change({ filePath: 'seed.txt', message: 'seed' }));
  expectOk(result);
  return { repo, seed: result.commitId };
}

/**
 * Runs `race(attempt)` in every attempt of `repo`'s commits after the attempt read the branch's tip and trees
 * and before it writes: what `race` commits moves the branch under the attempt. Returns the attempt count.
 */
function raceEveryAttempt(repo: GitRepository, race: (attempt: number) => Promise<void>): () => number {
  const read = repo.readObjects.bind(repo);
  let attempts = 0;
  repo.readObjects = async (lines) => {
    const objects = await read(lines);
    // An attempt's first read: the branch's tip and, in the same round trip, its root tree and the path's.
    if (lines.some((line) => line.endsWith('^{tree}'))) {
      attempts += 1;
      await race(attempts);
    }
    return objects;
  };
  return () => attempts;
}

describe('commitFileChange on a branch that moves during the commit', () => {
  it('is made again on the new tip, keeping the other commit', async () => {
    const { repo } = await seeded();
    const attempts = raceEveryAttempt(repo, async (attempt) => {
      if (attempt === 1) await commitElsewhere(repo.path, 'theirs.txt', 'theirs');
    });
    const result = await repo.commitFileChange(change({ filePath: 'mine.txt', message: 'mine' }));
    expectOk(result);
    expect(attempts()).toBe(2);
    expect(await git(repo.path, 'log', '--format=%s', 'main')).toBe('mine\ntheirs\nseed');
    expect(await git(repo.path, 'rev-parse', 'main')).toBe(result.commitId);
    expect((await repo.listTreePaths('main'))?.sort()).toEqual(['mine.txt', 'seed.txt', 'theirs.txt']);
  });

  it('is checked against the new tip: a file created meanwhile cannot be created again', async () => {
    const { repo } = await seeded();
    raceEveryAttempt(repo, async (attempt) => {
      if (attempt === 1) await commitElsewhere(repo.path, 'same.txt', 'theirs');
    });
    expect(await repo.commitFileChange(change({ filePath: 'same.txt', message: 'mine' }))).toMatchObject({
      ok: false,
      reason: 'file_exists',
    });
    expect(await git(repo.path, 'log', '--format=%s', 'main')).toBe('theirs\nseed');
  });

  it('is not made again with expectedLastCommitId: branch_moved, as GitLab answers', async () => {
    const { repo, seed } = await seeded();
    const attempts = raceEveryAttempt(repo, async (attempt) => {
      if (attempt === 1) await commitElsewhere(repo.path, 'theirs.txt', 'theirs');
    });
    const result = await repo.commitFileChange(
      change({
        action: 'update',
        filePath: 'seed.txt',
        content: Buffer.from('v2\n'),
        expectedLastCommitId: seed,
      }),
    );
    expect(result).toMatchObject({ ok: false, reason: 'branch_moved' });
    expect(attempts()).toBe(1);
    expect(await git(repo.path, 'log', '--format=%s', 'main')).toBe('theirs\nseed');
  });

  it(`gives up with branch_moved after ${MAX_COMMIT_ATTEMPTS} attempts`, async () => {
    const { repo } = await seeded();
    const attempts = raceEveryAttempt(repo, async (attempt) => {
      await commitElsewhere(repo.path, `theirs-${attempt}.txt`, 'theirs');
    });
    expect(await repo.commitFileChange(change({ filePath: 'mine.txt' }))).toMatchObject({
      ok: false,
      reason: 'branch_moved',
    });
    expect(attempts()).toBe(MAX_COMMIT_ATTEMPTS);
    expect(await repo.listTreePaths('main')).not.toContain('mine.txt');
  });

  it('ends, with branch_moved, for a branch name git refuses every time (a/b beside a)', async () => {
    const { repo } = await seeded();
    expectOk(await repo.commitFileChange(change({ branch: 'a', startBranch: 'main', filePath: 'in-a' })));
    const attempts = raceEveryAttempt(repo, async () => {});
    expect(
      await repo.commitFileChange(change({ branch: 'a/b', startBranch: 'main', filePath: 'x' })),
    ).toMatchObject({ ok: false, reason: 'branch_moved' });
    expect(attempts()).toBe(MAX_COMMIT_ATTEMPTS);
  });

  it('lets eight concurrent writers of different files on one branch all succeed, taking turns', async () => {
    const { repo, seed } = await seeded();
    const writers = Array.from({ length: 8 }, () => new GitRepository(repo.path));
    const results = await Promise.all(
      writers.map((writer, i) =>
        writer.commitFileChange(change({ filePath: `w/${i}.txt`, message: `writer ${i}` })),
      ),
    );
    for (const result of results) expectOk(result);
    const log = (await git(repo.path, 'log', '--format=%s', `${seed}..main`)).split('\n').sort();
    expect(log).toEqual(Array.from({ length: 8 }, (_, i) => `writer ${i}`));
    // One line of history: every commit was made on the tip it found.
    expect(await git(repo.path, 'rev-list', '--count', '--merges', 'main')).toBe('0');
    expect((await repo.listTreePaths('main'))?.filter((path) => path.startsWith('w/')).length).toBe(8);
  });
});

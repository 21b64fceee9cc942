// commitFileChange builds blobs, trees and commits in-process and updates refs through long-running git
// processes: these tests hold its results against what git's own plumbing (read-tree, update-index,
// write-tree, commit-tree) makes of the same edits, and check the long-running processes' recovery.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { change } from './commitChanges.testSupport.js';
import { RefUpdater } from './refUpdates.js';
import {
  type CommitFileChangeResult,
  GitError,
  type GitRepository,
  initBareRepository,
  pooledProcessIds,
} from './repository.js';

const BASE_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@e',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@e',
};

/** git with stdin and an optional private index; throws on failure unless `allowFailure`. */
function git(
  repo: string,
  args: string[],
  options: { input?: Buffer | string; env?: Record<string, string>; allowFailure?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${repo}`, ...args], { env: { ...BASE_ENV, ...options.env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => {
      const result = {
        code: code ?? -1,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      };
      if (result.code !== 0 && !options.allowFailure)
        reject(new Error(`git ${args.join(' ')}: ${result.stderr}`));
      else resolve(result);
    });
    child.stdin.end(options.input ?? '');
  });
}

const out = async (repo: string, ...args: string[]) => (await git(repo, args)).stdout.trim();

function expectOk(
  result: CommitFileChangeResult,
): asserts result is Extract<CommitFileChangeResult, { ok: true }> {
  expect(result).toMatchObject({ ok: true });
}

let root: string;
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'collab-commit-test-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function newRepo(): Promise<GitRepository> {
  counter += 1;
  return initBareRepository(join(root, `repo-${counter}.git`), 'main');
}

/**
 * The tree git's plumbing makes of the same edit: `base` read into a private index, the change applied
 * with update-index as the previous implementation did, then write-tree. Null when update-index refuses.
 */
async function referenceTree(
  repo: string,
  base: string | null,
  action: 'create' | 'update' | 'delete',
  filePath: string,
  content: Buffer,
): Promise<string | null> {
  counter += 1;
  const env = { GIT_INDEX_FILE: join(root, `reference-index-${counter}`) };
  await git(repo, base ? ['read-tree', base] : ['read-tree', '--empty'], { env });
  let mode = '100644';
  if (base && action === 'update')
    mode = (await out(repo, 'ls-tree', base, '--', filePath)).split(' ')[0] ?? mode;
  const blobId =
    action === 'delete'
      ? ''
      : (await git(repo, ['hash-object', '-w', '--stdin'], { input: content })).stdout.trim();
  const indexed =
    action === 'delete'
      ? await git(repo, ['update-index', '--index-info'], {
          env,
          input: `0 ${'0'.repeat(40)}\t${filePath}\n`,
          allowFailure: true,
        })
      : await git(repo, ['update-index', '--add', '--cacheinfo', `${mode},${blobId},${filePath}`], {
          env,
          allowFailure: true,
        });
  if (indexed.code !== 0) return null;
  return (await git(repo, ['write-tree'], { env })).stdout.trim();
}

async function treeOf(repo: string, commit: string): Promise<string> {
  return out(repo, 'rev-parse', `${commit}^{tree}`);
}

describe('trees built in-process', () => {
  it('creates nested paths and removes directories emptied by a deletion', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'a/b/c/d.txt' })));
    expect(await out(repo.path, 'ls-tree', '-r', '-t', '--name-only', 'main')).toBe(
      'a\na/b\na/b/c\na/b/c/d.txt',
    );
    expectOk(await repo.commitFileChange(change({ filePath: 'a/top.txt' })));
    expectOk(await repo.commitFileChange(change({ filePath: 'a/b/c/e.txt' })));
    expectOk(await repo.commitFileChange(change({ action: 'delete', filePath: 'a/b/c/d.txt' })));
    expect(await out(repo.path, 'ls-tree', '-r', '-t', '--name-only', 'main')).toBe(
      'a\na/b\na/b/c\na/b/c/e.txt\na/top.txt',
    );
    // The last file of a/b/c goes: a/b/c and a/b (now empty) go with it, a stays for a/top.txt.
    expectOk(await repo.commitFileChange(change({ action: 'delete', filePath: 'a/b/c/e.txt' })));
    expect(await out(repo.path, 'ls-tree', '-r', '-t', '--name-only', 'main')).toBe('a\na/top.txt');
    // The last file of all: the root is the empty tree.
    const last = await repo.commitFileChange(change({ action: 'delete', filePath: 'a/top.txt' }));
    expectOk(last);
    expect(await treeOf(repo.path, last.commitId)).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    await git(repo.path, ['fsck', '--strict', '--no-dangling']);
  });

  it('orders entries as git does (a-b, a.b, a/, a0)', async () => {
    const repo = await newRepo();
    let base: string | null = null;
    for (const filePath of ['a0', 'a/x', 'a.b', 'a-b', 'a/y/z', 'a b', 'ab']) {
      const expected = await referenceTree(repo.path, base, 'create', filePath, Buffer.from('x\n'));
      const result = await repo.commitFileChange(change({ filePath }));
      expectOk(result);
      base = await treeOf(repo.path, result.commitId);
      expect([filePath, base]).toEqual([filePath, expected]);
    }
    expect(await out(repo.path, 'ls-tree', '--name-only', 'main')).toBe('a b\na-b\na.b\na\na0\nab');
  });

  it('matches git plumbing over 50 mixed commits, and fsck --strict is clean', async () => {
    const repo = await newRepo();
    const paths = ['f', 'd/f', 'd/g', 'd/e/f', 'd/e/h.md', 'x/y/z/w', 'd.e', 'd-e/f', 'd/f/x', 'x/y'];
    const present = new Map<string, Buffer>();
    let base: string | null = null;
    let commits = 0;
    for (let i = 0; commits < 50; i += 1) {
      const filePath = paths[(i * 5 + Math.floor(i / 3)) % paths.length] ?? 'f';
      const action = !present.has(filePath) ? 'create' : i % 4 === 0 ? 'delete' : 'update';
      // Every fifth update writes the content already there: an empty commit.
      const content =
        (i % 5 === 0 && action === 'update' ? present.get(filePath) : undefined) ??
        Buffer.from(`v${i} ${filePath}\n`);
      const expected = await referenceTree(repo.path, base, action, filePath, content);
      const result = await repo.commitFileChange(
        change({
          action,
          filePath,
          content: action === 'delete' ? undefined : content,
          message: `commit ${i}`,
        }),
      );
      if (expected === null) {
        // update-index refused: a file where a directory is needed (or the reverse).
        expect(result).toMatchObject({ ok: false, reason: 'file_exists' });
      } else if (expected === base) {
        expect(result).toMatchObject({ ok: false, reason: 'empty_commit' });
      } else {
        expectOk(result);
        commits += 1;
        base = await treeOf(repo.path, result.commitId);
        expect([i, action, filePath, base]).toEqual([i, action, filePath, expected]);
        if (action === 'delete') present.delete(filePath);
        else present.set(filePath, content);
      }
      if (i > 500) throw new Error('the sequence does not make 50 commits');
    }
    expect(Number(await out(repo.path, 'rev-list', '--count', 'main'))).toBe(50);
    await git(repo.path, ['fsck', '--strict', '--no-dangling']);
  });

  it('rebuilds non-canonical trees as write-tree does', async () => {
    const repo = await newRepo();
    const blob = await out(repo.path, 'hash-object', '-w', '--stdin');
    const emptyTree = (await git(repo.path, ['hash-object', '-t', 'tree', '-w', '--stdin'])).stdout.trim();
    const entry = (mode: string, name: string, id: string) =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(id, 'hex')]);
    // A tree git would not write: a group-writable mode, a zero-padded directory mode, an empty directory.
    const inner = (
      await git(repo.path, ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], {
        input: Buffer.concat([entry('100664', 'loose', blob), entry('100755', 'run', blob)]),
      })
    ).stdout.trim();
    const rootTree = (
      await git(repo.path, ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], {
        input: Buffer.concat([
          entry('040000', 'dir', inner),
          entry('40000', 'empty', emptyTree),
          entry('100664', 'top', blob),
        ]),
      })
    ).stdout.trim();
    const commit = await out(repo.path, 'commit-tree', rootTree, '-m', 'odd');
    await git(repo.path, ['update-ref', 'refs/heads/main', commit]);
    for (const [action, filePath] of [
      ['create', 'dir/new'],
      ['update', 'dir/run'],
      ['create', 'other'],
    ] as const) {
      const base = await out(repo.path, 'rev-parse', 'main^{tree}');
      const content = Buffer.from(`${action} ${filePath}\n`);
      const expected = await referenceTree(repo.path, base, action, filePath, content);
      const result = await repo.commitFileChange(change({ action, filePath, content }));
      expectOk(result);
      expect([filePath, await treeOf(repo.path, result.commitId)]).toEqual([filePath, expected]);
    }
  });

  it('keeps modes, and refuses paths through files, symlinks and submodules as update-index did', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'keep/readme' })));
    const blob = await out(repo.path, 'rev-parse', 'main:keep/readme');
    const commit = await out(repo.path, 'rev-parse', 'main');
    const mktree = [
      `040000 tree ${await out(repo.path, 'rev-parse', 'main:keep')}\tkeep`,
      `100755 blob ${blob}\ttool`,
      `120000 blob ${blob}\tlink`,
      `160000 commit ${commit}\tmodule`,
    ].join('\n');
    const tree = (await git(repo.path, ['mktree'], { input: `${mktree}\n` })).stdout.trim();
    await git(repo.path, [
      'update-ref',
      'refs/heads/main',
      await out(repo.path, 'commit-tree', tree, '-p', 'main', '-m', 'modes'),
    ]);
    for (const filePath of ['tool/x', 'link/x', 'module/x', 'keep/readme/x']) {
      expect(await repo.commitFileChange(change({ filePath }))).toMatchObject({
        ok: false,
        reason: 'file_exists',
      });
    }
    for (const filePath of ['module', 'tool/x']) {
      expect(await repo.commitFileChange(change({ action: 'update', filePath }))).toMatchObject({
        ok: false,
        reason: 'file_missing',
      });
    }
    expectOk(
      await repo.commitFileChange(
        change({ action: 'update', filePath: 'tool', content: Buffer.from('#!/bin/sh\n') }),
      ),
    );
    expectOk(
      await repo.commitFileChange(
        change({ action: 'update', filePath: 'link', content: Buffer.from('target') }),
      ),
    );
    expect((await out(repo.path, 'ls-tree', 'main')).split('\n').map((line) => line.split(' ')[0])).toEqual([
      '040000',
      '120000',
      '160000',
      '100755',
    ]);
  });

  it('refuses the NTFS aliases of .git as update-index did', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'seed' })));
    for (const filePath of ['git~1/x', 'a/.git./b', 'x/.GIT :y']) {
      await expect(repo.commitFileChange(change({ filePath }))).rejects.toBeInstanceOf(GitError);
    }
    expect(await repo.commitFileChange(change({ action: 'delete', filePath: 'git~1' }))).toMatchObject({
      ok: false,
      reason: 'file_missing',
    });
  });
});

describe('commits built in-process', () => {
  it('are byte for byte what commit-tree writes, in the local time zone', async () => {
    const repo = await newRepo();
    const savedTz = process.env.TZ;
    try {
      for (const tz of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham']) {
        process.env.TZ = tz;
        const result = await repo.commitFileChange(
          change({
            filePath: `tz/${tz}`,
            message: `In ${tz}\n\nwith a body ✓\n`,
            authorName: ' Ünïcode Author. ',
            authorEmail: '<author@example.com>',
            committerName: 'Committer',
            committerEmail: 'c@example.com',
          }),
        );
        expectOk(result);
        const raw = (await git(repo.path, ['cat-file', 'commit', result.commitId])).stdout;
        const date = /\ncommitter [^\n]*> (\d+ [+-]\d{4})\n/.exec(raw)?.[1] ?? '';
        // The offset git itself gives the current time in this zone.
        const gitNow = (
          await git(repo.path, ['var', 'GIT_COMMITTER_IDENT'], { env: { TZ: tz } })
        ).stdout.trim();
        expect(date.split(' ')[1]).toBe(gitNow.split(' ').pop());
        const parent = await out(repo.path, 'rev-parse', `${result.commitId}^`).catch(() => '');
        const again = await git(
          repo.path,
          ['commit-tree', await treeOf(repo.path, result.commitId), ...(parent ? ['-p', parent] : [])],
          {
            input: `In ${tz}\n\nwith a body ✓\n`,
            env: {
              GIT_AUTHOR_NAME: ' Ünïcode Author. ',
              GIT_AUTHOR_EMAIL: '<author@example.com>',
              GIT_COMMITTER_NAME: 'Committer',
              GIT_COMMITTER_EMAIL: 'c@example.com',
              GIT_AUTHOR_DATE: `@${date}`,
              GIT_COMMITTER_DATE: `@${date}`,
            },
          },
        );
        expect(again.stdout.trim()).toBe(result.commitId);
        // The commit as the push's consumers get it: what `git log` says of it.
        expect(result.commit).toEqual((await repo.commitsInRange(result.commitId, null, 1)).commits[0]);
        expect(await repo.commitInfo(result.commitId)).toEqual(result.commit);
      }
    } finally {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    }
    expect(await out(repo.path, 'cat-file', '-p', 'main')).toMatch(
      /\nauthor Ünïcode Author <author@example.com> \d+ [+-]\d{4}\n/,
    );
    await git(repo.path, ['fsck', '--strict', '--no-dangling']);
  });

  it('fail as commit-tree failed for unusable identities and messages', async () => {
    const repo = await newRepo();
    for (const overrides of [{ authorName: '' }, { committerName: '.,;' }, { message: 'nul \0 byte' }]) {
      await expect(repo.commitFileChange(change({ filePath: 'x', ...overrides }))).rejects.toBeInstanceOf(
        GitError,
      );
    }
    expect(await repo.listBranches()).toEqual([]);
  });
});

describe('long-running git processes', () => {
  it('survive their cat-file and update-ref processes being killed', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'one' })));
    for (let round = 0; round < 3; round += 1) {
      const before = pooledProcessIds(repo.path);
      expect(before.catFile).toBeTypeOf('number');
      expect(before.updateRef).toBeTypeOf('number');
      if (round !== 1 && before.catFile) process.kill(before.catFile, 'SIGKILL');
      if (round !== 0 && before.updateRef) process.kill(before.updateRef, 'SIGKILL');
      if (round === 2) await new Promise((resolve) => setTimeout(resolve, 50)); // the exits are noticed first
      // Right after the kill: the requests fail on the dead processes, then go to fresh ones.
      const result = await repo.commitFileChange(change({ filePath: `after-kill-${round}` }));
      expectOk(result);
      expect(await out(repo.path, 'rev-parse', 'main')).toBe(result.commitId);
      const after = pooledProcessIds(repo.path);
      if (round !== 1) expect(after.catFile).not.toBe(before.catFile);
      if (round !== 0) expect(after.updateRef).not.toBe(before.updateRef);
    }
    expect((await repo.listTreePaths('main'))?.sort()).toEqual([
      'after-kill-0',
      'after-kill-1',
      'after-kill-2',
      'one',
    ]);
  });

  it('apply every one of concurrent edits, across several rounds and branches', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'seed' })));
    for (const branch of ['b1', 'b2'])
      expectOk(await repo.commitFileChange(change({ branch, startBranch: 'main', filePath: branch })));
    let committed = 0;
    for (let round = 0; round < 3; round += 1) {
      const results = await Promise.all(
        ['main', 'b1', 'b2'].flatMap((branch) =>
          Array.from({ length: 5 }, (_, i) =>
            repo.commitFileChange(change({ branch, filePath: `r${round}/${branch}-${i}` })),
          ),
        ),
      );
      for (const result of results) if (!result.ok) expect(result.reason).toBe('branch_moved');
      committed += results.filter((r) => r.ok).length;
      expect(results.filter((r) => r.ok).length).toBe(15);
    }
    const total = Number(await out(repo.path, 'rev-list', '--count', '--all'));
    expect(total).toBe(1 + 2 + committed);
    await git(repo.path, ['fsck', '--strict', '--no-dangling']);
  });

  it('see branches created and deleted by other git processes meanwhile', async () => {
    const repo = await newRepo();
    expectOk(await repo.commitFileChange(change({ filePath: 'seed' })));
    expectOk(await repo.commitFileChange(change({ branch: 'a', startBranch: 'main', filePath: 'in-a' })));
    // `a/b` cannot be stored next to `a`: refused, as a one-shot update-ref refused it.
    expect(
      await repo.commitFileChange(change({ branch: 'a/b', startBranch: 'main', filePath: 'x' })),
    ).toMatchObject({ ok: false, reason: 'branch_moved' });
    expect(await repo.deleteBranch('a')).toEqual({ ok: true });
    expectOk(await repo.commitFileChange(change({ branch: 'a/b', startBranch: 'main', filePath: 'x' })));
    // Packed refs, rewritten by another process, are read again too.
    await git(repo.path, ['pack-refs', '--all']);
    expectOk(await repo.commitFileChange(change({ branch: 'a/b', filePath: 'y' })));
    expect(await repo.createBranch('c', 'main')).toMatchObject({ ok: true });
    await git(repo.path, ['pack-refs', '--all']);
    expectOk(await repo.commitFileChange(change({ branch: 'c', filePath: 'z' })));
    expect(await repo.deleteBranch('c')).toEqual({ ok: true });
    expect(await repo.commitFileChange(change({ branch: 'c', filePath: 'w' }))).toMatchObject({
      ok: false,
      reason: 'branch_missing',
    });
    expect((await repo.listBranches()).map((b) => b.name)).toEqual(['a/b', 'main']);
    await git(repo.path, ['fsck', '--strict', '--no-dangling']);
  });

  it('report an update that git may or may not have made as unknown', async () => {
    // A stand-in for update-ref that acknowledges start and prepare, then dies before committing.
    const script = 'read a; read b; read c; read d; echo "start: ok"; echo "prepare: ok"; exit 1';
    const updater = new RefUpdater(
      () => ({ args: ['-c', `alias.fake=!sh -c '${script}'`, 'fake'], env: BASE_ENV }),
      {
        idleMs: 1000,
        maxProcesses: 2,
      },
    );
    const id = 'a'.repeat(40);
    expect(await updater.update(root, 'refs/heads/x', id, '0'.repeat(40))).toBe('unknown');
    // And one that refuses (dies after start, as update-ref does when the old value does not match).
    const refusing = new RefUpdater(
      () => ({
        args: ['-c', `alias.fake=!sh -c 'read a; echo "start: ok"; exit 128'`, 'fake'],
        env: BASE_ENV,
      }),
      { idleMs: 1000, maxProcesses: 2 },
    );
    expect(await refusing.update(root, 'refs/heads/x', id, '0'.repeat(40))).toBe('refused');
    updater.closeAll();
    refusing.closeAll();
  });
});

describe('commitInfo', () => {
  it('describes a commit as git log does, whether the server or git wrote it, and nothing else', async () => {
    const repo = await newRepo();
    const made = await repo.commitFileChange(change({ filePath: 'a.txt', message: 'Made here\n\nbody\n' }));
    expectOk(made);
    const logged = async (id: string) => (await repo.commitsInRange(id, null, 1)).commits[0];
    expect(await repo.commitInfo(made.commitId)).toEqual(await logged(made.commitId));
    expect(await repo.commitInfo('main')).toEqual(await logged(made.commitId));
    // A commit git wrote with an encoding header: commitInfoFromObject leaves it to git log.
    const tree = await treeOf(repo.path, made.commitId);
    const latin = await git(
      repo.path,
      ['-c', 'i18n.commitEncoding=ISO-8859-1', 'commit-tree', tree, '-p', made.commitId],
      {
        input: Buffer.from('Caf\xe9\n', 'latin1'),
      },
    );
    const encoded = latin.stdout.trim();
    expect(await out(repo.path, 'cat-file', '-p', encoded)).toContain('\nencoding ISO-8859-1\n');
    const info = await repo.commitInfo(encoded);
    expect(info).toEqual(await logged(encoded));
    expect(info?.title).toBe('Café');
    // A tree, a missing object, an unknown name: no commit.
    expect(await repo.commitInfo(tree)).toBeNull();
    expect(await repo.commitInfo('0'.repeat(40))).toBeNull();
    expect(await repo.commitInfo('no-such-branch')).toBeNull();
  });
});

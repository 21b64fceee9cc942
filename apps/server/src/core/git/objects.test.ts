import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CommitFields,
  CommitFormatError,
  commitContent,
  compareTreeEntries,
  encodeObject,
  MODE_EXECUTABLE,
  MODE_FILE,
  MODE_GITLINK,
  MODE_SYMLINK,
  MODE_TREE,
  parseTree,
  serializeTree,
  type TreeEntry,
  verifyPath,
  writeLooseObject,
} from './objects.js';

const execFileAsync = promisify(execFile);

const BASE_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

interface GitRun {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** git with stdin, raw stdout and the exit code, independent of the code under test. */
function runGit(
  args: string[],
  input: Buffer | string = '',
  env: Record<string, string> = {},
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${repo}`, ...args], { env: { ...BASE_ENV, ...env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }),
    );
    child.stdin.end(input);
  });
}

async function gitText(args: string[], input: Buffer | string = '', env: Record<string, string> = {}) {
  const result = await runGit(args, input, env);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.toString('utf8').trim();
}

let root: string;
let repo: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'collab-objects-test-'));
  repo = join(root, 'objects.git');
  await execFileAsync('git', ['init', '--quiet', '--bare', repo], { env: BASE_ENV });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('encodeObject and writeLooseObject', () => {
  it('names blobs, trees and commits as git hash-object does', async () => {
    const blobs = [
      Buffer.alloc(0),
      Buffer.from('hello\n'),
      Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256)),
    ];
    for (const content of blobs) {
      expect(encodeObject('blob', content).id).toBe(
        await gitText(['hash-object', '-t', 'blob', '--stdin'], content),
      );
    }
    const blob = encodeObject('blob', Buffer.from('x'));
    const tree = serializeTree([{ name: Buffer.from('x'), mode: MODE_FILE, id: blob.id }]);
    expect(encodeObject('tree', tree).id).toBe(await gitText(['hash-object', '-t', 'tree', '--stdin'], tree));
    const commit = Buffer.from(
      `tree ${encodeObject('tree', tree).id}\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nm\n`,
    );
    expect(encodeObject('commit', commit).id).toBe(
      await gitText(['hash-object', '-t', 'commit', '--stdin'], commit),
    );
  });

  it('writes loose objects git reads back, read-only, once', async () => {
    const objectsDir = join(repo, 'objects');
    const big = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256)); // deflated off-thread
    for (const content of [Buffer.from('loose\n'), big]) {
      const object = encodeObject('blob', content);
      await writeLooseObject(objectsDir, object);
      await writeLooseObject(objectsDir, object); // already there: only freshened
      expect(await gitText(['cat-file', '-t', object.id])).toBe('blob');
      expect((await runGit(['cat-file', 'blob', object.id])).stdout.equals(content)).toBe(true);
      const file = await stat(join(objectsDir, object.id.slice(0, 2), object.id.slice(2)));
      expect(file.mode & 0o222).toBe(0);
    }
    const tree = encodeObject(
      'tree',
      serializeTree([
        { name: Buffer.from('f'), mode: MODE_FILE, id: encodeObject('blob', Buffer.from('loose\n')).id },
      ]),
    );
    await writeLooseObject(objectsDir, tree);
    expect(await gitText(['ls-tree', tree.id])).toMatch(/^100644 blob [0-9a-f]{40}\tf$/);
    await gitText(['fsck', '--strict', '--no-dangling']);
  });

  it('makes a fan-out directory that is missing, or that prune removed meanwhile', async () => {
    const objectsDir = join(repo, 'objects');
    const first = encodeObject('blob', Buffer.from('fan-out 1\n'));
    const fanOut = join(objectsDir, first.id.slice(0, 2));
    await rm(fanOut, { recursive: true, force: true });
    await writeLooseObject(objectsDir, first);
    expect(await gitText(['cat-file', '-t', first.id])).toBe('blob');
    // Emptied and removed (as `git prune` removes empty fan-out directories), then written to again.
    await rm(fanOut, { recursive: true, force: true });
    await writeLooseObject(objectsDir, first);
    expect((await runGit(['cat-file', 'blob', first.id])).stdout.toString()).toBe('fan-out 1\n');
    expect((await readdir(fanOut)).filter((name) => name.startsWith('tmp_obj_'))).toEqual([]);
  });
});

describe('trees', () => {
  const blob = encodeObject('blob', Buffer.from('content\n')).id;
  const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  const entry = (name: string, mode: number): TreeEntry => ({
    name: Buffer.from(name),
    mode,
    id: mode === MODE_TREE ? emptyTree : blob,
  });

  it('sorts directories as if their names ended with a slash', () => {
    const names = (entries: TreeEntry[]) =>
      [...entries].sort(compareTreeEntries).map((e) => e.name.toString());
    // '-' (0x2d) < '.' (0x2e) < '/' (0x2f) < '0' (0x30)
    expect(
      names([
        entry('a0', MODE_FILE),
        entry('a', MODE_TREE),
        entry('a.b', MODE_FILE),
        entry('a-b', MODE_FILE),
      ]),
    ).toEqual(['a-b', 'a.b', 'a', 'a0']);
    // As a file, `a` sorts before all of them.
    expect(names([entry('a.b', MODE_FILE), entry('a', MODE_FILE), entry('a-b', MODE_TREE)])).toEqual([
      'a',
      'a-b',
      'a.b',
    ]);
    // Submodules sort as files.
    expect(names([entry('s.x', MODE_FILE), entry('s', MODE_GITLINK)])).toEqual(['s', 's.x']);
  });

  it('serializes exactly as git mktree does, and parses back', async () => {
    const sets: TreeEntry[][] = [
      [entry('a', MODE_TREE), entry('a.b', MODE_FILE), entry('a-b', MODE_FILE), entry('a0', MODE_FILE)],
      [
        entry('a', MODE_FILE),
        entry('a.b', MODE_TREE),
        entry('a-b', MODE_TREE),
        entry('a b', MODE_EXECUTABLE),
      ],
      [entry('z', MODE_SYMLINK), entry('ü', MODE_FILE), entry('Z', MODE_TREE), entry('_', MODE_FILE)],
      [],
    ];
    for (const entries of sets) {
      const mktreeInput = entries
        .map(
          (e) =>
            `${e.mode.toString(8).padStart(6, '0')} ${e.mode === MODE_TREE ? 'tree' : 'blob'} ${e.id}\t${e.name}\n`,
        )
        .join('');
      const expected = await gitText(['mktree', '--missing'], mktreeInput);
      const content = serializeTree(entries);
      expect(encodeObject('tree', content).id).toBe(expected);
      expect(parseTree(content).map((e) => [e.name.toString(), e.mode, e.id])).toEqual(
        [...entries].sort(compareTreeEntries).map((e) => [e.name.toString(), e.mode, e.id]),
      );
    }
  });

  it('canonicalises modes as the index does', () => {
    const raw = Buffer.concat(
      [
        ['100664', 'group-writable'],
        ['100775', 'group-exec'],
        ['040000', 'padded-dir'],
        ['120000', 'link'],
        ['160000', 'module'],
      ].map(([mode, name]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(blob, 'hex')])),
    );
    expect(parseTree(raw).map((e) => e.mode)).toEqual([
      MODE_FILE,
      MODE_EXECUTABLE,
      MODE_TREE,
      MODE_SYMLINK,
      MODE_GITLINK,
    ]);
  });
});

describe('verifyPath', () => {
  it('accepts and refuses the paths update-index accepts and refuses', async () => {
    const blob = await gitText(['hash-object', '-w', '--stdin'], 'x');
    const paths = [
      'ok.txt',
      'dir/ok',
      'git~1',
      'GIT~1/x',
      'git~10',
      'git~2',
      'a/git~1',
      '.git.',
      '.GIT  ',
      '.git. x',
      '.git:stream',
      'a/.Git./b',
      'a\\.git',
      'a\\git~1',
      'a\\.gitx',
      '\\.git',
      '.gitmodules',
      'x/.GitModules',
      '.gitmodules.',
      '.gitmodules:x',
      'gitmod~1',
      'GITMOD~4',
      'gitmod~5',
      'gi7eba~1',
      'GI7EBA~9',
      'gi7eba~12',
      'gi7eb~12',
      'gi~12345',
      'a\\.gitmodules',
      '.gitmodulesx',
      '.gitignore',
      '.git\u200c',
      '...',
      '.x',
      '..x',
      'x:y',
      'ünï/git~1',
    ];
    const index = join(root, 'verify-index');
    for (const mode of [MODE_FILE, MODE_SYMLINK]) {
      for (const path of paths) {
        await rm(index, { force: true });
        const result = await runGit(
          ['update-index', '--add', '--cacheinfo', `${mode.toString(8)},${blob},${path}`],
          '',
          { GIT_INDEX_FILE: index },
        );
        expect([mode.toString(8), path, verifyPath(path, mode)]).toEqual([
          mode.toString(8),
          path,
          result.code === 0,
        ]);
      }
    }
  });
});

describe('commitContent', () => {
  const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

  /** What `git commit-tree` writes for the same inputs (and the same date), or how it fails. */
  async function gitCommitTree(fields: CommitFields): Promise<{ code: number; content?: Buffer }> {
    await gitText(['hash-object', '-t', 'tree', '-w', '--stdin'], '');
    const sign = fields.date.offsetMinutes < 0 ? '-' : '+';
    const offset = Math.abs(fields.date.offsetMinutes);
    const date = `@${fields.date.seconds} ${sign}${String(Math.trunc(offset / 60)).padStart(2, '0')}${String(offset % 60).padStart(2, '0')}`;
    const result = await runGit(
      ['commit-tree', fields.tree, ...fields.parents.flatMap((p) => ['-p', p])],
      fields.message,
      {
        GIT_AUTHOR_NAME: fields.author.name,
        GIT_AUTHOR_EMAIL: fields.author.email,
        GIT_COMMITTER_NAME: fields.committer.name,
        GIT_COMMITTER_EMAIL: fields.committer.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    );
    if (result.code !== 0) return { code: result.code };
    const id = result.stdout.toString().trim();
    return { code: 0, content: (await runGit(['cat-file', 'commit', id])).stdout };
  }

  function ours(fields: CommitFields): { code: number; content?: Buffer } {
    try {
      return { code: 0, content: commitContent(fields) };
    } catch (error) {
      if (error instanceof CommitFormatError) return { code: error.exitCode };
      throw error;
    }
  }

  it('writes byte for byte what commit-tree writes, and fails where it fails', async () => {
    const parent = await gitText(['commit-tree', tree, '-m', 'parent'], '', {
      GIT_AUTHOR_NAME: 'P',
      GIT_AUTHOR_EMAIL: 'p@e',
      GIT_COMMITTER_NAME: 'P',
      GIT_COMMITTER_EMAIL: 'p@e',
    });
    const alice = { name: 'Alice', email: 'alice@example.com' };
    const cases: Partial<CommitFields>[] = [
      {},
      { parents: [parent] },
      { message: '' },
      { message: 'no trailing newline' },
      { message: 'Title\n\nBody\n\n\n' },
      { message: 'unicode ✓ 日本語 😀 \u001e\r\n' },
      { message: 'non-characters \uFFFE \uFFFF \uFDD0 \uFDEF \u{1FFFE} \u{10FFFF} end' },
      { message: 'lone surrogate \uD800 end' },
      { message: 'nul \0 inside' },
      { author: { name: '  .Al<i>ce, ', email: ' <alice@example.com>. ' } },
      { author: { name: 'Line\nBreak', email: 'a\n@b' } },
      { author: { name: "'quoted'", email: '"e"' } },
      { author: { name: 'Zoë Ünicode', email: 'zoë@exämple.com' } },
      { author: { name: 'x', email: '' } },
      { author: { name: 'x', email: '...' } },
      { author: { name: '\uFFFF', email: 'x@y' } },
      { author: { name: '', email: 'x@y' } },
      { author: { name: '...', email: 'x@y' } },
      { author: { name: ' <> ', email: 'x@y' } },
      { committer: { name: 'Bob', email: 'bob@example.com' } },
      { committer: { name: ',;:', email: 'bob@example.com' } },
      { date: { seconds: 1_700_000_000, offsetMinutes: 330 } },
      { date: { seconds: 1_700_000_000, offsetMinutes: -210 } },
      { date: { seconds: 1_700_000_000, offsetMinutes: -600 } },
      { date: { seconds: 0, offsetMinutes: 0 } },
    ];
    for (const overrides of cases) {
      const fields: CommitFields = {
        tree,
        parents: [],
        author: alice,
        committer: alice,
        message: 'message\n',
        date: { seconds: 1_700_000_000, offsetMinutes: 0 },
        ...overrides,
      };
      const expected = await gitCommitTree(fields);
      const actual = ours(fields);
      expect({ overrides, code: actual.code, content: actual.content?.toString('latin1') }).toEqual({
        overrides,
        code: expected.code,
        content: expected.content?.toString('latin1'),
      });
    }
  });
});

// Listing branches reads one page: names are listed, filtered, sorted and cut first; the commits, the
// merged status and the presentation are computed for the page's branches only. 250 branches, half of
// them merged into the default branch, half on commits of their own.
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GitRepository } from '../../core/git/repository.js';
import { type ListServer, pageHeaders, startListServer } from '../../core/http/pagination.testSupport.js';
import type { Schemas } from '../../core/http/types.js';

const COUNT = 250;
const LIST = '/projects/acme%2Ftools/repository/branches';
const name = (i: number) => `feature/${String(i).padStart(3, '0')}`;

let server: ListServer;
/** The tip of every seeded branch, by name. */
const tips = new Map<string, string>();

function git(gitDir: string, args: string[], input?: string): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { input, encoding: 'utf8' }).trim();
}

beforeAll(async () => {
  server = await startListServer();
  const { db, storages, repositoryEvents } = server.app.context;
  const project = await db
    .selectFrom('projects')
    .select(['id', 'repository_storage'])
    .where('path', '=', 'tools')
    .executeTakeFirstOrThrow();
  const gitDir = storages.pathFor(project.repository_storage, project.id);
  const main = git(gitDir, ['rev-parse', 'refs/heads/main']);
  // Even branches point at main's tip, odd ones at a commit of their own on top of it (not merged); main
  // then moves on by a commit, so the even ones are merged (a branch at main's own head would not be).
  const stream: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    if (i % 2 === 0) {
      stream.push(`reset refs/heads/${name(i)}`, `from ${main}`, '');
    } else {
      const message = `Work on ${name(i)}\n`;
      stream.push(
        `commit refs/heads/${name(i)}`,
        'committer Test <test@example.com> 1767225600 +0100',
        `data ${Buffer.byteLength(message)}`,
        message,
        `from ${main}`,
        '',
      );
    }
  }
  const onMain = 'Move main on\n';
  stream.push(
    'commit refs/heads/main',
    'committer Test <test@example.com> 1767225700 +0100',
    `data ${Buffer.byteLength(onMain)}`,
    onMain,
    `from ${main}`,
    '',
  );
  git(gitDir, ['fast-import', '--quiet'], `${stream.join('\n')}\n`);
  for (let i = 0; i < COUNT; i++) tips.set(name(i), git(gitDir, ['rev-parse', `refs/heads/${name(i)}`]));
  // Written behind the server's back: tell it, as another server process would.
  await repositoryEvents.changed(db, project.id);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const names = (body: unknown) => (body as Schemas['Branch'][]).map((branch) => branch.name);

describe('list branches, one page at a time', () => {
  it('filters by search, sorts by name and cuts the page; headers count the matches', async () => {
    const answer = await server.get(`${LIST}?search=feature&page=3&per_page=20`);
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(Array.from({ length: 20 }, (_, i) => name(40 + i)));
    expect(answer.headers).toMatchObject(pageHeaders(COUNT, 3, 20));
    const next = /<([^>]+)>; rel="next"/.exec(answer.headers.link ?? '')?.[1] ?? '';
    expect(Object.fromEntries(new URL(next).searchParams)).toEqual({
      search: 'feature',
      page: '4',
      per_page: '20',
    });
    for (const branch of answer.body as Schemas['Branch'][]) {
      const index = Number(branch.name.slice('feature/'.length));
      expect(branch.commit.id).toBe(tips.get(branch.name));
      expect(branch.merged).toBe(index % 2 === 0);
      expect(branch.default).toBe(false);
    }
  });

  it('takes `+` as a space in the query, as form encoding has it, and links back with %20', async () => {
    const answer = await server.get(`${LIST}?search=no+such&per_page=5`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    const first = /<([^>]+)>; rel="first"/.exec(answer.headers.link ?? '')?.[1] ?? '';
    expect(first).toContain('search=no%20such&');
    const again = await server.get(first.slice(first.indexOf('/projects')));
    expect(again.status).toBe(200);
  });

  it('anchors a search at the start or the end, ignoring case', async () => {
    const start = await server.get(`${LIST}?search=${encodeURIComponent('^FEATURE/01')}&per_page=100`);
    expect(names(start.body)).toEqual(Array.from({ length: 10 }, (_, i) => name(10 + i)));
    expect(start.headers).toMatchObject(pageHeaders(10, 1, 100));
    const end = await server.get(`${LIST}?search=${encodeURIComponent('7$')}&page=2&per_page=10`);
    expect(names(end.body)).toEqual([107, 117, 127, 137, 147, 157, 167, 177, 187, 197].map(name));
    expect(end.headers).toMatchObject(pageHeaders(25, 2, 10));
  });

  it('counts every branch without a search; the last page holds what is left, the default branch last', async () => {
    const first = await server.get(LIST);
    expect(names(first.body)).toEqual(Array.from({ length: 20 }, (_, i) => name(i)));
    expect(first.headers).toMatchObject(pageHeaders(COUNT + 1, 1, 20));
    const last = await server.get(`${LIST}?page=13&per_page=20`);
    expect(names(last.body)).toEqual([...Array.from({ length: 10 }, (_, i) => name(240 + i)), 'main']);
    expect(last.headers).toMatchObject(pageHeaders(COUNT + 1, 13, 20));
    const main = (last.body as Schemas['Branch'][]).at(-1);
    expect(main).toMatchObject({ name: 'main', default: true, merged: false });
  });

  it("reads commits and merged status for the page's branches only, never for the whole repository", async () => {
    const named = vi.spyOn(GitRepository.prototype, 'branchesNamed');
    const merged = vi.spyOn(GitRepository.prototype, 'mergedAmong');
    const all = vi.spyOn(GitRepository.prototype, 'listBranches');
    const allMerged = vi.spyOn(GitRepository.prototype, 'mergedBranches');
    const answer = await server.get(`${LIST}?search=feature&page=7&per_page=15`);
    const page = Array.from({ length: 15 }, (_, i) => name(90 + i));
    expect(names(answer.body)).toEqual(page);
    expect(named.mock.calls).toEqual([[page]]);
    expect(merged.mock.calls).toEqual([['main', page]]);
    expect(all).not.toHaveBeenCalled();
    expect(allMerged).not.toHaveBeenCalled();
  });

  it('reads the merged status of one branch for a single branch', async () => {
    const merged = vi.spyOn(GitRepository.prototype, 'mergedAmong');
    const odd = await server.get(`${LIST}/${encodeURIComponent(name(1))}`);
    const even = await server.get(`${LIST}/${encodeURIComponent(name(2))}`);
    expect([odd.status, even.status]).toEqual([200, 200]);
    expect((odd.body as Schemas['Branch']).merged).toBe(false);
    expect((even.body as Schemas['Branch']).merged).toBe(true);
    expect(merged.mock.calls).toEqual([
      ['main', [name(1)]],
      ['main', [name(2)]],
    ]);
  });

  it('answers a page past the end, however large, with an empty list and the headers', async () => {
    const answer = await server.get(`${LIST}?page=${Number.MAX_SAFE_INTEGER}&per_page=50`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    expect(answer.headers).toMatchObject({
      'x-total': String(COUNT + 1),
      'x-total-pages': '6',
      'x-per-page': '50',
      'x-next-page': '',
    });
    expect(answer.headers['x-page']).toMatch(/^\d+$/);
  });
});

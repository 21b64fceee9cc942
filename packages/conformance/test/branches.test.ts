// Branches: list with search and pagination, single read, create, delete, delete merged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, openTarget, RUN, type Target } from '../src/index.js';

let target: Target;
let project: string;
/** A fixture branch of the public project: not protected, not merged, with a commit of its own. */
let develop: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  develop = target.config.fixtures.unprotectedBranch;
});
afterAll(async () => {
  await target.close();
});

const LIST = '/projects/{id}/repository/branches' as const;
const ONE = '/projects/{id}/repository/branches/{branch}' as const;

/** Every branch of the public project, all pages: runs against one server add up to more than a page. */
async function allBranches(role: 'anonymous' | 'maintainer') {
  const client = target.as(role);
  return collect(
    client.paginate(() => client.GET(LIST, { params: { path: { id: project }, query: { per_page: 100 } } })),
  );
}

/** Page `page` of the public project's branches, two a page. */
async function pageOf(client: ReturnType<Target['as']>, page: number | string) {
  const { data, response } = await client.GET(LIST, {
    // A page number given as its digits is sent as they are.
    params: { path: { id: project }, query: { per_page: 2, page: page as number } },
  });
  return {
    status: response.status,
    names: data?.map((branch) => branch.name),
    headers: response.headers,
    total: Number(response.headers.get('X-Total')),
  };
}

/**
 * Creates `branch` as the maintainer (fixture branches may be deleted as merged by other tests), from main's
 * parent by default: merged into main, which a branch at main's head is not (GitLab's
 * `merged_to_root_ref?`).
 */
async function ownBranch(branch: string, ref = 'main~1'): Promise<string> {
  const created = await target
    .as('maintainer')
    .POST(LIST, { params: { path: { id: project } }, body: { branch, ref } });
  expect(created.response.status).toBe(201);
  return branch;
}

describe('listing branches', () => {
  const RELEASE = `release/${RUN}`;
  beforeAll(async () => {
    await ownBranch(RELEASE);
  });

  it('lists branches sorted by name, without a token on a public project', async () => {
    const { data, response } = await target
      .as('anonymous')
      .GET(LIST, { params: { path: { id: project }, query: { per_page: 100 } } });
    expect(response.status).toBe(200);
    const all = await allBranches('anonymous');
    const names = all.map((b) => b.name);
    expect(names).toEqual([...names].sort());
    expect(data?.map((b) => b.name)).toEqual(names.slice(0, 100));
    expect(names).toEqual(expect.arrayContaining(['main', develop, RELEASE]));
    const main = all.find((b) => b.name === 'main');
    expect(main).toMatchObject({ default: true, protected: true, merged: false, can_push: false });
    expect(main?.commit.id).toMatch(/^[0-9a-f]{40}$/);
    expect(main?.commit.authored_date).toMatch(/[+-]\d\d:\d\d$/);
  });

  it('filters with ^term, term$ and plain term', async () => {
    const names = async (search: string) =>
      (
        await target
          .as('anonymous')
          .GET(LIST, { params: { path: { id: project }, query: { search, per_page: 100 } } })
      ).data?.map((b) => b.name) ?? [];
    // Other test files may add branches on a shared server: every match must fit, and the fixtures must be there.
    const startsWithRel = await names('^rel');
    expect(startsWithRel).toContain(RELEASE);
    expect(startsWithRel.every((name) => name.startsWith('rel'))).toBe(true);
    const tail = develop.slice(-4);
    const endsWithTail = await names(`${tail}$`);
    expect(endsWithTail).toContain(develop);
    expect(endsWithTail.every((name) => name.endsWith(tail))).toBe(true);
    const containsLease = await names('lease');
    expect(containsLease).toContain(RELEASE);
    expect(containsLease.every((name) => name.includes('lease'))).toBe(true);
    expect(containsLease).not.toContain('main');
    expect(await names('^nothing-like-this')).toEqual([]);
  });

  it('paginates with the X-* and Link headers', async () => {
    const first = await target
      .as('anonymous')
      .GET(LIST, { params: { path: { id: project }, query: { per_page: 2, page: 1 } } });
    expect(first.data).toHaveLength(2);
    const total = Number(first.response.headers.get('X-Total'));
    expect(total).toBeGreaterThanOrEqual(4);
    expect(first.response.headers.get('X-Total-Pages')).toBe(String(Math.ceil(total / 2)));
    expect(first.response.headers.get('X-Per-Page')).toBe('2');
    expect(first.response.headers.get('X-Page')).toBe('1');
    expect(first.response.headers.get('X-Next-Page')).toBe('2');
    expect(first.response.headers.get('X-Prev-Page')).toBe('');
    expect(first.response.headers.get('Link')).toMatch(/rel="next"/);
    const all = (
      await collect(
        target
          .as('anonymous')
          .paginate(() =>
            target.as('anonymous').GET(LIST, { params: { path: { id: project }, query: { per_page: 2 } } }),
          ),
      )
    ).map((branch) => branch.name);
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
  });

  it('answers a page past the end, however large, with an empty list and the headers', async () => {
    const client = target.as('anonymous');
    const { total } = await pageOf(client, 1);
    // The largest page the spec takes (2^53 - 1, the integers this API's IDs and pages can be).
    const huge = await pageOf(client, String(Number.MAX_SAFE_INTEGER));
    expect(huge.status).toBe(200);
    expect(huge.names).toEqual([]);
    expect(huge.headers.get('X-Total')).toBe(String(total));
    expect(huge.headers.get('X-Total-Pages')).toBe(String(Math.ceil(total / 2)));
    expect(huge.headers.get('X-Next-Page')).toBe('');
    expect(huge.headers.get('X-Page')).toMatch(/^\d+$/);
  });

  it("shows each branch of a page as its own read shows it (commit and merged status of the page's branches)", async () => {
    const client = target.as('maintainer');
    const search = `paged-${RUN}`;
    for (const suffix of ['a', 'b', 'c']) await ownBranch(`${search}-${suffix}`);
    // One branch with a commit of its own: not merged.
    const commit = await client.POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: project, file_path: `${search}.txt` } },
      body: { branch: `${search}-b`, content: 'own commit\n', commit_message: 'own commit' },
    });
    expect(commit.response.status).toBe(201);
    const second = await client.GET(LIST, {
      params: { path: { id: project }, query: { search, per_page: 2, page: 2 } },
    });
    expect(second.data?.map((branch) => branch.name)).toEqual([`${search}-c`]);
    expect(second.response.headers.get('X-Total')).toBe('3');
    const first = await client.GET(LIST, {
      params: { path: { id: project }, query: { search, per_page: 2, page: 1 } },
    });
    const listed = [...(first.data ?? []), ...(second.data ?? [])];
    expect(listed.map((branch) => [branch.name, branch.merged])).toEqual([
      [`${search}-a`, true],
      [`${search}-b`, false],
      [`${search}-c`, true],
    ]);
    for (const branch of listed) {
      const one = await client.GET(ONE, { params: { path: { id: project, branch: branch.name } } });
      // Another test file may delete merged branches meanwhile; a branch still there reads the same.
      if (one.response.status !== 404) expect(one.data).toEqual(branch);
    }
  });

  it('reads per_page above 100 as 100 and rejects page 0 with 400', async () => {
    const many = await target
      .as('anonymous')
      .GET(LIST, { params: { path: { id: project }, query: { per_page: 101 } } });
    expect(many.response.status).toBe(200);
    expect(many.response.headers.get('X-Per-Page')).toBe('100');
    expect(
      (await target.as('anonymous').GET(LIST, { params: { path: { id: project }, query: { page: 0 } } }))
        .response.status,
    ).toBe(400);
  });

  it('hides private projects (404) and refuses invalid tokens (401)', async () => {
    const privateProject = target.config.fixtures.privateProject;
    expect(
      (await target.as('anonymous').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(404);
    expect(
      (await target.as('outsider').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(404);
    expect(
      (await target.as('revoked').GET(LIST, { params: { path: { id: project } } })).response.status,
    ).toBe(401);
    expect(
      (await target.as('developer').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(200);
  });
});

describe('one branch', () => {
  const MERGED = `feature/merged-${RUN}`;
  beforeAll(async () => {
    await ownBranch(MERGED);
  });

  it('reads a branch whose name contains a slash, with merged and protection flags', async () => {
    const { data } = await target
      .as('developer')
      .GET(ONE, { params: { path: { id: project, branch: MERGED } } });
    expect(data).toMatchObject({
      name: MERGED,
      merged: true,
      protected: false,
      default: false,
      can_push: true,
    });
    const unmerged = await target
      .as('developer')
      .GET(ONE, { params: { path: { id: project, branch: develop } } });
    expect(unmerged.data?.merged).toBe(false);
    const main = await target.as('developer').GET(ONE, { params: { path: { id: project, branch: 'main' } } });
    expect(main.data).toMatchObject({
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
    });
    const asMaintainer = await target
      .as('maintainer')
      .GET(ONE, { params: { path: { id: project, branch: 'main' } } });
    expect(asMaintainer.data?.can_push).toBe(true);
  });

  it('gives 404 for an unknown branch', async () => {
    const { response, error } = await target
      .as('anonymous')
      .GET(ONE, { params: { path: { id: project, branch: 'nope' } } });
    expect(response.status).toBe(404);
    expect(error?.message).toBe('404 Branch Not Found');
  });
});

describe('creating and deleting branches', () => {
  it('creates from a branch name and from a SHA (201)', async () => {
    const client = target.as('developer');
    const fromName = await client.POST(LIST, {
      params: { path: { id: project } },
      body: { branch: `topic/one-${RUN}`, ref: develop },
    });
    expect(fromName.response.status).toBe(201);
    const source = await client.GET(ONE, { params: { path: { id: project, branch: develop } } });
    expect(fromName.data?.commit.id).toBe(source.data?.commit.id);
    const sha = source.data?.commit.parent_ids[0] ?? '';
    const fromSha = await client.POST(LIST, {
      params: { path: { id: project } },
      body: { branch: `topic/two-${RUN}`, ref: sha },
    });
    expect(fromSha.response.status).toBe(201);
    expect(fromSha.data?.commit.id).toBe(sha);
  });

  it('refuses an unknown ref, an existing name and an invalid name with 400', async () => {
    const client = target.as('developer');
    for (const body of [
      { branch: 'topic/bad-ref', ref: 'no-such-ref' },
      { branch: develop, ref: 'main' },
      { branch: 'bad..name', ref: 'main' },
    ]) {
      const { response, error } = await client.POST(LIST, { params: { path: { id: project } }, body });
      expect(response.status).toBe(400);
      expect(error?.message).toBeTruthy();
    }
    // @ts-expect-error ref is required
    const missing = await client.POST(LIST, { params: { path: { id: project } }, body: { branch: 'x' } });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.error).toBe('ref is missing');
  });

  it('needs developer access and the api scope to create', async () => {
    const body = { branch: 'topic/denied', ref: 'main' };
    expect(
      (await target.as('anonymous').POST(LIST, { params: { path: { id: project } }, body })).response.status,
    ).toBe(401);
    expect(
      (await target.as('reporter').POST(LIST, { params: { path: { id: project } }, body })).response.status,
    ).toBe(403);
    expect(
      (await target.as('developerReadRepository').POST(LIST, { params: { path: { id: project } }, body }))
        .response.status,
    ).toBe(403);
  });

  it('deletes a branch (204) and explains why the default or a protected branch cannot go', async () => {
    const client = target.as('developer');
    const doomed = `topic/to-delete-${RUN}`;
    await client.POST(LIST, { params: { path: { id: project } }, body: { branch: doomed, ref: 'main' } });
    expect(
      (await client.DELETE(ONE, { params: { path: { id: project, branch: doomed } } })).response.status,
    ).toBe(204);
    expect(
      (await client.GET(ONE, { params: { path: { id: project, branch: doomed } } })).response.status,
    ).toBe(404);
    expect(
      (await client.DELETE(ONE, { params: { path: { id: project, branch: doomed } } })).response.status,
    ).toBe(404);

    const defaultBranch = await target
      .as('maintainer')
      .DELETE(ONE, { params: { path: { id: project, branch: 'main' } } });
    expect(defaultBranch.response.status).toBe(400);
    expect(defaultBranch.error?.message).toMatch(/default branch/);
    expect(
      (await target.as('reporter').DELETE(ONE, { params: { path: { id: project, branch: develop } } }))
        .response.status,
    ).toBe(403);
  });

  it("counts a branch at the default branch's head as not merged, and deleting merged branches keeps it", async () => {
    // A project of its own, so no other file's commit moves its main meanwhile.
    const client = target.as('maintainer');
    const created = await client.POST('/projects', {
      body: { path: `at-head-${RUN.toLowerCase()}`, initialize_with_readme: true },
    });
    expect(created.response.status).toBe(201);
    const id = String(created.data?.id);
    const atHead = `at-head-${RUN}`;
    const branch = await client.POST(LIST, {
      params: { path: { id } },
      body: { branch: atHead, ref: 'main' },
    });
    expect(branch.data?.merged).toBe(false);
    // A commit on main: the branch is now behind it, so merged; a new one at main's head is not.
    const commit = await client.POST('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id, file_path: 'next.txt' } },
      body: { branch: 'main', content: 'next\n', commit_message: 'Move main on' },
    });
    expect(commit.response.status).toBe(201);
    const behind = await client.GET(ONE, { params: { path: { id, branch: atHead } } });
    expect(behind.data?.merged).toBe(true);
    const fresh = `fresh-${RUN}`;
    await client.POST(LIST, { params: { path: { id } }, body: { branch: fresh, ref: 'main' } });
    const listed = await client.GET(LIST, { params: { path: { id } } });
    expect(listed.data?.map((b) => [b.name, b.merged])).toEqual([
      [atHead, true],
      [fresh, false],
      ['main', false],
    ]);
    const deleted = await client.DELETE('/projects/{id}/repository/merged_branches', {
      params: { path: { id } },
    });
    expect(deleted.response.status).toBe(202);
    const left = await client.GET(LIST, { params: { path: { id } } });
    expect(left.data?.map((b) => b.name)).toEqual([fresh, 'main']);
    await client.DELETE('/projects/{id}', { params: { path: { id } } });
  });

  it('in an empty repository, makes the default branch first (an empty README.md), as GitLab does', async () => {
    const client = target.as('maintainer');
    const created = await client.POST('/projects', { body: { path: `empty-${RUN.toLowerCase()}` } });
    expect(created.response.status).toBe(201);
    const id = String(created.data?.id);
    expect((await client.GET(LIST, { params: { path: { id } } })).data).toEqual([]);
    // Another ref than the default branch still does not exist; the default branch is made all the same.
    const unknownRef = await client.POST(LIST, {
      params: { path: { id } },
      body: { branch: `other-${RUN}`, ref: 'no-such-ref' },
    });
    expect(unknownRef.response.status).toBe(400);
    const branch = await client.POST(LIST, {
      params: { path: { id } },
      body: { branch: `first-${RUN}`, ref: 'main' },
    });
    expect(branch.response.status, JSON.stringify(branch.error)).toBe(201);
    expect(branch.data).toMatchObject({ name: `first-${RUN}`, merged: false, default: false });
    expect(branch.data?.commit).toMatchObject({ title: 'Add README.md', parent_ids: [] });
    const names = (await client.GET(LIST, { params: { path: { id } } })).data?.map((b) => b.name);
    expect(names).toEqual([`first-${RUN}`, 'main']);
    const readme = await client.GET('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id, file_path: 'README.md' }, query: { ref: 'main' } },
    });
    expect(readme.data).toMatchObject({ size: 0, content: '' });
    await client.DELETE('/projects/{id}', { params: { path: { id } } });
  });

  it('deletes merged branches but keeps protected, unmerged and default ones (202)', async () => {
    const client = target.as('maintainer');
    const merged = await ownBranch(`merged/one-${RUN}`);
    const { response, data } = await client.DELETE('/projects/{id}/repository/merged_branches', {
      params: { path: { id: project } },
    });
    expect(response.status).toBe(202);
    expect(data?.message).toBe('202 Accepted');
    const names = (await allBranches('maintainer')).map((b) => b.name);
    expect(names).not.toContain(merged);
    expect(names).not.toContain('feature/merged-already');
    expect(names).toEqual(expect.arrayContaining(['main', develop]));
    expect(
      (
        await target
          .as('reporter')
          .DELETE('/projects/{id}/repository/merged_branches', { params: { path: { id: project } } })
      ).response.status,
    ).toBe(403);
  });
});

// Project lists, a user's projects, starrers and languages (document 2, section 4.2): every list filter,
// offset and keyset pagination, summary and full forms, and who sees what (anonymous, outsider, each member
// role, administrator). Every response goes through target.fetch, which validates it against the spec.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { waitFor } from './waitFor.js';

let target: Target;
let fixtures: Target['config']['fixtures'];

beforeAll(async () => {
  target = await openTarget();
  fixtures = target.config.fixtures;
});
afterAll(async () => {
  await target.close();
});

const enc = encodeURIComponent;

/** A GET as `caller` (callAs validates every response). */
const call = (caller: Caller, path: string, query: Record<string, string> = {}) =>
  callAs(target, caller, path, { query });

/** A GET of a whole URL (one a Link header gave) as `caller`. */
const callUrl = (caller: Caller, url: string) => callAs(target, caller, url);

/**
 * A project of a list: the spec answers the summary form (anonymous callers, `simple=true`) or the full form, so
 * the summary's fields are always there and the full form's only sometimes.
 */
type Project = components['schemas']['ProjectSummary'] &
  Partial<Omit<components['schemas']['ProjectFull'], keyof components['schemas']['ProjectSummary']>>;
type Starrer = components['schemas']['ProjectStarrer'];
type Languages = operations['getProjectLanguages']['responses'][200]['content']['application/json'];

/**
 * Every project the caller sees with these parameters: every page (a server in use holds more than a page),
 * unless the query names a page size.
 */
async function list(
  caller: Caller,
  query: Record<string, string> = {},
  path = '/projects',
): Promise<Project[]> {
  const all: Project[] = [];
  for (let page = 1; ; page++) {
    const { status, body, headers } = await call(caller, path, {
      per_page: '100',
      ...query,
      page: String(page),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    all.push(...(body as Project[]));
    if (query.per_page !== undefined || !headers.get('x-next-page')) return all;
  }
}

const paths = (projects: Project[]) => projects.map((project) => project.path_with_namespace).sort();

/** Whether the suite started its own server (else the server is shared with other files and other users). */
const againstLocalServer = !process.env.COLLAB_BASE_URL && !process.env.COLLAB_CONFORMANCE_CONFIG;

/**
 * The paths of `projects` that the config names. A shared server holds other projects too (other files
 * import theirs, and their members and stars come with them), so exact lists compare the configured projects
 * there; on the file's own server they compare everything.
 */
function configured(projects: Project[]): string[] {
  const { publicProject, privateProject, internalProject, sharedProject, projects: personal } = fixtures;
  const named = new Set([
    publicProject,
    privateProject,
    internalProject,
    sharedProject,
    ...Object.values(personal),
  ]);
  return paths(projects).filter((path) => againstLocalServer || named.has(path));
}

/** The configured project `path` among `projects` (a search may find other projects of similar names). */
const projectAt = (projects: Project[], path: string) =>
  projects.find((project) => project.path_with_namespace === path);

describe('GET /projects: visibility and forms', () => {
  it('shows anonymous callers the public projects only, in the summary form', async () => {
    const projects = await list('anonymous');
    expect(paths(projects)).toContain(fixtures.publicProject);
    expect(paths(projects)).toContain(fixtures.projects.personalPublic);
    for (const project of projects) {
      expect(project.visibility).toBeUndefined();
      expect(project.permissions).toBeUndefined();
    }
    expect(paths(projects)).not.toContain(fixtures.privateProject);
    expect(paths(projects)).not.toContain(fixtures.internalProject);
    // simple=false changes nothing for an anonymous caller.
    expect(paths(await list('anonymous', { simple: 'false' }))).toEqual(paths(projects));
  });

  it('shows a signed-in outsider public and internal projects and those shared with its groups', async () => {
    const seen = paths(await list('outsider'));
    expect(seen).toContain(fixtures.publicProject);
    expect(seen).toContain(fixtures.internalProject);
    expect(seen).not.toContain(fixtures.privateProject);
    expect(seen).not.toContain(fixtures.projects.personalPrivate);
    // The demo's outsider is a developer of the group the shared project is shared with (capped at reporter).
    expect(seen).toContain(fixtures.sharedProject);
  });

  it('shows members the private projects of their groups, with their permissions', async () => {
    for (const [role, level] of [
      ['guest', 10],
      ['reporter', 20],
      ['developer', 30],
      ['maintainer', 40],
      ['owner', 50],
    ] as const) {
      const projects = await list(role);
      const backend = projects.find((project) => project.path_with_namespace === fixtures.privateProject);
      expect(backend, role).toBeDefined();
      expect(backend?.permissions?.group_access?.access_level, role).toBe(level);
      expect(backend?.permissions?.project_access, role).toBeNull();
      if (role !== 'owner') expect(paths(projects), role).not.toContain(fixtures.projects.personalPrivate);
    }
  });

  it('shows administrators everything, with repository_storage', async () => {
    const projects = await list('admin');
    expect(paths(projects)).toEqual(
      expect.arrayContaining([
        fixtures.privateProject,
        fixtures.projects.personalPrivate,
        fixtures.sharedProject,
      ]),
    );
    expect(projects.every((project) => typeof project.repository_storage === 'string')).toBe(true);
    // The administrator is no member of the owner's personal project: its permissions are empty.
    expect(projectAt(projects, fixtures.projects.personalPrivate)?.permissions).toEqual({
      project_access: null,
      group_access: null,
    });
  });

  it('gives the summary form with simple=true and the full form otherwise', async () => {
    const [simple] = await list('developer', { simple: 'true', per_page: '1' });
    expect(simple?.visibility).toBeUndefined();
    const [full] = await list('developer', { per_page: '1' });
    expect(full?.visibility).toBeDefined();
    expect(full?.namespace).toBeDefined();
  });

  it('refuses an invalid token (401) and invalid parameters (400)', async () => {
    expect((await call('invalid', '/projects')).status).toBe(401);
    const badQueries: Record<string, string>[] = [
      { order_by: 'stars' },
      { sort: 'up' },
      { visibility: 'secret' },
      { min_access_level: '15' },
      { id_after: 'x' },
      { archived: 'maybe' },
      { last_activity_after: 'yesterday' },
      { pagination: 'cursor' },
    ];
    for (const query of badQueries) {
      const { status, body } = await call('developer', '/projects', query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body).toBeDefined();
    }
  });
});

describe('GET /projects: filters', () => {
  it('filters by visibility, archived and search', async () => {
    const internal = await list('developer', { visibility: 'internal' });
    expect(internal.map((project) => project.visibility)).toEqual(internal.map(() => 'internal'));
    expect(paths(internal)).toContain(fixtures.internalProject);
    expect(paths(await list('admin', { archived: 'true' }))).not.toContain(fixtures.publicProject);
    expect(paths(await list('admin', { archived: 'false' }))).toContain(fixtures.publicProject);
    const name = fixtures.publicProject.split('/').at(-1) ?? '';
    const found = paths(await list('developer', { search: name.toUpperCase() }));
    expect(found).toContain(fixtures.publicProject);
    expect(found).not.toContain(fixtures.privateProject);
    // A namespace's path matches only with search_namespaces.
    const group = fixtures.namespace;
    expect(paths(await list('developer', { search: `${group}/` }))).toEqual([]);
    expect(paths(await list('developer', { search: `${group}/`, search_namespaces: 'true' }))).toContain(
      fixtures.publicProject,
    );
    // Wildcards are text.
    expect(await list('developer', { search: '%' })).toEqual([]);
  });

  it('filters by owned, membership, min_access_level and starred', async () => {
    const owned = paths(await list('owner', { owned: 'true' }));
    expect(owned).toEqual(
      expect.arrayContaining([fixtures.publicProject, fixtures.projects.personalPrivate]),
    );
    expect(configured(await list('developer', { owned: 'true' }))).toEqual([]);
    const membership = configured(await list('outsider', { membership: 'true' }));
    expect(membership).toEqual([fixtures.sharedProject]);
    expect(configured(await list('outsider', { min_access_level: '30' }))).toEqual([]);
    expect(configured(await list('outsider', { min_access_level: '20' }))).toEqual([fixtures.sharedProject]);
    expect(configured(await list('reporter', { min_access_level: '30' }))).toEqual([]);
    expect(paths(await list('developer', { min_access_level: '30' }))).toContain(fixtures.privateProject);
    expect(configured(await list('developer', { starred: 'true' }))).toEqual(
      [fixtures.publicProject, fixtures.privateProject].sort(),
    );
    expect(configured(await list('outsider', { starred: 'true' }))).toEqual([fixtures.publicProject]);
    expect(await list('anonymous', { starred: 'true' })).toEqual([]);
    expect(await list('anonymous', { owned: 'true' })).toEqual([]);
    const found = await list('anonymous', { search: fixtures.publicProject.split('/').at(-1) ?? '' });
    expect(projectAt(found, fixtures.publicProject)?.star_count).toBe(3);
  });

  it('filters by the issues and merge requests features and by programming language', async () => {
    const withIssues = paths(await list('developer', { with_issues_enabled: 'true' }));
    expect(withIssues).not.toContain(fixtures.internalProject);
    expect(withIssues).toContain(fixtures.publicProject);
    const withMergeRequests = paths(await list('developer', { with_merge_requests_enabled: 'true' }));
    expect(withMergeRequests).not.toContain(fixtures.projects.personalPublic);
    // Languages are detected by reading them (and for the filter, or after a push: GitLab detects in a job).
    await call('anonymous', `/projects/${enc(fixtures.projects.personalPublic)}/languages`);
    expect(configured(await list('developer', { with_programming_language: 'python' }))).toEqual([
      fixtures.projects.personalPublic,
    ]);
    expect(await list('developer', { with_programming_language: 'COBOL' })).toEqual([]);
  });

  it('filters by id_after, id_before and last activity', async () => {
    const all = await list('admin', { order_by: 'id', sort: 'asc' });
    const middle = all[1]?.id ?? 0;
    const after = await list('admin', { id_after: String(middle) });
    expect(after.every((project) => project.id > middle)).toBe(true);
    expect(after.length).toBe(all.length - 2);
    const before = await list('admin', { id_before: String(middle) });
    expect(before.map((project) => project.id)).toEqual([all[0]?.id]);
    expect(await list('admin', { last_activity_after: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect((await list('admin', { last_activity_before: '2999-01-01T00:00:00+02:00' })).length).toBe(
      all.length,
    );
    expect(await list('admin', { last_activity_before: '2000-01-01T00:00:00Z' })).toEqual([]);
  });

  it('orders by every order_by in both directions', async () => {
    for (const orderBy of ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']) {
      const asc = await list('admin', { order_by: orderBy, sort: 'asc' });
      const desc = await list('admin', { order_by: orderBy, sort: 'desc' });
      expect(
        desc.map((project) => project.id),
        orderBy,
      ).toEqual(asc.map((project) => project.id).reverse());
    }
    const byName = await list('admin', { order_by: 'name', sort: 'asc' });
    const names = byName.map((project) => project.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('keeps statistics, with_custom_attributes and custom_attributes for administrators', async () => {
    const admins = projectAt(
      await list('admin', {
        statistics: 'true',
        with_custom_attributes: 'true',
        search: fixtures.publicProject.split('/').at(-1) ?? '',
      }),
      fixtures.publicProject,
    );
    expect(admins?.statistics).toMatchObject({ commit_count: expect.any(Number) });
    expect(admins?.custom_attributes).toEqual(
      expect.arrayContaining([{ key: 'location', value: 'Antarctica' }]),
    );
    const [developers] = await list('developer', {
      statistics: 'true',
      with_custom_attributes: 'true',
      search: fixtures.publicProject.split('/').at(-1) ?? '',
    });
    expect(developers?.statistics).toBeUndefined();
    expect(developers?.custom_attributes).toBeUndefined();
    const inAntarctica = await list('admin', { 'custom_attributes[location]': 'Antarctica' });
    expect(paths(inAntarctica)).toEqual([fixtures.publicProject]);
    expect(
      await list('admin', { 'custom_attributes[location]': 'Antarctica', 'custom_attributes[stage]': 'x' }),
    ).toEqual([]);
    // Ignored for others, as GitLab does.
    expect((await list('developer', { 'custom_attributes[location]': 'Antarctica' })).length).toBeGreaterThan(
      1,
    );
  });
});

describe('GET /projects: pagination', () => {
  it('pages by offset with the X-Total headers', async () => {
    const all = await list('admin', { order_by: 'id', sort: 'asc' });
    const { status, body, headers } = await call('admin', '/projects', {
      order_by: 'id',
      sort: 'asc',
      per_page: '2',
      page: '2',
    });
    expect(status).toBe(200);
    expect((body as Project[]).map((project) => project.id)).toEqual(
      all.slice(2, 4).map((project) => project.id),
    );
    expect(headers.get('x-total')).toBe(String(all.length));
    expect(headers.get('x-page')).toBe('2');
  });

  it('refuses offset pages past 50,000 records with 405', async () => {
    const { status, body } = await call('admin', '/projects', { page: '501', per_page: '100' });
    expect(status).toBe(405);
    expect((body as components['schemas']['Error']).message).toMatch(/maximum allowed offset of 50000/);
    expect((await call('admin', '/projects', { page: '500', per_page: '100' })).status).toBe(200);
  });

  it('pages by keyset to the end in both directions, without totals', async () => {
    const all = await list('admin', { order_by: 'id', sort: 'asc' });
    for (const sort of ['asc', 'desc'] as const) {
      const seen: number[] = [];
      let url: string | undefined =
        `${target.config.baseUrl}/api/v4/projects?pagination=keyset&order_by=id&sort=${sort}&per_page=2`;
      for (let pages = 0; url && pages < 100; pages++) {
        const { status, body, headers } = await callUrl('admin', url);
        expect(status).toBe(200);
        expect(headers.get('x-total')).toBeNull();
        seen.push(...(body as Project[]).map((project) => project.id));
        url = /<([^>]+)>; rel="next"/.exec(headers.get('link') ?? '')?.[1];
      }
      const ids = all.map((project) => project.id);
      expect(seen).toEqual(sort === 'asc' ? ids : [...ids].reverse());
    }
  });

  it('refuses keyset pagination ordered by anything but the ID with 405', async () => {
    expect((await call('admin', '/projects', { pagination: 'keyset', order_by: 'name' })).status).toBe(405);
    expect((await call('admin', '/projects', { pagination: 'keyset' })).status).toBe(405);
  });
});

describe('GET /users/:user_id/projects', () => {
  const owner = () => fixtures.users.owner;

  it('lists the personal projects the caller may see, by ID or username', async () => {
    expect(paths(await list('anonymous', {}, `/users/${owner().username}/projects`))).toEqual([
      fixtures.projects.personalPublic,
    ]);
    expect(paths(await list('outsider', {}, `/users/${owner().id}/projects`))).toEqual([
      fixtures.projects.personalPublic,
    ]);
    // Other files may add projects to the owner's namespace on a shared server (POST /projects).
    const own = await list('owner', {}, `/users/${owner().id}/projects`);
    expect(paths(own)).toEqual(
      expect.arrayContaining([fixtures.projects.personalPrivate, fixtures.projects.personalPublic]),
    );
    expect(
      own.every((project) => project.owner?.id === owner().id && project.namespace?.kind === 'user'),
    ).toBe(true);
    const empty = own.find((project) => project.path_with_namespace === fixtures.projects.personalPrivate);
    expect(empty?.default_branch).toBeNull();
    const privateOnes = await list('admin', { visibility: 'private' }, `/users/${owner().username}/projects`);
    expect(paths(privateOnes)).toContain(fixtures.projects.personalPrivate);
    expect(paths(privateOnes)).not.toContain(fixtures.projects.personalPublic);
    expect(privateOnes.every((project) => project.visibility === 'private')).toBe(true);
    // A user without a personal namespace has no projects.
    expect(await list('admin', {}, `/users/${fixtures.users.guest.username}/projects`)).toEqual([]);
  });

  it('answers 404 for an unknown user and 400 for bad parameters', async () => {
    expect((await call('admin', `/users/no-such-user-${RUN}/projects`)).status).toBe(404);
    expect((await call('admin', '/users/999999999/projects')).status).toBe(404);
    expect((await call('admin', `/users/${owner().id}/projects`, { order_by: 'stars' })).status).toBe(400);
    expect((await call('invalid', `/users/${owner().id}/projects`)).status).toBe(401);
  });

  it('pages by keyset', async () => {
    const first = await call('owner', `/users/${owner().id}/projects`, {
      pagination: 'keyset',
      order_by: 'id',
      sort: 'asc',
      per_page: '1',
    });
    // One project a page, following `Link` until the last page, which has none; ids ascend across pages.
    const seen = [...(first.body as Project[])];
    let next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    for (let pages = 1; next !== undefined && pages < 100; pages++) {
      const page = await callUrl('owner', next);
      expect((page.body as Project[]).length).toBe(1);
      seen.push(...(page.body as Project[]));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    }
    expect(next).toBeUndefined();
    const ids = seen.map((project) => project.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(paths(seen)).toEqual(
      expect.arrayContaining([fixtures.projects.personalPrivate, fixtures.projects.personalPublic]),
    );
  });
});

describe('GET /projects/:id/starrers', () => {
  const starrers = (project: string) => `/projects/${enc(project)}/starrers`;

  it('lists who starred a project, newest first, with search', async () => {
    const { status, body, headers } = await call('anonymous', starrers(fixtures.publicProject));
    expect(status).toBe(200);
    const names = (body as Starrer[]).map((entry) => entry.user.username);
    expect(names).toEqual(
      [fixtures.users.outsider, fixtures.users.developer, fixtures.users.owner].map((u) => u.username),
    );
    expect(headers.get('x-total')).toBe('3');
    const searched = await call('anonymous', starrers(fixtures.publicProject), {
      // One word: the validator refuses the `+` that URLSearchParams makes of a space.
      search: (fixtures.users.developer.name.split(' ')[0] ?? '').toUpperCase(),
    });
    expect((searched.body as Starrer[]).map((entry) => entry.user.id)).toEqual([fixtures.users.developer.id]);
    const page2 = await call('anonymous', starrers(fixtures.publicProject), { per_page: '2', page: '2' });
    expect((page2.body as unknown[]).length).toBe(1);
    expect((await call('anonymous', starrers(fixtures.internalProject))).status).toBe(404);
    expect((await call('outsider', starrers(fixtures.internalProject))).body).toEqual([]);
  });

  it('hides a private project from those who may not see it (404)', async () => {
    expect((await call('outsider', starrers(fixtures.privateProject))).status).toBe(404);
    expect((await call('anonymous', starrers(fixtures.privateProject))).status).toBe(404);
    const guest = await call('guest', starrers(fixtures.privateProject));
    expect(guest.status).toBe(200);
    expect((guest.body as unknown[]).length).toBe(1);
    expect((await call('admin', starrers(`no-such/project-${RUN}`))).status).toBe(404);
    expect((await call('invalid', starrers(fixtures.publicProject))).status).toBe(401);
  });
});

describe('GET /projects/:id/languages', () => {
  const languages = (project: string) => `/projects/${enc(project)}/languages`;

  it('gives the share of each language by bytes, adding up to 100', async () => {
    const { status, body } = await call('anonymous', languages(fixtures.projects.personalPublic));
    expect(status).toBe(200);
    // On a server in use, a later test of this file may have committed a Go file: Shell stays 3 to Python's 1.
    if (againstLocalServer) expect(body).toEqual({ Shell: 75, Python: 25 });
    else {
      const shares = body as Languages;
      expect((shares.Shell ?? 0) / (shares.Python ?? 0)).toBeCloseTo(3, 2);
    }
    const website = (await call('anonymous', languages(fixtures.publicProject))).body as Languages;
    const total = Object.values(website).reduce((sum, share) => sum + share, 0);
    expect(Math.round(total * 100)).toBe(10_000);
  });

  it('gives {} for an empty repository and 404 for a hidden project', async () => {
    expect((await call('owner', languages(fixtures.projects.personalPrivate))).body).toEqual({});
    expect((await call('outsider', languages(fixtures.projects.personalPrivate))).status).toBe(404);
    expect((await call('anonymous', languages(fixtures.privateProject))).status).toBe(404);
    expect((await call('reporter', languages(fixtures.privateProject))).status).toBe(200);
    expect((await call('invalid', languages(fixtures.publicProject))).status).toBe(401);
  });
  it('detects the languages again after a commit, for the filter too', async () => {
    const project = fixtures.projects.personalPublic;
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${enc(project)}/repository/files/${enc(`cmd/main-${RUN}.go`)}`,
      {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.owner, 'Content-Type': 'application/json' },
        body: JSON.stringify({ branch: 'main', content: 'package main\n', commit_message: 'Add Go' }),
      },
    );
    expect(response.status).toBe(201);
    // Nobody reads the languages: the filter finds the project all the same (this server detects the changed
    // repositories' languages for the filter; GitLab in a job after the push, hence the wait).
    await waitFor(
      'the Go detection',
      () => list('developer', { with_programming_language: 'Go' }),
      (projects) => paths(projects).includes(project),
    );
    const shares = (await call('anonymous', languages(project))).body as Languages;
    expect(Object.keys(shares).sort()).toEqual(['Go', 'Python', 'Shell']);
  });
});

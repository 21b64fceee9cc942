// Groups (document 2, section 4.1): the group list and a group's subgroups with every parameter, a group's
// details, and the projects of a group and those shared with it; who sees what (anonymous callers the
// public groups, members their groups with descendants and ancestors, administrators everything), 404 for
// a private group of others, 401 for a bad token, and the parameters only administrators may use.
//
// The file only reads. Tests marked "(demo)" need the demo fixtures of apps/server beyond what the config
// describes (the subgroups Community, Handbook and Ops, the group Labs and its subgroup Research of which the
// outsider is a member, custom attributes), and run only against this repository's own server.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

const againstLocalServer = !process.env.COLLAB_BASE_URL && !process.env.COLLAB_CONFORMANCE_CONFIG;

let target: Target;
let namespace: string;
let hiddenGroup: string;
let sharedGroup: { id: number; path: string; name: string };
let sharedProject: string;
let publicProject: string;
let privateProject: string;
let internalProject: string;

beforeAll(async () => {
  target = await openTarget();
  ({ namespace, hiddenGroup, sharedGroup, sharedProject, publicProject, privateProject, internalProject } =
    target.config.fixtures);
});
afterAll(async () => {
  await target.close();
});

const enc = encodeURIComponent;

type Group = components['schemas']['Group'];
type GroupDetails = components['schemas']['GroupDetails'];
type ProjectFull = components['schemas']['ProjectFull'];
/** An item of the group project lists: the full form, or the summary form (`simple=true`, anonymous callers). */
type Project = operations['listGroupProjects']['responses'][200]['content']['application/json'][number];

/** One GET as `caller` (callAs validates every response against the spec). */
const get = <T = unknown>(caller: Caller, path: string, query: string | Record<string, string> = '') =>
  callAs<T>(target, caller, path, { query });

/** Every item of a list, read through all its pages (100 a page). */
async function allOf<T>(caller: Caller, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page < 1000; page++) {
    const answer = await get<T[]>(caller, path, { ...query, per_page: '100', page: String(page) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    items.push(...answer.body);
    if (!answer.headers.get('X-Next-Page')) break;
  }
  return items;
}

/** Every group of a group list. */
const all = (caller: Caller, path: string, query: Record<string, string> = {}): Promise<Group[]> =>
  allOf<Group>(caller, path, query);

const paths = (groups: Group[]) => groups.map((group) => group.full_path);

const MEMBERS: readonly Role[] = ['owner', 'maintainer', 'developer', 'reporter', 'guest'];

describe('GET /groups: who sees which groups', () => {
  it('shows anonymous callers only public groups, the public namespace among them', async () => {
    const groups = await all('anonymous', '/groups');
    expect(groups.every((group) => group.visibility === 'public')).toBe(true);
    expect(paths(groups)).toContain(namespace);
    expect(paths(groups)).not.toContain(hiddenGroup);
    expect(paths(groups)).not.toContain(sharedGroup.path);
    // all_available=false changes nothing for them: anonymous callers always get the public groups.
    expect(paths(await all('anonymous', '/groups', { all_available: 'false' }))).toEqual(paths(groups));
  });

  it('refuses a token no server issued and a revoked one (401), and a token without an API scope (403)', async () => {
    for (const caller of ['invalid', 'revoked'] as const) {
      const answer = await get(caller, '/groups');
      expect(answer.status, caller).toBe(401);
    }
    expect((await get('developerReadRepository', '/groups')).status).toBe(403);
  });

  it.each(MEMBERS)(
    'shows the %s the namespace and its private subgroup, not the groups of others',
    async (role) => {
      const groups = paths(await all(role, '/groups'));
      expect(groups).toContain(namespace);
      expect(groups).toContain(hiddenGroup);
      if (role === 'maintainer') expect(groups).not.toContain(sharedGroup.path);
    },
  );

  it('shows the outsider neither the namespace nor its private subgroup without all_available', async () => {
    const groups = paths(await all('outsider', '/groups'));
    // On a shared server other files make the outsider a member of projects they import into the namespace,
    // and a member of a project sees its group.
    if (againstLocalServer) expect(groups).not.toContain(namespace);
    expect(groups).not.toContain(hiddenGroup);
    const available = await all('outsider', '/groups', { all_available: 'true' });
    expect(paths(available)).toContain(namespace);
    expect(paths(available)).not.toContain(hiddenGroup);
    // all_available adds public and internal groups only.
    for (const group of available)
      if (!groups.includes(group.full_path)) expect(group.visibility).not.toBe('private');
  });

  it('shows administrators every group by default, their own memberships with all_available=false', async () => {
    const groups = paths(await all('admin', '/groups'));
    for (const path of [namespace, hiddenGroup, sharedGroup.path]) expect(groups).toContain(path);
    const mine = paths(await all('admin', '/groups', { all_available: 'false' }));
    expect(mine.length).toBeLessThan(groups.length);
    // Everyone's list is part of the administrator's.
    for (const role of ['anonymous', 'outsider', 'guest', 'owner'] as const)
      for (const path of paths(await all(role, '/groups', { all_available: 'true' })))
        expect(groups).toContain(path);
  });

  it.runIf(againstLocalServer)('(demo) shows each role exactly its groups', async () => {
    const expected: Record<string, string[]> = {
      anonymous: ['acme', 'acme/community'],
      outsider: ['labs', 'partners', 'labs/research'],
      guest: ['acme', 'acme/community', 'acme/handbook', 'acme/platform/ops', 'acme/platform'],
      admin: [
        'acme',
        'acme/community',
        'acme/handbook',
        'labs',
        'acme/platform/ops',
        'partners',
        'acme/platform',
        'labs/research',
        'town-square',
      ],
    };
    for (const [caller, groups] of Object.entries(expected))
      expect(paths(await all(caller as Caller, '/groups')), caller).toEqual(groups);
    // The outsider sees Labs, a private group of which they are no member, as the ancestor of Research.
    expect(paths(await all('outsider', '/groups', { all_available: 'true' }))).toEqual([
      'acme',
      'acme/community',
      'acme/handbook',
      'labs',
      'partners',
      'labs/research',
      'town-square',
    ]);
    expect(await all('admin', '/groups', { all_available: 'false' })).toEqual([]);
  });
});

describe('GET /groups: parameters', () => {
  it('pages with the X-* and Link headers', async () => {
    const everything = await all('admin', '/groups');
    expect(everything.length).toBeGreaterThanOrEqual(3);
    const first = await get<Group[]>('admin', '/groups', { per_page: '2' });
    expect(first.status).toBe(200);
    expect(first.body.map((group) => group.id)).toEqual(everything.slice(0, 2).map((group) => group.id));
    const total = everything.length;
    const pages = Math.ceil(total / 2);
    expect(first.headers.get('X-Total')).toBe(String(total));
    expect(first.headers.get('X-Total-Pages')).toBe(String(pages));
    expect(first.headers.get('X-Per-Page')).toBe('2');
    expect(first.headers.get('X-Page')).toBe('1');
    expect(first.headers.get('X-Next-Page')).toBe('2');
    expect(first.headers.get('X-Prev-Page')).toBe('');
    expect(first.headers.get('Link')).toContain('rel="next"');
    const second = await get<Group[]>('admin', '/groups', { per_page: '2', page: '2' });
    expect(second.body.map((group) => group.id)).toEqual(everything.slice(2, 4).map((group) => group.id));
    expect(second.headers.get('X-Prev-Page')).toBe('1');
    const past = await get<Group[]>('admin', '/groups', { per_page: '2', page: String(pages + 1) });
    expect(past.body).toEqual([]);
    expect(past.headers.get('X-Total')).toBe(String(total));
  });

  it('orders by name (default), path or id, ascending (default) or descending; the id breaks ties', async () => {
    const byName = await all('admin', '/groups');
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = (groups: Group[], key: 'name' | 'path') =>
      [...groups].sort((a, b) => compare(a[key], b[key]) || a.id - b.id).map((group) => group.id);
    expect(byName.map((group) => group.id)).toEqual(sorted(byName, 'name'));
    const nameDesc = await all('admin', '/groups', { sort: 'desc' });
    expect(nameDesc.map((g) => g.name)).toEqual(byName.map((g) => g.name).reverse());
    const byPath = await all('admin', '/groups', { order_by: 'path' });
    expect(byPath.map((group) => group.id)).toEqual(sorted(byPath, 'path'));
    const byId = await all('admin', '/groups', { order_by: 'id' });
    expect(byId.map((group) => group.id)).toEqual(byName.map((group) => group.id).sort((a, b) => a - b));
    const byIdDesc = await all('admin', '/groups', { order_by: 'id', sort: 'desc' });
    expect(byIdDesc.map((group) => group.id)).toEqual(byId.map((group) => group.id).reverse());
  });

  it('searches names and paths, case-insensitively', async () => {
    const everything = await all('admin', '/groups');
    const hidden = everything.find((group) => group.full_path === hiddenGroup);
    if (!hidden) throw new Error('hidden group missing');
    const byName = await all('admin', '/groups', { search: hidden.name.toUpperCase() });
    expect(paths(byName)).toContain(hiddenGroup);
    for (const group of byName)
      expect(`${group.name} ${group.path}`.toLowerCase()).toContain(hidden.name.toLowerCase());
    const byPath = await all('admin', '/groups', { search: hidden.path });
    expect(paths(byPath)).toContain(hiddenGroup);
    expect(await all('admin', '/groups', { search: `no-such-group-${RUN}` })).toEqual([]);
    // Wildcards of SQL are plain characters.
    expect(await all('admin', '/groups', { search: '%' })).toEqual([]);
  });

  it('leaves out skip_groups', async () => {
    const everything = await all('owner', '/groups');
    const [first, second] = everything;
    if (!first || !second) throw new Error('the owner sees fewer than two groups');
    const skipped = await all('owner', '/groups', {});
    expect(skipped).toHaveLength(everything.length);
    const answer = await get<Group[]>(
      'owner',
      '/groups',
      `skip_groups=${first.id}&skip_groups=${second.id}&per_page=100`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.map((group) => group.id)).toEqual(everything.slice(2).map((group) => group.id));
    const brackets = await get<Group[]>('owner', '/groups', `skip_groups[]=${first.id}&per_page=100`);
    expect(brackets.body.map((group) => group.id)).toEqual(everything.slice(1).map((group) => group.id));
  });

  it('limits to owned groups (owned before all_available); nothing for anonymous callers', async () => {
    const owned = paths(await all('owner', '/groups', { owned: 'true', all_available: 'true' }));
    expect(owned).toContain(namespace);
    // The private subgroup is owned through inheritance only: GitLab's owned groups are direct ownerships.
    expect(owned).not.toContain(hiddenGroup);
    expect(paths(await all('maintainer', '/groups', { owned: 'true' }))).not.toContain(namespace);
    expect(await all('anonymous', '/groups', { owned: 'true' })).toEqual([]);
  });

  it('limits to min_access_level (with descendants), before all_available', async () => {
    for (const [role, level, sees] of [
      ['guest', 10, true],
      ['guest', 20, false],
      ['reporter', 20, true],
      ['developer', 40, false],
      ['maintainer', 40, true],
      ['maintainer', 50, false],
      ['owner', 50, true],
    ] as const) {
      const groups = paths(
        await all(role, '/groups', { min_access_level: String(level), all_available: 'true' }),
      );
      expect(groups.includes(namespace), `${role} ${level}`).toBe(sees);
      expect(groups.includes(hiddenGroup), `${role} ${level}`).toBe(sees);
    }
    // Anonymous callers have no level: the parameter is ignored.
    expect(paths(await all('anonymous', '/groups', { min_access_level: '50' }))).toEqual(
      paths(await all('anonymous', '/groups')),
    );
  });

  it('adds statistics for administrators only', async () => {
    const withStatistics = await all('admin', '/groups', { statistics: 'true' });
    for (const group of withStatistics) {
      expect(Object.keys(group.statistics ?? {}).sort()).toEqual([
        'job_artifacts_size',
        'lfs_objects_size',
        'packages_size',
        'repository_size',
        'storage_size',
        'wiki_size',
      ]);
    }
    // The namespace holds repositories: its statistics count their bytes.
    const own = withStatistics.find((group) => group.full_path === namespace);
    expect(own?.statistics?.repository_size).toBeGreaterThan(0);
    expect(own?.statistics?.storage_size).toBeGreaterThanOrEqual(own?.statistics?.repository_size ?? 0);
    for (const caller of ['owner', 'anonymous'] as const)
      for (const group of await all(caller, '/groups', { statistics: 'true' }))
        expect(group.statistics).toBeUndefined();
    expect((await all('admin', '/groups'))[0]?.statistics).toBeUndefined();
  });

  it('adds custom attributes for administrators only', async () => {
    for (const group of await all('admin', '/groups', { with_custom_attributes: 'true' }))
      expect(Array.isArray(group.custom_attributes)).toBe(true);
    for (const group of await all('owner', '/groups', { with_custom_attributes: 'true' }))
      expect(group.custom_attributes).toBeUndefined();
    for (const group of await all('admin', '/groups')) expect(group.custom_attributes).toBeUndefined();
  });

  it.runIf(againstLocalServer)('(demo) filters by custom attributes, for administrators only', async () => {
    const antarctica = await all('admin', '/groups', {
      'custom_attributes[location]': 'Antarctica',
      with_custom_attributes: 'true',
    });
    expect(paths(antarctica)).toEqual(['acme', 'partners']);
    expect(antarctica[0]?.custom_attributes).toEqual([
      { key: 'location', value: 'Antarctica' },
      { key: 'department', value: 'engineering' },
    ]);
    const both = await all('admin', '/groups', {
      'custom_attributes[location]': 'Antarctica',
      'custom_attributes[department]': 'engineering',
    });
    expect(paths(both)).toEqual(['acme']);
    expect(await all('admin', '/groups', { 'custom_attributes[location]': 'Mars' })).toEqual([]);
    // Others' filters are ignored, as GitLab ignores them.
    expect(paths(await all('owner', '/groups', { 'custom_attributes[location]': 'Mars' }))).toEqual(
      paths(await all('owner', '/groups')),
    );
  });

  it('refuses values outside the documented ones with 400', async () => {
    for (const query of [
      'order_by=created_at',
      'sort=up',
      'min_access_level=15',
      'skip_groups=abc',
      'all_available=maybe',
      'statistics=often',
      'per_page=0',
    ]) {
      const answer = await get('owner', '/groups', query);
      expect(answer.status, query).toBe(400);
    }
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists the direct subgroups the caller may see', async () => {
    const parent = (await get<GroupDetails>('owner', `/groups/${enc(namespace)}`)).body;
    const subgroups = await all('owner', `/groups/${enc(namespace)}/subgroups`);
    expect(paths(subgroups)).toContain(hiddenGroup);
    for (const group of subgroups) {
      expect(group.parent_id).toBe(parent.id);
      expect(group.full_path).toBe(`${namespace}/${group.path}`);
      expect(group.full_name).toBe(`${parent.name} / ${group.name}`);
    }
    // The same group by ID.
    expect(paths(await all('owner', `/groups/${parent.id}/subgroups`))).toEqual(paths(subgroups));
    // Anonymous callers and outsiders see no private subgroup.
    for (const caller of ['anonymous', 'outsider'] as const) {
      const seen = await all(caller, `/groups/${enc(namespace)}/subgroups`, { all_available: 'true' });
      expect(paths(seen), caller).not.toContain(hiddenGroup);
      for (const group of seen) expect(group.visibility).not.toBe('private');
    }
  });

  it('answers 404 for a private group of others, 401 for a bad token', async () => {
    for (const caller of ['anonymous', 'outsider'] as const)
      expect((await get(caller, `/groups/${enc(hiddenGroup)}/subgroups`)).status, caller).toBe(404);
    expect((await get('maintainer', `/groups/${enc(sharedGroup.path)}/subgroups`)).status).toBe(404);
    expect((await get('owner', `/groups/${enc(`no-such-group-${RUN}`)}/subgroups`)).status).toBe(404);
    expect((await get('owner', '/groups/999999999/subgroups')).status).toBe(404);
    expect((await get('invalid', `/groups/${enc(namespace)}/subgroups`)).status).toBe(401);
    for (const role of [...MEMBERS, 'admin'] as const)
      expect((await get(role, `/groups/${enc(hiddenGroup)}/subgroups`)).status, role).toBe(200);
  });

  it('takes the parameters of the group list', async () => {
    const subgroups = await all('admin', `/groups/${enc(namespace)}/subgroups`);
    const desc = await all('admin', `/groups/${enc(namespace)}/subgroups`, {
      order_by: 'path',
      sort: 'desc',
    });
    expect(desc.map((g) => g.path)).toEqual([...subgroups.map((g) => g.path)].sort().reverse());
    const hidden = subgroups.find((group) => group.full_path === hiddenGroup);
    if (!hidden) throw new Error('hidden group missing');
    expect(
      paths(await all('admin', `/groups/${enc(namespace)}/subgroups`, { search: hidden.path })),
    ).toContain(hiddenGroup);
    const skipped = await get<Group[]>(
      'admin',
      `/groups/${enc(namespace)}/subgroups`,
      `skip_groups=${hidden.id}&per_page=100`,
    );
    expect(paths(skipped.body)).not.toContain(hiddenGroup);
    expect(
      paths(await all('guest', `/groups/${enc(namespace)}/subgroups`, { min_access_level: '20' })),
    ).toEqual([]);
    expect(
      paths(await all('reporter', `/groups/${enc(namespace)}/subgroups`, { min_access_level: '20' })),
    ).toContain(hiddenGroup);
    const withStatistics = await all('admin', `/groups/${enc(namespace)}/subgroups`, { statistics: 'true' });
    for (const group of withStatistics) expect(group.statistics).toBeDefined();
    for (const group of await all('owner', `/groups/${enc(namespace)}/subgroups`, { statistics: 'true' }))
      expect(group.statistics).toBeUndefined();
    const page = await get<Group[]>('admin', `/groups/${enc(namespace)}/subgroups`, { per_page: '1' });
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('X-Total')).toBe(String(subgroups.length));
    expect((await get('admin', `/groups/${enc(namespace)}/subgroups`, 'order_by=size')).status).toBe(400);
  });

  it.runIf(againstLocalServer)('(demo) lists exactly the visible subgroups per role', async () => {
    expect(paths(await all('anonymous', '/groups/acme/subgroups'))).toEqual(['acme/community']);
    expect(paths(await all('outsider', '/groups/acme/subgroups'))).toEqual([]);
    expect(paths(await all('outsider', '/groups/acme/subgroups', { all_available: 'true' }))).toEqual([
      'acme/community',
      'acme/handbook',
    ]);
    expect(paths(await all('guest', '/groups/acme/subgroups'))).toEqual([
      'acme/community',
      'acme/handbook',
      'acme/platform',
    ]);
    expect(paths(await all('owner', `/groups/${enc('acme/platform')}/subgroups`))).toEqual([
      'acme/platform/ops',
    ]);
    expect((await all('owner', `/groups/${enc('acme/platform')}/subgroups`))[0]?.full_name).toBe(
      'Acme / Platform / Ops',
    );
    expect(paths(await all('outsider', '/groups/labs/subgroups'))).toEqual(['labs/research']);
    expect(
      paths(await all('admin', '/groups/acme/subgroups', { 'custom_attributes[location]': 'Antarctica' })),
    ).toEqual([]);
  });
});

describe('GET /groups/:id', () => {
  it('reads a public group without a token, by path and by ID alike, without the runners token', async () => {
    const byPath = await get<GroupDetails>('anonymous', `/groups/${enc(namespace)}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.full_path).toBe(namespace);
    expect(byPath.body.runners_token).toBeUndefined();
    expect(byPath.body.web_url).toMatch(new RegExp(`/groups/${namespace}$`));
    expect(byPath.body.shared_with_groups).toEqual([]);
    const byId = await get<GroupDetails>('anonymous', `/groups/${byPath.body.id}`);
    expect(byId.body).toEqual(byPath.body);
  });

  it('answers 404 for a private group of others and unknown groups, 401 for a bad token', async () => {
    for (const caller of ['anonymous', 'outsider'] as const)
      expect((await get(caller, `/groups/${enc(hiddenGroup)}`)).status, caller).toBe(404);
    expect((await get('maintainer', `/groups/${enc(sharedGroup.path)}`)).status).toBe(404);
    expect((await get('maintainer', `/groups/${sharedGroup.id}`)).status).toBe(404);
    expect((await get('admin', `/groups/${sharedGroup.id}`)).status).toBe(200);
    expect((await get('owner', `/groups/${enc(`no-such-group-${RUN}`)}`)).status).toBe(404);
    expect((await get('owner', '/groups/99999999999999999999')).status).toBe(404);
    expect((await get('invalid', `/groups/${enc(namespace)}`)).status).toBe(401);
    expect((await get('revoked', `/groups/${enc(namespace)}`)).status).toBe(401);
    expect((await get('developerReadRepository', `/groups/${enc(namespace)}`)).status).toBe(403);
  });

  it('shows the runners token to the owners and administrators only, the same on every read', async () => {
    const tokens: Record<string, string | undefined> = {};
    for (const role of [...MEMBERS, 'admin'] as const) {
      const answer = await get<GroupDetails>(role, `/groups/${enc(hiddenGroup)}`);
      expect(answer.status, role).toBe(200);
      tokens[role] = answer.body.runners_token;
    }
    expect(tokens.owner).toMatch(/^\S{20,}$/);
    expect(tokens.admin).toBe(tokens.owner);
    for (const role of ['maintainer', 'developer', 'reporter', 'guest'])
      expect(tokens[role], role).toBeUndefined();
    expect((await get<GroupDetails>('owner', `/groups/${enc(hiddenGroup)}`)).body.runners_token).toBe(
      tokens.owner,
    );
    expect((await get<GroupDetails>('owner', `/groups/${enc(namespace)}`)).body.runners_token).not.toBe(
      tokens.owner,
    );
  });

  it('names the group with its ancestors', async () => {
    const parent = (await get<GroupDetails>('owner', `/groups/${enc(namespace)}`)).body;
    const hidden = (await get<GroupDetails>('owner', `/groups/${enc(hiddenGroup)}`)).body;
    expect(hidden.parent_id).toBe(parent.id);
    expect(hidden.full_name).toBe(`${parent.full_name} / ${hidden.name}`);
    expect(hidden.visibility).toBe('private');
  });

  it('adds custom attributes for administrators only', async () => {
    const admin = await get<GroupDetails>('admin', `/groups/${enc(namespace)}`, {
      with_custom_attributes: 'true',
    });
    expect(Array.isArray(admin.body.custom_attributes)).toBe(true);
    const owner = await get<GroupDetails>('owner', `/groups/${enc(namespace)}`, {
      with_custom_attributes: 'true',
    });
    expect(owner.body.custom_attributes).toBeUndefined();
    expect(
      (await get<GroupDetails>('admin', `/groups/${enc(namespace)}`)).body.custom_attributes,
    ).toBeUndefined();
  });

  it('carries the deprecated projects and shared_projects unless with_projects=false', async () => {
    const details = await get<GroupDetails>('owner', `/groups/${enc(hiddenGroup)}`);
    const projects = details.body.projects ?? [];
    expect(projects.map((project) => project.path_with_namespace)).toContain(sharedProject);
    for (const project of projects) expect(project.namespace?.id).toBe(details.body.id);
    expect(details.body.shared_projects).toEqual([]);
    const shared = await get<GroupDetails>('admin', `/groups/${sharedGroup.id}`);
    expect((shared.body.shared_projects ?? []).map((project) => project.path_with_namespace)).toContain(
      sharedProject,
    );
    for (const project of shared.body.shared_projects ?? [])
      expect(project.namespace?.id).not.toBe(sharedGroup.id);
    const without = await get<GroupDetails>('owner', `/groups/${enc(hiddenGroup)}`, {
      with_projects: 'false',
    });
    expect(without.body.projects).toBeUndefined();
    expect(without.body.shared_projects).toBeUndefined();
    expect(without.body.runners_token).toBe(details.body.runners_token);
    // An anonymous caller sees only the public projects of a public group.
    const anonymous = await get<GroupDetails>('anonymous', `/groups/${enc(namespace)}`);
    for (const project of anonymous.body.projects ?? []) expect(project.visibility).toBe('public');
    expect((await get('owner', `/groups/${enc(namespace)}`, 'with_projects=perhaps')).status).toBe(400);
  });

  it.runIf(againstLocalServer)(
    '(demo) lets a member of a subgroup read the private parent group and its badges',
    async () => {
      const labs = await get<GroupDetails>('outsider', '/groups/labs');
      expect(labs.status).toBe(200);
      expect(labs.body.runners_token).toBeUndefined();
      expect((await get('guest', '/groups/labs')).status).toBe(404);
      // The operations on a group's objects (badges here) resolve the group by the same rule.
      expect((await get('outsider', '/groups/labs/badges')).status).toBe(200);
      expect((await get('guest', '/groups/labs/badges')).status).toBe(404);
      const ops = await get<GroupDetails>('guest', `/groups/${enc('acme/platform/ops')}`);
      expect(ops.body.full_name).toBe('Acme / Platform / Ops');
    },
  );
});

/** Every project of a project list. */
const projects = (caller: Caller, path: string, query: Record<string, string> = {}): Promise<Project[]> =>
  allOf<Project>(caller, path, query);
const names = (list: Project[]) => list.map((project) => project.path_with_namespace);

/**
 * The paths of `list` that the config names. A shared server holds other projects too (other files import
 * theirs into the namespace, with members of their own), so exact lists compare the configured projects
 * there; on the file's own server they compare everything.
 */
const configured = (list: Project[]): string[] =>
  names(list).filter(
    (path) =>
      againstLocalServer || [publicProject, privateProject, internalProject, sharedProject].includes(path),
  );

describe('GET /groups/:id/projects', () => {
  const own = () => `/groups/${enc(namespace)}/projects`;

  it('lists the projects of the group each role may see', async () => {
    for (const role of [...MEMBERS, 'admin'] as const) {
      const seen = names(await projects(role, own()));
      for (const project of [publicProject, privateProject, internalProject])
        expect(seen, role).toContain(project);
      expect(seen, role).not.toContain(sharedProject);
    }
    const outsider = names(await projects('outsider', own()));
    expect(outsider).toContain(publicProject);
    expect(outsider).toContain(internalProject);
    expect(outsider).not.toContain(privateProject);
    const anonymous = await projects('anonymous', own());
    expect(configured(anonymous)).toEqual([publicProject]);
    // Anonymous callers get the summary form: no namespace, no visibility.
    for (const project of anonymous) {
      expect(project).not.toHaveProperty('namespace');
      expect(project).not.toHaveProperty('visibility');
    }
  });

  it('shows each project in the full form with its own namespace', async () => {
    const group = (await get<GroupDetails>('owner', `/groups/${enc(namespace)}`)).body;
    for (const project of await projects('owner', own())) {
      const full = project as ProjectFull;
      expect(full.namespace?.id).toBe(group.id);
      expect(full.visibility).toBeDefined();
    }
  });

  it("includes the subgroups' projects with include_subgroups, for those who see them", async () => {
    expect(names(await projects('owner', own(), { include_subgroups: 'true' }))).toContain(sharedProject);
    expect(names(await projects('owner', own(), { include_subgroups: 'false' }))).not.toContain(
      sharedProject,
    );
    // Those who cannot see the subgroup's project do not get it (the outsider may, through a share).
    expect(names(await projects('anonymous', own(), { include_subgroups: 'true' }))).not.toContain(
      sharedProject,
    );
    expect(names(await projects('guest', own(), { include_subgroups: 'true' }))).toContain(sharedProject);
  });

  it('includes the projects shared with the group unless with_shared=false; they keep their namespace', async () => {
    const path = `/groups/${sharedGroup.id}/projects`;
    const shared = await projects('admin', path);
    expect(names(shared)).toContain(sharedProject);
    const project = shared.find((item) => item.path_with_namespace === sharedProject) as
      | ProjectFull
      | undefined;
    expect(project?.namespace?.id).not.toBe(sharedGroup.id);
    expect(project?.namespace?.full_path).toBe(sharedProject.slice(0, sharedProject.lastIndexOf('/')));
    expect(names(await projects('admin', path, { with_shared: 'false' }))).not.toContain(sharedProject);
  });

  it('answers 404 for a group the caller may not see, 401 for a bad token, 403 for a token without API scope', async () => {
    for (const caller of ['anonymous', 'outsider'] as const)
      expect((await get(caller, `/groups/${enc(hiddenGroup)}/projects`)).status, caller).toBe(404);
    expect((await get('maintainer', `/groups/${sharedGroup.id}/projects`)).status).toBe(404);
    expect((await get('owner', `/groups/${enc(`no-such-group-${RUN}`)}/projects`)).status).toBe(404);
    expect((await get('invalid', own())).status).toBe(401);
    expect((await get('revoked', own())).status).toBe(401);
    expect((await get('developerReadRepository', own())).status).toBe(403);
  });

  it('orders, sorts, searches, pages and filters by visibility', async () => {
    const byDefault = await projects('owner', own());
    const created = byDefault.map((project) => project.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const byName = await projects('owner', own(), { order_by: 'name', sort: 'asc' });
    expect(byName.map((p) => p.name)).toEqual([...byName.map((p) => p.name)].sort());
    const byPathDesc = await projects('owner', own(), { order_by: 'path', sort: 'desc' });
    expect(byPathDesc.map((p) => p.path)).toEqual([...byPathDesc.map((p) => p.path)].sort().reverse());
    const byId = await projects('owner', own(), { order_by: 'id', sort: 'asc' });
    expect(byId.map((p) => p.id)).toEqual([...byId.map((p) => p.id)].sort((a, b) => a - b));
    const target = byDefault.find((project) => project.path_with_namespace === publicProject);
    if (!target) throw new Error('public project missing');
    expect(names(await projects('owner', own(), { search: target.name.toUpperCase() }))).toContain(
      publicProject,
    );
    expect(await projects('owner', own(), { search: `nothing-${RUN}` })).toEqual([]);
    expect(configured(await projects('owner', own(), { visibility: 'private' }))).toEqual([privateProject]);
    expect(configured(await projects('owner', own(), { visibility: 'internal' }))).toEqual([internalProject]);
    const page = await get<Project[]>('owner', own(), { per_page: '1', page: '2' });
    expect(page.body.map((p) => p.id)).toEqual([byDefault[1]?.id]);
    expect(page.headers.get('X-Total')).toBe(String(byDefault.length));
    expect(page.headers.get('X-Page')).toBe('2');
    expect(page.headers.get('X-Prev-Page')).toBe('1');
  });

  it('gives the summary form with simple=true', async () => {
    for (const project of await projects('owner', own(), { simple: 'true' })) {
      expect(project).not.toHaveProperty('namespace');
      expect(project.path_with_namespace).toBeDefined();
    }
  });

  it('filters by owned, starred, min_access_level and enabled features', async () => {
    expect(names(await projects('owner', own(), { owned: 'true' }))).toContain(privateProject);
    expect(configured(await projects('maintainer', own(), { owned: 'true' }))).toEqual([]);
    expect(await projects('anonymous', own(), { owned: 'true' })).toEqual([]);
    expect(names(await projects('developer', own(), { min_access_level: '30' }))).toContain(privateProject);
    expect(configured(await projects('guest', own(), { min_access_level: '20' }))).toEqual([]);
    expect(configured(await projects('outsider', own(), { min_access_level: '10' }))).toEqual([]);
    // The features filters keep exactly the projects whose feature is on.
    const every = await projects('owner', own());
    const on = (key: 'issues_enabled' | 'merge_requests_enabled') =>
      names(every.filter((project) => (project as Partial<ProjectFull>)[key] === true));
    expect(names(await projects('owner', own(), { with_issues_enabled: 'true' }))).toEqual(
      on('issues_enabled'),
    );
    expect(names(await projects('owner', own(), { with_merge_requests_enabled: 'true' }))).toEqual(
      on('merge_requests_enabled'),
    );
    const all = names(every);
    const starred = await projects('outsider', own(), { starred: 'true' });
    for (const project of starred) expect(all).toContain(project.path_with_namespace);
    expect(await projects('anonymous', own(), { starred: 'true' })).toEqual([]);
  });

  it('adds custom attributes for administrators only; with_security_reports finds no security reports', async () => {
    for (const project of await projects('admin', own(), { with_custom_attributes: 'true' }))
      expect(Array.isArray(project.custom_attributes)).toBe(true);
    for (const project of await projects('owner', own(), { with_custom_attributes: 'true' }))
      expect(project.custom_attributes).toBeUndefined();
    const reports = await get<Project[]>('owner', own(), { with_security_reports: 'true' });
    expect(reports.status).toBe(200);
    expect(reports.body).toEqual([]);
    expect(reports.headers.get('X-Total')).toBe('0');
  });

  it('refuses values outside the documented ones with 400', async () => {
    for (const query of [
      'order_by=size',
      'sort=sideways',
      'visibility=secret',
      'archived=maybe',
      'min_access_level=60',
      'include_subgroups=2x',
    ])
      expect((await get('owner', own(), query)).status, query).toBe(400);
  });

  it.runIf(againstLocalServer)('(demo) filters by archived status', async () => {
    const archive = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${enc(internalProject)}/archive`,
      { method: 'POST', headers: { 'PRIVATE-TOKEN': target.config.tokens.owner } },
    );
    expect(archive.status).toBe(201);
    try {
      expect(names(await projects('owner', own(), { archived: 'true' }))).toEqual([internalProject]);
      expect(names(await projects('owner', own(), { archived: 'false' }))).not.toContain(internalProject);
      expect(names(await projects('owner', own()))).toContain(internalProject);
    } finally {
      await target.fetch(`${target.config.baseUrl}/api/v4/projects/${enc(internalProject)}/unarchive`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.owner },
      });
    }
  });
});

describe('GET /groups/:id/projects/shared', () => {
  const shared = () => `/groups/${sharedGroup.id}/projects/shared`;

  it('lists the projects shared with the group, with their own namespace and the shared-list fields', async () => {
    const list = await projects('admin', shared());
    expect(names(list)).toContain(sharedProject);
    for (const project of list) {
      expect((project as ProjectFull).namespace?.id).not.toBe(sharedGroup.id);
      expect(project).toHaveProperty('empty_repo');
      expect(project).toHaveProperty('container_expiration_policy');
    }
    // The namespace's own projects are no shares of it.
    expect(await projects('owner', `/groups/${enc(namespace)}/projects/shared`)).toEqual([]);
  });

  it('answers 404 for a group the caller may not see, 401 for a bad token', async () => {
    expect((await get('maintainer', shared())).status).toBe(404);
    expect((await get('anonymous', shared())).status).toBe(404);
    expect((await get('invalid', shared())).status).toBe(401);
    expect((await get('developerReadRepository', shared())).status).toBe(403);
  });

  it('takes the list filters, and refuses those of the group projects only', async () => {
    expect(names(await projects('admin', shared(), { visibility: 'private' }))).toContain(sharedProject);
    expect(names(await projects('admin', shared(), { visibility: 'public' }))).not.toContain(sharedProject);
    const name = sharedProject.slice(sharedProject.lastIndexOf('/') + 1);
    expect(names(await projects('admin', shared(), { search: name }))).toContain(sharedProject);
    expect(
      names(await projects('admin', shared(), { simple: 'true', order_by: 'name', sort: 'asc' })),
    ).toContain(sharedProject);
    expect(configured(await projects('admin', shared(), { archived: 'true' }))).toEqual([]);
    // Parameters of the group projects list that this one does not declare are ignored, as GitLab ignores
    // undeclared parameters; a value outside a declared parameter's range is refused.
    const plain = await get('admin', shared());
    for (const query of [
      'owned=true',
      'with_shared=false',
      'include_subgroups=true',
      'with_security_reports=true',
    ]) {
      const answer = await get('admin', shared(), query);
      expect(answer.status, query).toBe(200);
      expect(answer.body, query).toEqual(plain.body);
    }
    expect((await get('admin', shared(), 'order_by=size')).status).toBe(400);
  });

  it.runIf(againstLocalServer)('(demo) shows a member of the group the projects shared with it', async () => {
    const list = await projects('outsider', '/groups/partners/projects/shared');
    expect(names(list)).toEqual(['acme/platform/infra']);
    expect(
      await projects('outsider', '/groups/partners/projects/shared', { min_access_level: '30' }),
    ).toEqual([]);
    expect(
      names(await projects('outsider', '/groups/partners/projects/shared', { min_access_level: '20' })),
    ).toEqual(['acme/platform/infra']);
  });
});

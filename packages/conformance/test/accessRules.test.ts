// The rules GitLab applies to memberships (issue 27's review): a membership whose last day (`expires_at`) has
// begun grants nothing and is listed nowhere (GitLab's Expirable and `Member.non_expired`; the membership
// ends when its date begins, UTC); the Member entity names who made the membership (`created_by`, absent
// when nobody did) and when (`created_at`).
//
// The file works in groups it creates (named with the run's suffix) as the config's `groupCreation.allowed`
// role and deletes them again: it tolerates a shared server. Without `groupCreation`, its tests are skipped.
import type { components } from '@collab/client';
import { describe, expect, it } from 'vitest';
import type { UserRole } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { madeGroups } from './madeGroups.js';

type Member = components['schemas']['Member'];

const groups = madeGroups();
const { call, fresh, idOf } = groups;
/** Today's date (UTC), the day a membership given it as its last day ends. */
const today = () => new Date().toISOString().slice(0, 10);

/** A new private group of the creator with a project in it. */
async function newGroup(settings: Record<string, unknown> = {}): Promise<{ group: number; project: number }> {
  const path = fresh('rules');
  const group = await call<{ id: number }>(groups.creator, 'POST', '/groups', {
    name: path,
    path,
    ...settings,
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  groups.remember(group.body.id);
  const project = await call<{ id: number }>(groups.creator, 'POST', '/projects', {
    name: 'Work',
    namespace_id: group.body.id,
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  return { group: group.body.id, project: project.body.id };
}

const add = (
  caller: Caller,
  base: string,
  role: UserRole,
  level: number,
  extra: Record<string, unknown> = {},
) => call<Member>(caller, 'POST', `${base}/members`, { user_id: idOf(role), access_level: level, ...extra });

const listedIds = async (path: string): Promise<number[]> => {
  const answer = await call<Member[]>(groups.creator, 'GET', path);
  expect(answer.status, path).toBe(200);
  return answer.body.map((member) => member.id);
};

describe('an expired membership', () => {
  it('grants no access to the group, its projects or the project, and is listed nowhere', async (context) => {
    if (groups.skipped) context.skip();
    const { group, project } = await newGroup();
    const added = await add(groups.creator, `/groups/${group}`, 'developer', 30, { expires_at: today() });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.expires_at).toBe(today());
    const viaProject = await add(groups.creator, `/projects/${project}`, 'guest', 10, {
      expires_at: today(),
    });
    expect(viaProject.status).toBe(201);
    // The control: a membership that ends tomorrow still counts.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(
      (await add(groups.creator, `/groups/${group}`, 'reporter', 20, { expires_at: tomorrow })).status,
    ).toBe(201);

    expect((await call('developer', 'GET', `/groups/${group}`)).status).toBe(404);
    expect((await call('developer', 'GET', `/projects/${project}`)).status).toBe(404);
    expect((await call('guest', 'GET', `/projects/${project}`)).status).toBe(404);
    expect((await call('reporter', 'GET', `/groups/${group}`)).status).toBe(200);
    expect((await call('reporter', 'GET', `/projects/${project}`)).status).toBe(200);
    // Not among the groups the user is a member of either.
    const mine = await callAs<{ id: number }[]>(groups.target, 'developer', '/groups', {
      query: { per_page: '100' },
    });
    expect(mine.body.map((g) => g.id)).not.toContain(group);

    for (const path of [`/groups/${group}/members`, `/groups/${group}/members/all`]) {
      const ids = await listedIds(path);
      expect(ids, path).not.toContain(idOf('developer'));
      expect(ids, path).toContain(idOf('reporter'));
    }
    for (const path of [`/projects/${project}/members`, `/projects/${project}/members/all`])
      expect(await listedIds(path), path).not.toContain(idOf('guest'));
    expect(await listedIds(`/projects/${project}/members/all`)).not.toContain(idOf('developer'));
    for (const path of [
      `/groups/${group}/members/${idOf('developer')}`,
      `/groups/${group}/members/all/${idOf('developer')}`,
      `/projects/${project}/members/${idOf('guest')}`,
    ])
      expect((await call(groups.creator, 'GET', path)).status, path).toBe(404);
  });

  it('gives way to a new membership of the user, which grants access again', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newGroup();
    const base = `/groups/${group}`;
    expect((await add(groups.creator, base, 'developer', 30, { expires_at: today() })).status).toBe(201);
    expect((await call('developer', 'GET', base)).status).toBe(404);
    const again = await add(groups.creator, base, 'developer', 20);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ access_level: 20, expires_at: null });
    expect((await call('developer', 'GET', base)).status).toBe(200);
  });

  it('counts no more as an owner: a group whose other owner expired keeps its last owner', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newGroup();
    const base = `/groups/${group}`;
    expect((await add(groups.creator, base, 'maintainer', 50, { expires_at: today() })).status).toBe(201);
    // The maintainer's ownership has ended, so the creator is still the last owner.
    expect((await call(groups.creator, 'DELETE', `${base}/members/${idOf(groups.creator)}`)).status).toBe(
      403,
    );
    expect((await add('maintainer', base, 'guest', 10)).status).toBe(404);
  });
});

describe('an expired share', () => {
  it("gives the group's members nothing on its last day, as an expired membership (UTC)", async (context) => {
    if (groups.skipped) context.skip();
    const namespace = groups.target.config.fixtures.namespace;
    const shared = await call<{ id: number }>(
      groups.creator,
      'GET',
      `/groups/${encodeURIComponent(namespace)}`,
    );
    expect(shared.status).toBe(200);
    // Two private projects shared with the fixtures' group (the developer is a developer there): one share
    // ends today, the control ends tomorrow.
    const { project: endsToday } = await newGroup();
    const { project: endsTomorrow } = await newGroup();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const [project, expires] of [
      [endsToday, today()],
      [endsTomorrow, tomorrow],
    ] as const) {
      const link = await call(groups.creator, 'POST', `/projects/${project}/share`, {
        group_id: shared.body.id,
        group_access: 30,
        expires_at: expires,
      });
      expect(link.status, JSON.stringify(link.body)).toBe(201);
    }

    expect((await call('developer', 'GET', `/projects/${endsToday}`)).status).toBe(404);
    expect((await call('developer', 'GET', `/projects/${endsToday}/repository/branches`)).status).toBe(404);
    expect((await call('developer', 'GET', `/projects/${endsTomorrow}`)).status).toBe(200);
    const listed = async (path: string, query: Record<string, string>) => {
      const answer = await callAs<{ id: number }[]>(groups.target, 'developer', path, { query });
      expect(answer.status, path).toBe(200);
      return answer.body.map((project) => project.id);
    };
    for (const [path, query] of [
      ['/projects', { membership: 'true', per_page: '100', order_by: 'id' }],
      ['/projects', { min_access_level: '30', per_page: '100', order_by: 'id' }],
      [`/groups/${shared.body.id}/projects/shared`, { per_page: '100', order_by: 'id' }],
    ] as const) {
      const ids = await listed(path, query);
      expect(ids, path).toContain(endsTomorrow);
      expect(ids, path).not.toContain(endsToday);
    }
    const inherited = await call<Member[]>(groups.creator, 'GET', `/projects/${endsToday}/members/all`);
    expect(inherited.body.map((member) => member.id)).not.toContain(idOf('developer'));
    const control = await call<Member[]>(groups.creator, 'GET', `/projects/${endsTomorrow}/members/all`);
    expect(control.body.map((member) => member.id)).toContain(idOf('developer'));
  });
});

describe('the Member entity', () => {
  it('names who added the member (created_by) and when (created_at)', async (context) => {
    if (groups.skipped) context.skip();
    const { group, project } = await newGroup();
    const before = Date.now() - 60_000;
    const added = await add(groups.creator, `/groups/${group}`, 'developer', 30);
    expect(added.status).toBe(201);
    const maker = groups.target.config.fixtures.users[groups.creator];
    expect(added.body.created_by).toMatchObject({ id: maker.id, username: maker.username, name: maker.name });
    expect(Date.parse(added.body.created_at)).toBeGreaterThanOrEqual(before);
    const byAdmin = await add('admin', `/projects/${project}`, 'guest', 10);
    expect(byAdmin.body.created_by?.id).toBe(idOf('admin'));
    for (const path of [
      `/groups/${group}/members`,
      `/groups/${group}/members/all`,
      `/projects/${project}/members/all`,
    ]) {
      const list = await call<Member[]>(groups.creator, 'GET', path);
      const developer = list.body.find((member) => member.id === idOf('developer'));
      expect(developer?.created_by?.id, path).toBe(maker.id);
    }
    const single = await call<Member>(groups.creator, 'GET', `/projects/${project}/members/${idOf('guest')}`);
    expect(single.body.created_by?.id).toBe(idOf('admin'));
    // The creator's own ownership was made with the group, by the creator.
    const own = await call<Member>(groups.creator, 'GET', `/groups/${group}/members/${idOf(groups.creator)}`);
    expect(own.body.access_level).toBe(50);
  });

  it('leaves created_by out of a membership nobody made through the API (the fixtures)', async () => {
    const namespace = encodeURIComponent(groups.target.config.fixtures.namespace);
    const list = await call<Member[]>('owner', 'GET', `/groups/${namespace}/members`);
    expect(list.status).toBe(200);
    const owner = list.body.find((member) => member.id === idOf('owner'));
    expect(owner).toBeDefined();
    expect(owner && 'created_by' in owner).toBe(false);
  });
});

describe('group settings that decide who may do what', () => {
  it('project_creation_level: developers by default, maintainers when `maintainer`, nobody when `noone`', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newGroup();
    const base = `/groups/${group}`;
    expect((await add(groups.creator, base, 'developer', 30)).status).toBe(201);
    expect((await add(groups.creator, base, 'maintainer', 40)).status).toBe(201);
    expect((await add(groups.creator, base, 'reporter', 20)).status).toBe(201);
    const create = (caller: Caller) =>
      call<{ id: number }>(caller, 'POST', '/projects', { name: fresh(`by-${caller}`), namespace_id: group });
    const settings = await call<{ project_creation_level: string }>(groups.creator, 'GET', base);
    expect(settings.body.project_creation_level).toBe('developer');
    expect((await create('developer')).status).toBe(201);
    expect((await create('reporter')).status).toBe(403);

    expect((await call(groups.creator, 'PUT', base, { project_creation_level: 'maintainer' })).status).toBe(
      200,
    );
    const refused = await create('developer');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: '403 Forbidden - You are not allowed to create projects in this namespace',
    });
    expect((await create('maintainer')).status).toBe(201);
    expect((await create(groups.creator)).status).toBe(201);

    expect((await call(groups.creator, 'PUT', base, { project_creation_level: 'noone' })).status).toBe(200);
    for (const caller of ['maintainer', groups.creator, 'admin'] as const)
      expect((await create(caller)).status, caller).toBe(403);
    // The import path follows the same rule.
    const form = new FormData();
    form.set('path', fresh('imported'));
    form.set('namespace', String(group));
    form.set('file', new Blob([new Uint8Array([0x1f, 0x8b])]), 'export.tar.gz');
    const imported = await callAs(groups.target, groups.creator, '/projects/import', {
      method: 'POST',
      multipart: form,
    });
    expect(imported.status).toBe(403);
  });

  it('subgroup_creation_level: owners always, maintainers only when `maintainer`', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newGroup();
    const base = `/groups/${group}`;
    expect((await add(groups.creator, base, 'maintainer', 40)).status).toBe(201);
    expect((await add(groups.creator, base, 'developer', 30)).status).toBe(201);
    const subgroup = (caller: Caller) => {
      const path = fresh('sub');
      return call(caller, 'POST', '/groups', { name: path, path, parent_id: group });
    };
    expect((await subgroup('maintainer')).status).toBe(201);
    expect((await subgroup('developer')).status).toBe(403);
    expect((await call(groups.creator, 'PUT', base, { subgroup_creation_level: 'owner' })).status).toBe(200);
    expect((await subgroup('maintainer')).status).toBe(403);
    expect((await subgroup(groups.creator)).status).toBe(201);
  });

  it('request_access_enabled: off refuses access requests to the group or project (403), on takes them', async (context) => {
    if (groups.skipped) context.skip();
    const { group, project } = await newGroup({ visibility: 'public', request_access_enabled: false });
    expect((await call(groups.creator, 'PUT', `/projects/${project}`, { visibility: 'public' })).status).toBe(
      200,
    );
    expect(
      (await call(groups.creator, 'PUT', `/projects/${project}`, { request_access_enabled: false })).status,
    ).toBe(200);
    for (const base of [`/groups/${group}`, `/projects/${project}`]) {
      const refused = await call('outsider', 'POST', `${base}/access_requests`);
      expect(refused.status, base).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden' });
      const pending = await call<unknown[]>(groups.creator, 'GET', `${base}/access_requests`);
      expect(pending.body, base).toEqual([]);
    }
    expect(
      (await call(groups.creator, 'PUT', `/groups/${group}`, { request_access_enabled: true })).status,
    ).toBe(200);
    expect(
      (await call(groups.creator, 'PUT', `/projects/${project}`, { request_access_enabled: true })).status,
    ).toBe(200);
    // The project first: a member of the group would have access to the project already (400).
    for (const base of [`/projects/${project}`, `/groups/${group}`]) {
      expect((await call('outsider', 'POST', `${base}/access_requests`)).status, base).toBe(201);
      // The approver is the member's maker.
      const approved = await call(
        groups.creator,
        'PUT',
        `${base}/access_requests/${idOf('outsider')}/approve`,
      );
      expect(approved.status, base).toBe(200);
      const member = await call<Member>(groups.creator, 'GET', `${base}/members/${idOf('outsider')}`);
      expect(member.body.created_by?.id, base).toBe(idOf(groups.creator));
    }
  });
});

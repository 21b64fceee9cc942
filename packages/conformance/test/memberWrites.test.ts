// Members added, changed and removed through the API (issue 27, point 4; GitLab v4's lib/api/members.rb with
// the member services and policies): a group's owners manage its members, a project's maintainers and owners
// manage the project's; no level above the caller's own; the last owner of a group stays, and so does the
// holder of a personal project; 409 `Member already exists`; a member may leave; removing a group member
// takes their memberships of the subgroups and projects unless `skip_subresources`; the role matrix of each.
//
// The file works in a group it creates (named with the run's suffix) as the config's `groupCreation.allowed`
// role, with a subgroup and a project of its own, and deletes it again: it tolerates a shared server. Without
// `groupCreation` in the config, the tests that need it are skipped.
import type { components } from '@collab/client';
import { describe, expect, it } from 'vitest';
import type { UserRole } from '../src/index.js';
import type { Caller } from './callAs.js';
import { madeGroups } from './madeGroups.js';

type Member = components['schemas']['Member'];

const groups = madeGroups();
const { call, fresh, idOf } = groups;

/** A new private group of the groups.creator, with a subgroup and a project in the group. */
async function newSetting(): Promise<{ group: number; subgroup: number; project: number }> {
  const path = fresh('members');
  const group = await call<{ id: number }>(groups.creator, 'POST', '/groups', { name: path, path });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  groups.remember(group.body.id);
  const subgroup = await call<{ id: number }>(groups.creator, 'POST', '/groups', {
    name: 'Sub',
    path: 'sub',
    parent_id: group.body.id,
  });
  const project = await call<{ id: number }>(groups.creator, 'POST', '/projects', {
    name: 'Work',
    namespace_id: group.body.id,
  });
  expect([subgroup.status, project.status]).toEqual([201, 201]);
  return { group: group.body.id, subgroup: subgroup.body.id, project: project.body.id };
}

const add = (
  caller: Caller,
  base: string,
  role: UserRole,
  level: number,
  extra: Record<string, unknown> = {},
) => call<Member>(caller, 'POST', `${base}/members`, { user_id: idOf(role), access_level: level, ...extra });

describe('group members', () => {
  it('are added by the owners, with their level and last day, and answered as the Member entity', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newSetting();
    const base = `/groups/${group}`;
    const added = await add(groups.creator, base, 'developer', 30, { expires_at: '2099-12-31' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({
      id: idOf('developer'),
      username: groups.target.config.fixtures.users.developer.username,
      access_level: 30,
      expires_at: '2099-12-31',
      membership_state: 'active',
    });
    const read = await call<Member>(groups.creator, 'GET', `${base}/members/${idOf('developer')}`);
    expect(read.body).toMatchObject({ access_level: 30, expires_at: '2099-12-31' });
    // By username, as gitbeaker and GitLab 16+ allow.
    const byName = await call<Member>(groups.creator, 'POST', `${base}/members`, {
      username: groups.target.config.fixtures.users.reporter.username,
      access_level: 20,
    });
    expect(byName.status).toBe(201);
    expect(byName.body.id).toBe(idOf('reporter'));

    expect((await add(groups.creator, base, 'developer', 40)).status).toBe(409);
    expect((await add(groups.creator, base, 'developer', 40)).body).toEqual({
      message: 'Member already exists',
    });
    const nobody = await call(groups.creator, 'POST', `${base}/members`, {
      user_id: 999999999,
      access_level: 30,
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ message: '404 User Not Found' });
    const past = await add(groups.creator, base, 'guest', 10, { expires_at: '2000-01-01' });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    for (const body of [
      { user_id: idOf('guest') },
      { user_id: idOf('guest'), access_level: 60 },
      { access_level: 10 },
      { user_id: idOf('guest'), username: 'guest', access_level: 10 },
    ])
      expect((await call(groups.creator, 'POST', `${base}/members`, body)).status, JSON.stringify(body)).toBe(
        400,
      );
  });

  it('are managed by owners only: 403 for members below, 404 for outsiders, 401 without a token', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newSetting();
    const base = `/groups/${group}`;
    expect((await add(groups.creator, base, 'maintainer', 40)).status).toBe(201);
    expect((await add(groups.creator, base, 'developer', 30)).status).toBe(201);
    expect((await add('maintainer', base, 'guest', 10)).status).toBe(403);
    expect((await add('developer', base, 'guest', 10)).status).toBe(403);
    expect((await add('outsider', base, 'guest', 10)).status).toBe(404);
    expect((await add('anonymous', base, 'guest', 10)).status).toBe(401);
    expect((await add('developerReadRepository', base, 'guest', 10)).status).toBe(403);
    expect((await add('admin', base, 'guest', 10)).status).toBe(201);
    const edit = (caller: Caller) =>
      call(caller, 'PUT', `${base}/members/${idOf('developer')}`, { access_level: 20 });
    expect((await edit('maintainer')).status).toBe(403);
    expect((await edit('outsider')).status).toBe(404);
    expect((await edit(groups.creator)).status).toBe(200);
    expect(
      (await call(groups.creator, 'PUT', `${base}/members/${idOf('outsider')}`, { access_level: 20 })).status,
    ).toBe(404);
    const remove = (caller: Caller) => call(caller, 'DELETE', `${base}/members/${idOf('guest')}`);
    expect((await remove('maintainer')).status).toBe(403);
    expect((await remove('developer')).status).toBe(403);
    expect((await remove('outsider')).status).toBe(404);
    expect((await remove(groups.creator)).status).toBe(204);
    expect((await remove(groups.creator)).status).toBe(404);
  });

  it('keep their last owner: demoting or removing them is refused until another owner is there', async (context) => {
    if (groups.skipped) context.skip();
    const { group } = await newSetting();
    const base = `/groups/${group}`;
    const me = idOf(groups.creator);
    expect((await call(groups.creator, 'PUT', `${base}/members/${me}`, { access_level: 40 })).status).toBe(
      403,
    );
    expect((await call(groups.creator, 'DELETE', `${base}/members/${me}`)).status).toBe(403);
    expect((await call('admin', 'DELETE', `${base}/members/${me}`)).status).toBe(403);
    expect((await add(groups.creator, base, 'maintainer', 50)).status).toBe(201);
    expect((await call(groups.creator, 'PUT', `${base}/members/${me}`, { access_level: 40 })).status).toBe(
      200,
    );
    // Now the maintainer (an owner here) is the last owner.
    expect((await call('maintainer', 'DELETE', `${base}/members/${idOf('maintainer')}`)).status).toBe(403);
  });

  it('may leave; a removal takes the memberships of subgroups and projects unless skip_subresources', async (context) => {
    if (groups.skipped) context.skip();
    const { group, subgroup, project } = await newSetting();
    for (const base of [`/groups/${group}`, `/groups/${subgroup}`, `/projects/${project}`])
      expect((await add(groups.creator, base, 'developer', 30)).status, base).toBe(201);
    expect(
      (
        await call(
          groups.creator,
          'DELETE',
          `/groups/${group}/members/${idOf('developer')}?skip_subresources=true`,
        )
      ).status,
    ).toBe(204);
    expect(
      (await call(groups.creator, 'GET', `/groups/${subgroup}/members/${idOf('developer')}`)).status,
    ).toBe(200);
    expect((await add(groups.creator, `/groups/${group}`, 'developer', 30)).status).toBe(201);
    // Leaving needs no right to manage members; it takes the subresources' memberships too.
    expect((await call('developer', 'DELETE', `/groups/${group}/members/${idOf('developer')}`)).status).toBe(
      204,
    );
    for (const path of [
      `/groups/${group}/members/${idOf('developer')}`,
      `/groups/${subgroup}/members/${idOf('developer')}`,
      `/projects/${project}/members/${idOf('developer')}`,
    ])
      expect((await call(groups.creator, 'GET', path)).status, path).toBe(404);
  });
});

describe('project members', () => {
  it('are managed by maintainers, never above their own level; the owner level by owners', async (context) => {
    if (groups.skipped) context.skip();
    const { group, project } = await newSetting();
    const base = `/projects/${project}`;
    // The maintainer maintains the project through the group.
    expect((await add(groups.creator, `/groups/${group}`, 'maintainer', 40)).status).toBe(201);
    expect((await add(groups.creator, `/groups/${group}`, 'reporter', 20)).status).toBe(201);
    const added = await add('maintainer', base, 'developer', 30);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ id: idOf('developer'), access_level: 30, expires_at: null });
    expect((await add('maintainer', base, 'guest', 50)).status).toBe(403);
    expect((await add('reporter', base, 'guest', 10)).status).toBe(403);
    expect((await add('developer', base, 'guest', 10)).status).toBe(403);
    expect((await add('outsider', base, 'guest', 10)).status).toBe(404);
    expect((await add('anonymous', base, 'guest', 10)).status).toBe(401);
    expect((await add(groups.creator, base, 'guest', 50)).status).toBe(201);
    expect((await add('maintainer', base, 'developer', 30)).status).toBe(409);

    // Promoting to owner, changing or removing an owner: owners only.
    expect(
      (await call('maintainer', 'PUT', `${base}/members/${idOf('developer')}`, { access_level: 50 })).status,
    ).toBe(403);
    expect(
      (await call('maintainer', 'PUT', `${base}/members/${idOf('guest')}`, { access_level: 10 })).status,
    ).toBe(403);
    expect((await call('maintainer', 'DELETE', `${base}/members/${idOf('guest')}`)).status).toBe(403);
    const promoted = await call<Member>('maintainer', 'PUT', `${base}/members/${idOf('developer')}`, {
      access_level: 40,
      expires_at: '2099-01-01',
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ access_level: 40, expires_at: '2099-01-01' });
    expect(
      (await call(groups.creator, 'PUT', `${base}/members/${idOf('guest')}`, { access_level: 10 })).status,
    ).toBe(200);
    expect((await call('maintainer', 'DELETE', `${base}/members/${idOf('guest')}`)).status).toBe(204);
    const left = await call<Member[]>(groups.creator, 'GET', `${base}/members`);
    expect(left.body.map((member) => member.id)).not.toContain(idOf('guest'));
  });

  it("keep a personal project's owner, even against an administrator", async (context) => {
    if (groups.skipped) context.skip();
    const personal = await call<{ id: number }>(groups.creator, 'POST', '/projects', {
      name: fresh('personal'),
    });
    expect(personal.status).toBe(201);
    const base = `/projects/${personal.body.id}`;
    const me = idOf(groups.creator);
    expect((await call(groups.creator, 'GET', `${base}/members/${me}`)).status).toBe(200);
    expect((await call('admin', 'DELETE', `${base}/members/${me}`)).status).toBe(403);
    expect((await call('admin', 'PUT', `${base}/members/${me}`, { access_level: 40 })).status).toBe(403);
    expect((await call(groups.creator, 'DELETE', `${base}/members/${me}`)).status).toBe(403);
    await call(groups.creator, 'DELETE', base);
  });
});

// Groups made, changed and deleted through the API (issue 27, point 1; GitLab v4's POST, PUT and DELETE
// /groups): who may create top-level groups (`can_create_group`) and subgroups (the parent's owners, its
// maintainers when its `subgroup_creation_level` is `maintainer`), the settings of the group form, the avatar
// by multipart, path and visibility rules with GitLab's messages, and a deletion that takes the group's
// subgroups, projects, epics, labels and badges with it, so that nothing of it is served afterwards.
//
// The file works in groups it creates (named with the run's suffix) as the config's `groupCreation.allowed`
// role, with members it adds itself, and deletes them again: it tolerates a shared server. Without
// `groupCreation` in the config, it is skipped.
import type { components } from '@collab/client';
import { describe, expect, it } from 'vitest';
import type { UserRole } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { madeGroups } from './madeGroups.js';

type GroupDetails = components['schemas']['GroupDetails'];
type Member = components['schemas']['Member'];

const groups = madeGroups();
const { call, fresh } = groups;
const enc = encodeURIComponent;

/** Creates a top-level group as the creator role; the test fails unless it is made. */
async function newGroup(settings: Record<string, unknown> = {}): Promise<GroupDetails> {
  const path = fresh('grp');
  const answer = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
    name: `Group ${path}`,
    path,
    ...settings,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  groups.remember(answer.body.id);
  return answer.body;
}

async function addMember(group: number, role: UserRole, level: number): Promise<void> {
  const answer = await call(groups.creator, 'POST', `/groups/${group}/members`, {
    user_id: groups.idOf(role),
    access_level: level,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

describe('POST /groups', () => {
  it('creates a top-level group with the settings given, and makes the creator its owner', async (context) => {
    if (groups.skipped) context.skip();
    const path = fresh('top');
    const answer = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: `Top (${path})`,
      path,
      description: 'Made by the conformance suite.',
      visibility: 'internal',
      share_with_group_lock: true,
      require_two_factor_authentication: true,
      two_factor_grace_period: 12,
      project_creation_level: 'maintainer',
      auto_devops_enabled: false,
      subgroup_creation_level: 'owner',
      emails_disabled: true,
      mentions_disabled: true,
      lfs_enabled: false,
      request_access_enabled: false,
      default_branch_protection: 3,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    groups.remember(answer.body.id);
    expect(answer.body).toMatchObject({
      name: `Top (${path})`,
      path,
      full_path: path,
      full_name: `Top (${path})`,
      parent_id: null,
      description: 'Made by the conformance suite.',
      visibility: 'internal',
      share_with_group_lock: true,
      require_two_factor_authentication: true,
      two_factor_grace_period: 12,
      project_creation_level: 'maintainer',
      auto_devops_enabled: false,
      subgroup_creation_level: 'owner',
      emails_disabled: true,
      mentions_disabled: true,
      lfs_enabled: false,
      request_access_enabled: false,
      default_branch_protection: 3,
      avatar_url: null,
      projects: [],
      shared_projects: [],
    });
    // The owner reads its runners token; the settings are stored, not only echoed.
    expect(answer.body.runners_token).toEqual(expect.any(String));
    const read = await call<GroupDetails>(groups.creator, 'GET', `/groups/${enc(path)}`);
    expect(read.body).toMatchObject({
      id: answer.body.id,
      project_creation_level: 'maintainer',
      lfs_enabled: false,
    });
    const members = await call<Member[]>(groups.creator, 'GET', `/groups/${answer.body.id}/members`);
    expect(members.body.map((m) => [m.id, m.access_level])).toEqual([
      [groups.target.config.fixtures.users[groups.creator].id, 50],
    ]);
  });

  it("gives GitLab's defaults to the settings not given (private, developer, maintainer …)", async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    expect(group).toMatchObject({
      visibility: 'private',
      description: '',
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      auto_devops_enabled: null,
      subgroup_creation_level: 'maintainer',
      emails_disabled: null,
      mentions_disabled: null,
      lfs_enabled: true,
      request_access_enabled: true,
      default_branch_protection: 2,
    });
  });

  it('refuses top-level groups to a user who may not create groups (403), and asks for a token (401)', async (context) => {
    if (groups.skipped) context.skip();
    const body = { name: 'Never', path: fresh('never') };
    expect((await call(groups.nonCreator, 'POST', '/groups', body)).status).toBe(403);
    expect((await call('anonymous', 'POST', '/groups', body)).status).toBe(401);
    expect((await call('invalid', 'POST', '/groups', body)).status).toBe(401);
    // A read_repository token may not write through the API.
    expect((await call('developerReadRepository', 'POST', '/groups', body)).status).toBe(403);
    expect((await call('admin', 'GET', `/groups/${enc(body.path)}`)).status).toBe(404);
  });

  it("answers a taken or reserved path with GitLab's message, and a bad path or name with 400", async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    const taken = await call<{ message: string }>(groups.creator, 'POST', '/groups', {
      name: 'Again',
      path: group.path.toUpperCase(),
    });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('Failed to save group {:path=>["has already been taken"]}');
    // A user's personal namespace takes its path at the top too.
    const user = await call<{ message: string }>(groups.creator, 'POST', '/groups', {
      name: 'User',
      path: groups.target.config.fixtures.users.developer.username,
    });
    expect(user.status).toBe(400);
    const reserved = await call<{ message: string }>(groups.creator, 'POST', '/groups', {
      name: 'Api',
      path: 'api',
    });
    expect(reserved.status).toBe(400);
    expect(reserved.body.message).toBe('Failed to save group {:path=>["api is a reserved name"]}');
    for (const path of ['-dash', 'dot.', 'x.git', 'a/b', '']) {
      const answer = await call(groups.creator, 'POST', '/groups', { name: 'Bad', path });
      expect(answer.status, path).toBe(400);
    }
    for (const name of ['-x', '', 'a\u0000b']) {
      const answer = await call(groups.creator, 'POST', '/groups', { name, path: fresh('name') });
      expect(answer.status, JSON.stringify(name)).toBe(400);
    }
    expect((await call(groups.creator, 'POST', '/groups', { name: 'No path' })).status).toBe(400);
    expect(
      (await call(groups.creator, 'POST', '/groups', { name: 'x', path: fresh('v'), visibility: 'secret' }))
        .status,
    ).toBe(400);
  });
});

describe('subgroups', () => {
  it('are made by the owners, and the maintainers when subgroup_creation_level is maintainer', async (context) => {
    if (groups.skipped) context.skip();
    const parent = await newGroup();
    await addMember(parent.id, 'maintainer', 40);
    await addMember(parent.id, 'developer', 30);
    const sub = (caller: Caller) =>
      call<GroupDetails>(caller, 'POST', '/groups', {
        name: 'Sub',
        path: fresh('sub'),
        parent_id: parent.id,
      });

    const byOwner = await sub(groups.creator);
    expect(byOwner.status).toBe(201);
    expect(byOwner.body).toMatchObject({
      parent_id: parent.id,
      full_path: `${parent.full_path}/${byOwner.body.path}`,
      full_name: `${parent.name} / Sub`,
    });
    expect((await sub('maintainer')).status).toBe(201);
    expect((await sub('admin')).status).toBe(201);
    expect((await sub('developer')).status).toBe(403);
    // The parent is private: others do not see it at all.
    expect((await sub('outsider')).status).toBe(404);
    expect((await sub('anonymous')).status).toBe(401);
    expect(
      (await call(groups.creator, 'POST', '/groups', { name: 'S', path: fresh('s'), parent_id: 999999999 }))
        .status,
    ).toBe(404);

    // Only owners once the parent says so.
    const edited = await call(groups.creator, 'PUT', `/groups/${parent.id}`, {
      subgroup_creation_level: 'owner',
    });
    expect(edited.status).toBe(200);
    expect((await sub('maintainer')).status).toBe(403);
    expect((await sub(groups.creator)).status).toBe(201);

    const subgroups = await call<{ path: string }[]>(groups.creator, 'GET', `/groups/${parent.id}/subgroups`);
    expect(subgroups.body).toHaveLength(4);
  });

  it('may not be more visible than their parent', async (context) => {
    if (groups.skipped) context.skip();
    const parent = await newGroup({ visibility: 'internal' });
    const answer = await call<{ message: string }>(groups.creator, 'POST', '/groups', {
      name: 'Public',
      path: fresh('pub'),
      parent_id: parent.id,
      visibility: 'public',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a internal visibility."]}',
    );
    const sibling = await call<{ message: string }>(groups.creator, 'POST', '/groups', {
      name: 'Taken',
      path: parent.path,
      parent_id: parent.id,
    });
    // The parent's own path is free below it.
    expect(sibling.status).toBe(201);
  });
});

describe('PUT /groups/:id', () => {
  it('changes the name, path and settings; a new path moves the subgroups and projects with it', async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    const child = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: 'Child',
      path: 'child',
      parent_id: group.id,
    });
    const project = await call<{ id: number; path_with_namespace: string }>(
      groups.creator,
      'POST',
      '/projects',
      {
        name: 'Inside',
        namespace_id: child.body.id,
      },
    );
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const path = fresh('moved');
    const answer = await call<GroupDetails>(groups.creator, 'PUT', `/groups/${group.id}`, {
      name: 'Moved group',
      path,
      description: 'Moved.',
      lfs_enabled: false,
      two_factor_grace_period: 0,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      id: group.id,
      name: 'Moved group',
      path,
      full_path: path,
      description: 'Moved.',
      lfs_enabled: false,
      two_factor_grace_period: 0,
    });
    const movedChild = await call<GroupDetails>(groups.creator, 'GET', `/groups/${enc(`${path}/child`)}`);
    expect(movedChild.body).toMatchObject({ id: child.body.id, full_name: 'Moved group / Child' });
    expect((await call(groups.creator, 'GET', `/groups/${enc(`${group.full_path}/child`)}`)).status).toBe(
      404,
    );
    const movedProject = await call<{ id: number; path_with_namespace: string }>(
      groups.creator,
      'GET',
      `/projects/${enc(`${path}/child/inside`)}`,
    );
    expect(movedProject.body.id).toBe(project.body.id);
  });

  it('is for the owners and administrators: 403 for members below, 404 for those who cannot see it', async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    await addMember(group.id, 'maintainer', 40);
    const put = (caller: Caller) =>
      call(caller, 'PUT', `/groups/${group.id}`, { description: `by ${caller}` });
    expect((await put(groups.creator)).status).toBe(200);
    expect((await put('admin')).status).toBe(200);
    expect((await put('maintainer')).status).toBe(403);
    expect((await put('outsider')).status).toBe(404);
    expect((await put('anonymous')).status).toBe(401);
    expect((await put('invalid')).status).toBe(401);
    expect(
      (await call(groups.creator, 'PUT', `/groups/${group.id}`, { project_creation_level: 'all' })).status,
    ).toBe(400);
  });

  it("keeps the hierarchy's visibility and paths, with GitLab's validation errors", async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup({ visibility: 'public' });
    const other = await newGroup();
    const child = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: 'Public child',
      path: fresh('child'),
      parent_id: group.id,
      visibility: 'public',
    });
    expect(child.status).toBe(201);
    const down = await call<{ message: unknown }>(groups.creator, 'PUT', `/groups/${group.id}`, {
      visibility: 'private',
    });
    expect(down.status).toBe(400);
    expect(down.body.message).toEqual({
      visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'],
    });
    const up = await call<{ message: unknown }>(groups.creator, 'PUT', `/groups/${child.body.id}`, {
      visibility: 'public',
    });
    expect(up.status).toBe(200);
    const taken = await call<{ message: unknown }>(groups.creator, 'PUT', `/groups/${group.id}`, {
      path: other.path,
    });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toEqual({ path: ['has already been taken'] });
    // Nothing of a refused change is kept.
    const read = await call<GroupDetails>(groups.creator, 'GET', `/groups/${group.id}`);
    expect(read.body).toMatchObject({ path: group.path, visibility: 'public' });
  });
});

describe('avatars', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

  it("are uploaded by multipart at creation and update, served at avatar_url and shown as its projects' namespace avatar", async (context) => {
    if (groups.skipped) context.skip();
    const path = fresh('avatar');
    const form = new FormData();
    form.set('name', 'With avatar');
    form.set('path', path);
    form.set('avatar', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const created = await callAs<GroupDetails>(groups.target, groups.creator, '/groups', {
      method: 'POST',
      multipart: form,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    groups.remember(created.body.id);
    expect(created.body.avatar_url).toMatch(
      new RegExp(`/uploads/-/system/group/avatar/${created.body.id}/logo\\.png$`),
    );
    const image = await fetch(String(created.body.avatar_url), {
      headers: { 'PRIVATE-TOKEN': groups.target.config.tokens[groups.creator] },
    });
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    // A private group's avatar is no one else's business.
    const hidden = await fetch(String(created.body.avatar_url), {
      headers: { 'PRIVATE-TOKEN': groups.target.config.tokens.outsider },
    });
    expect(hidden.status).toBe(404);

    const replace = new FormData();
    replace.set('avatar', new Blob([PNG], { type: 'image/png' }), 'second.png');
    const edited = await callAs<GroupDetails>(groups.target, groups.creator, `/groups/${created.body.id}`, {
      method: 'PUT',
      multipart: replace,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.avatar_url).toMatch(/second\.png$/);
    // A project of the group shows it as its namespace's avatar (GitLab's NamespaceBasic).
    const project = await call<{ namespace: { avatar_url: string | null } }>(
      groups.creator,
      'POST',
      '/projects',
      {
        name: 'Under an avatar',
        namespace_id: created.body.id,
      },
    );
    expect(project.status).toBe(201);
    expect(project.body.namespace.avatar_url).toBe(edited.body.avatar_url);

    const text = new FormData();
    text.set('avatar', new Blob(['not an image'], { type: 'text/plain' }), 'notes.txt');
    const refused = await callAs<{ message: Record<string, string[]> }>(
      groups.target,
      groups.creator,
      `/groups/${created.body.id}`,
      {
        method: 'PUT',
        multipart: text,
      },
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.message)).toEqual(['avatar']);
  });
});

describe('DELETE /groups/:id', () => {
  it('removes the group with its subgroups, projects, epics, labels and badges: nothing is served after', async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    const child = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: 'C',
      path: 'c',
      parent_id: group.id,
    });
    const project = await call<{ id: number }>(groups.creator, 'POST', '/projects', {
      name: 'Doomed',
      namespace_id: child.body.id,
      initialize_with_readme: true,
    });
    expect(project.status).toBe(201);
    const label = await call<{ id: number }>(groups.creator, 'POST', `/groups/${group.id}/labels`, {
      name: 'doomed',
      color: '#ff0000',
    });
    expect(label.status).toBe(201);
    const badge = await call<{ id: number }>(groups.creator, 'POST', `/groups/${group.id}/badges`, {
      link_url: 'https://example.com',
      image_url: 'https://example.com/b.svg',
    });
    expect(badge.status).toBe(201);
    const epic = await call<{ iid: number }>(groups.creator, 'POST', `/groups/${group.id}/epics`, {
      title: 'Doomed',
    });
    expect(epic.status).toBe(201);

    await addMember(group.id, 'maintainer', 40);
    expect((await call('maintainer', 'DELETE', `/groups/${group.id}`)).status).toBe(403);
    expect((await call('outsider', 'DELETE', `/groups/${group.id}`)).status).toBe(404);
    expect((await call('anonymous', 'DELETE', `/groups/${group.id}`)).status).toBe(401);
    const wrongPath = await call(
      groups.creator,
      'DELETE',
      `/groups/${group.id}?permanently_remove=true&full_path=nope`,
    );
    expect(wrongPath.status).toBe(400);

    const deleted = await call<{ message: string }>(groups.creator, 'DELETE', `/groups/${group.id}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ message: '202 Accepted' });
    for (const path of [
      `/groups/${group.id}`,
      `/groups/${enc(group.full_path)}`,
      `/groups/${child.body.id}`,
      `/projects/${project.body.id}`,
      `/groups/${group.id}/labels/${label.body.id}`,
      `/groups/${group.id}/badges/${badge.body.id}`,
      `/groups/${group.id}/epics/${epic.body.iid}`,
      `/groups/${group.id}/members`,
    ])
      expect((await call('admin', 'GET', path)).status, path).toBe(404);
    const list = await call<{ id: number }[]>('admin', 'GET', `/groups?search=${enc(group.path)}`);
    expect(list.body.map((g) => g.id)).not.toContain(group.id);
    // Its path is free again.
    const again = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: 'Again',
      path: group.path,
    });
    expect(again.status).toBe(201);
    groups.remember(again.body.id);
  });

  it('lets an owner of an ancestor delete a subgroup, and only the subgroup', async (context) => {
    if (groups.skipped) context.skip();
    const group = await newGroup();
    const child = await call<GroupDetails>(groups.creator, 'POST', '/groups', {
      name: 'C',
      path: 'c',
      parent_id: group.id,
    });
    expect((await call(groups.creator, 'DELETE', `/groups/${child.body.id}`)).status).toBe(202);
    expect((await call(groups.creator, 'GET', `/groups/${child.body.id}`)).status).toBe(404);
    expect((await call(groups.creator, 'GET', `/groups/${group.id}`)).status).toBe(200);
  });
});

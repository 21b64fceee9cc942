// One project (GitLab v4; the seeds say "not shown"): create (`POST /projects`), read (`GET /projects/:id`)
// and edit (`PUT /projects/:id`), with who may do each. Projects are created for the tests under names with
// this run's suffix, so the fixtures stay as they are and a shared server can run the file again.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

type Method = 'GET' | 'POST' | 'PUT';

let target: Target;
let namespace: string;
let hiddenGroup: string;
let publicProject: string;
let privateProject: string;
let internalProject: string;
let namespaceId: number;
let hiddenGroupId: number;

const enc = encodeURIComponent;
const run = RUN.toLowerCase();

type Permissions = components['schemas']['ProjectPermissions'];
/** The full form: what creating and editing answer, and reading for a signed-in caller. */
type Project = components['schemas']['ProjectFull'];
/** What reading answers to any caller: the full form, or the summary form for anonymous callers. */
type ProjectRead = operations['getProject']['responses'][200]['content']['application/json'];
type ProjectList = operations['listProjects']['responses'][200]['content']['application/json'];
type Group = components['schemas']['GroupDetails'];
type RepositoryFile = components['schemas']['RepositoryFile'];
type Branch = components['schemas']['Branch'];
/** The body of a 400 from creating or editing a project. */
type ErrorBody = components['schemas']['Error'];

async function expectStatus<T = Project>(
  caller: Caller,
  method: Method,
  path: string,
  status: number,
  options: {
    json?: Record<string, unknown>;
    form?: Record<string, string>;
    query?: Record<string, string>;
  } = {},
): Promise<T> {
  const response = await callAs<T>(target, caller, path, { method, ...options });
  expect(response.status, `${caller} ${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

/** A project of this run in `namespace` (the group of the fixtures), created by `caller`. */
function create(caller: Caller, json: Record<string, unknown>, status = 201): Promise<Project> {
  return expectStatus(caller, 'POST', '/projects', status, { json: { namespace_id: namespaceId, ...json } });
}

async function groupId(path: string): Promise<number> {
  const group = await expectStatus<Group>('owner', 'GET', `/groups/${enc(path)}`, 200);
  return group.id;
}

/** The text of a file of a project at `ref`, read back through the repository files API. */
async function fileText(project: string | number, file: string, ref: string): Promise<string> {
  const body = await expectStatus<RepositoryFile>(
    'owner',
    'GET',
    `/projects/${enc(String(project))}/repository/files/${enc(file)}`,
    200,
    { query: { ref } },
  );
  return Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
}

const levelOf = (permissions: Permissions | undefined): number =>
  Math.max(permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);

beforeAll(async () => {
  target = await openTarget();
  ({ namespace, hiddenGroup, publicProject, privateProject, internalProject } = target.config.fixtures);
  namespaceId = await groupId(namespace);
  hiddenGroupId = await groupId(hiddenGroup);
}, 60_000);
afterAll(async () => {
  await target.close();
});

describe('POST /projects', () => {
  it('creates a group project from a name (the path made from it) with a README commit really in git', async () => {
    const name = `Entry Readme ${RUN}`;
    const created = await create('owner', {
      name,
      description: 'Made by the conformance suite.',
      visibility: 'private',
      initialize_with_readme: true,
      issues_enabled: false,
      topics: ['conformance', 'entry'],
    });
    expect(created).toMatchObject({
      name,
      path: `entry-readme-${run}`,
      path_with_namespace: `${namespace}/entry-readme-${run}`,
      description: 'Made by the conformance suite.',
      default_branch: 'main',
      visibility: 'private',
      issues_enabled: false,
      topics: ['conformance', 'entry'],
      tag_list: ['conformance', 'entry'],
      namespace: { id: namespaceId, kind: 'group', full_path: namespace },
    });
    expect(created.readme_url).toMatch(/\/-\/blob\/main\/README\.md$/);
    expect(created._links?.issues).toBeUndefined();
    expect(levelOf(created.permissions)).toBe(50);
    const readme = await fileText(created.id, 'README.md', 'main');
    expect(readme).toBe(`# ${name}\n\nMade by the conformance suite.\n`);
    // The same README through the project's path, and the project reads back as it was created.
    expect(await fileText(created.path_with_namespace, 'README.md', 'main')).toBe(readme);
    const read = await expectStatus('owner', 'GET', `/projects/${created.id}`, 200);
    expect(read).toMatchObject({ id: created.id, name, path: created.path, visibility: 'private' });
  });

  it("creates from a path alone (the name is the path) in the caller's personal namespace, empty", async () => {
    const path = `entry-personal-${run}`;
    const created = await expectStatus('maintainer', 'POST', '/projects', 201, { json: { path } });
    const { maintainer } = target.config.fixtures.users;
    expect(created).toMatchObject({
      name: path,
      path,
      path_with_namespace: `${maintainer.username}/${path}`,
      visibility: 'private',
      default_branch: null,
      readme_url: null,
      namespace: { kind: 'user', full_path: maintainer.username },
      owner: { id: maintainer.id },
    });
    expect(created.permissions?.project_access?.access_level).toBe(50);
    await expectStatus(
      'maintainer',
      'GET',
      `/projects/${enc(created.path_with_namespace)}/repository/files/README.md`,
      404,
      {
        query: { ref: 'main' },
      },
    );
    // A private project of someone else's personal namespace is hidden from others.
    await expectStatus('developer', 'GET', `/projects/${created.id}`, 404);
  });

  it('takes a form body and a default branch of its own; the first commit lands on that branch', async () => {
    const created = await expectStatus('maintainer', 'POST', '/projects', 201, {
      form: {
        name: `Entry Trunk ${RUN}`,
        namespace_id: String(namespaceId),
        default_branch: 'trunk',
        initialize_with_readme: 'true',
        topics: 'one, two,,one',
        merge_method: 'ff',
      },
    });
    expect(created).toMatchObject({ default_branch: 'trunk', topics: ['one', 'two'], merge_method: 'ff' });
    expect(await fileText(created.id, 'README.md', 'trunk')).toBe(`# Entry Trunk ${RUN}\n`);
    const branches = await expectStatus<Branch[]>(
      'maintainer',
      'GET',
      `/projects/${created.id}/repository/branches`,
      200,
    );
    expect(branches.map((branch) => [branch.name, branch.default])).toEqual([['trunk', true]]);
  });

  it('an administrator creates in a group without belonging to it and becomes its maintainer', async () => {
    const created = await create('admin', { path: `entry-admin-${run}` });
    expect(created.permissions?.project_access?.access_level).toBe(40);
    expect(created.namespace?.full_path).toBe(namespace);
  });

  it("refuses a name or path taken in the namespace with GitLab's validation errors (400)", async () => {
    const first = await create('owner', { name: `Entry Taken ${RUN}` });
    const again = await create('owner', { name: `Entry Taken ${RUN}` }, 400);
    expect(again).toEqual({
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    });
    const samePath = await create('owner', { name: `Other ${RUN}`, path: first.path.toUpperCase() }, 400);
    expect(samePath).toEqual({ message: { path: ['has already been taken'] } });
    const sameName = await create('owner', { name: first.name, path: `entry-other-${run}` }, 400);
    expect(sameName).toEqual({ message: { name: ['has already been taken'] } });
    // The same path in another namespace is free.
    await expectStatus('owner', 'POST', '/projects', 201, { json: { path: first.path } });
  });

  it('refuses invalid input (400)', async () => {
    const neither = await create('owner', { description: 'no name, no path' }, 400);
    expect(neither).toHaveProperty('error');
    expect(await create('owner', { name: `Entry ${RUN}`, path: `-entry-${run}` }, 400)).toEqual({
      message: { path: [expect.any(String)] },
    });
    // A path the spec's pattern refuses is named before the name derived from it is checked.
    expect(await create('owner', { path: `-entry-${run}` }, 400)).toEqual({
      message: { path: ['is invalid'] },
    });
    expect(await create('owner', { path: `entry-${run}.git` }, 400)).toMatchObject({
      message: { path: [expect.any(String)] },
    });
    expect(await create('owner', { name: `!Entry ${RUN}` }, 400)).toMatchObject({
      message: { name: [expect.any(String)] },
    });
    await create('owner', { name: `Entry Branch ${RUN}`, default_branch: 'a..b' }, 400);
    await create('owner', { name: `Entry Vis ${RUN}`, visibility: 'secret' }, 400);
    await create('owner', { name: `Entry Merge ${RUN}`, merge_method: 'squash' }, 400);
    await create('owner', { name: `Entry NS ${RUN}`, namespace_id: 'acme' }, 400);
  });

  it("takes names in any script, with emoji, '+', '.', dashes and spaces, and refuses other punctuation", async () => {
    const names = [`Café Ünïcode ${RUN}`, `项目 ${RUN}`, `_Emoji 🚀 ${RUN}`, `a+b.c-d—e ${RUN}`, `𠀋 ${RUN}`];
    for (const [index, name] of names.entries()) {
      const created = await create('owner', { name, path: `entry-script-${index}-${run}` }, 201);
      expect(created).toMatchObject({ name });
    }
    for (const name of [` Leading ${RUN}`, `-Dash ${RUN}`, `a/b ${RUN}`, `a@b ${RUN}`, `a\u00a0b ${RUN}`]) {
      const refused = await create('owner', { name, path: `entry-refused-${run}` }, 400);
      expect(refused, name).toEqual({ message: { name: [expect.any(String)] } });
    }
  });

  it('never makes a project more visible than its group (400 visibility_level)', async () => {
    const refused = await expectStatus<ErrorBody>('maintainer', 'POST', '/projects', 400, {
      json: { name: `Entry Public ${RUN}`, namespace_id: hiddenGroupId, visibility: 'public' },
    });
    expect(Object.keys(refused.message ?? {})).toEqual(['visibility_level']);
    await expectStatus('maintainer', 'POST', '/projects', 201, {
      json: { name: `Entry Hidden ${RUN}`, namespace_id: hiddenGroupId, visibility: 'private' },
    });
  });

  it('needs a signed-in caller (401) allowed to create in the namespace (403; 404 for a hidden one)', async () => {
    const json = (who: string) => ({ name: `Entry Refused ${who} ${RUN}`, namespace_id: namespaceId });
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
      await expectStatus(caller, 'POST', '/projects', 401, { json: json(caller) });
    for (const caller of ['developer', 'reporter', 'guest', 'outsider', 'developerReadRepository'] as const)
      await expectStatus(caller, 'POST', '/projects', 403, { json: json(caller) });
    await expectStatus('outsider', 'POST', '/projects', 404, {
      json: { name: `Entry Hidden Outsider ${RUN}`, namespace_id: hiddenGroupId },
    });
    await expectStatus('owner', 'POST', '/projects', 404, {
      json: { name: `Entry Nowhere ${RUN}`, namespace_id: 999_999_999 },
    });
    // Nothing of the refused creations remains.
    const listed = await expectStatus<ProjectList>('admin', 'GET', '/projects', 200, {
      query: { search: `Entry Refused`, simple: 'true' },
    });
    expect(listed.filter((project) => project.name.endsWith(RUN))).toEqual([]);
  });
});

describe('GET /projects/:id', () => {
  it('reads a group project and a personal project by numeric ID and by URL-encoded path', async () => {
    const { personalPublic } = target.config.fixtures.projects;
    for (const [path, kind] of [
      [publicProject, 'group'],
      [personalPublic, 'user'],
    ] as const) {
      const byPath = await expectStatus('developer', 'GET', `/projects/${enc(path)}`, 200);
      expect(byPath.path_with_namespace).toBe(path);
      expect(byPath.namespace?.kind).toBe(kind);
      expect(byPath.permissions).toBeDefined();
      const byId = await expectStatus('developer', 'GET', `/projects/${byPath.id}`, 200);
      expect(byId).toEqual(byPath);
    }
    const personal = await expectStatus('owner', 'GET', `/projects/${enc(personalPublic)}`, 200);
    expect(personal.owner?.id).toBe(target.config.fixtures.users.owner.id);
    expect(personal.permissions?.project_access ?? personal.permissions?.group_access).not.toBeNull();
  });

  it("gives the caller's permissions (ProjectWithAccess), and the summary form to anonymous callers", async () => {
    const asDeveloper = await expectStatus('developer', 'GET', `/projects/${enc(publicProject)}`, 200);
    expect(levelOf(asDeveloper.permissions)).toBe(30);
    const asOutsider = await expectStatus('outsider', 'GET', `/projects/${enc(publicProject)}`, 200);
    expect(asOutsider.permissions).toEqual({ project_access: null, group_access: null });
    const anonymous = await expectStatus<ProjectRead>(
      'anonymous',
      'GET',
      `/projects/${enc(publicProject)}`,
      200,
    );
    expect(anonymous.id).toBe(asDeveloper.id);
    expect(anonymous).not.toHaveProperty('permissions');
    expect(anonymous).not.toHaveProperty('visibility');
  });

  it('hides private projects from non-members and internal ones from anonymous callers (404)', async () => {
    for (const caller of ['anonymous', 'outsider'] as const)
      await expectStatus(caller, 'GET', `/projects/${enc(privateProject)}`, 404);
    await expectStatus('anonymous', 'GET', `/projects/${enc(internalProject)}`, 404);
    await expectStatus('outsider', 'GET', `/projects/${enc(internalProject)}`, 200);
    for (const caller of ['guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'] as const)
      await expectStatus(caller, 'GET', `/projects/${enc(privateProject)}`, 200);
    await expectStatus('owner', 'GET', `/projects/no-such-group%2Fno-such-project-${RUN}`, 404);
    await expectStatus('owner', 'GET', '/projects/999999999', 404);
    await expectStatus('invalid', 'GET', `/projects/${enc(publicProject)}`, 401);
  });

  it('adds statistics for reporters and above and administrators only', async () => {
    for (const caller of ['reporter', 'owner', 'admin'] as const) {
      const project = await expectStatus(caller, 'GET', `/projects/${enc(privateProject)}`, 200, {
        query: { statistics: 'true' },
      });
      expect(project.statistics?.commit_count, caller).toBeGreaterThan(0);
    }
    const guest = await expectStatus('guest', 'GET', `/projects/${enc(privateProject)}`, 200, {
      query: { statistics: 'true' },
    });
    expect(guest).not.toHaveProperty('statistics');
    const without = await expectStatus('owner', 'GET', `/projects/${enc(privateProject)}`, 200);
    expect(without).not.toHaveProperty('statistics');
  });

  it('adds the license on request: the license file recognised, or null', async () => {
    const created = await create('owner', { name: `Entry License ${RUN}`, initialize_with_readme: true });
    const path = `/projects/${created.id}`;
    const bare = await expectStatus('owner', 'GET', path, 200, { query: { license: 'true' } });
    expect(bare).toMatchObject({ license_url: null, license: null });
    await expectStatus('owner', 'POST', `${path}/repository/files/LICENSE`, 201, {
      json: {
        branch: 'main',
        commit_message: 'Add a license',
        content:
          'MIT License\n\nCopyright (c) 2026 Someone\n\nPermission is hereby granted, free of charge, to any person ' +
          'obtaining a copy of this software and associated documentation files (the "Software"), to deal in the ' +
          'Software without restriction.\n',
      },
    });
    const licensed = await expectStatus('owner', 'GET', path, 200, { query: { license: 'true' } });
    expect(licensed.license).toMatchObject({ key: 'mit', name: 'MIT License' });
    expect(licensed.license_url).toMatch(/\/-\/blob\/main\/LICENSE$/);
    const plain = await expectStatus('owner', 'GET', path, 200);
    expect(plain).not.toHaveProperty('license');
  });

  it('adds custom attributes for administrators who ask for them', async () => {
    const admin = await expectStatus('admin', 'GET', `/projects/${enc(publicProject)}`, 200, {
      query: { with_custom_attributes: 'true' },
    });
    expect(admin.custom_attributes).toContainEqual({ key: 'location', value: 'Antarctica' });
    const owner = await expectStatus('owner', 'GET', `/projects/${enc(publicProject)}`, 200, {
      query: { with_custom_attributes: 'true' },
    });
    expect(owner).not.toHaveProperty('custom_attributes');
  });

  it('refuses malformed parameters (400)', async () => {
    await expectStatus('owner', 'GET', `/projects/${enc(publicProject)}`, 400, {
      query: { statistics: 'maybe' },
    });
  });
});

describe('PUT /projects/:id', () => {
  it('creates, reads, updates and reads again', async () => {
    const created = await create('owner', { name: `Entry Edit ${RUN}`, initialize_with_readme: true });
    const path = `/projects/${created.id}`;
    expect(await expectStatus('owner', 'GET', path, 200)).toMatchObject({
      description: null,
      issues_enabled: true,
      merge_method: 'merge',
      topics: [],
    });
    const updated = await expectStatus('maintainer', 'PUT', path, 200, {
      json: {
        description: 'Edited.',
        issues_enabled: false,
        merge_method: 'rebase_merge',
        topics: 'alpha,beta',
        ci_default_git_depth: 10,
      },
    });
    expect(updated).toMatchObject({
      description: 'Edited.',
      issues_enabled: false,
      merge_method: 'rebase_merge',
      topics: ['alpha', 'beta'],
      ci_default_git_depth: 10,
    });
    const read = await expectStatus('developer', 'GET', path, 200);
    expect(read).toMatchObject({
      description: 'Edited.',
      issues_enabled: false,
      merge_method: 'rebase_merge',
      topics: ['alpha', 'beta'],
      tag_list: ['alpha', 'beta'],
    });
    // A form body, and a null meaning "not given".
    expect(
      await expectStatus('maintainer', 'PUT', path, 200, {
        form: { issues_enabled: 'true', tag_list: 'gamma' },
      }),
    ).toMatchObject({ issues_enabled: true, topics: ['gamma'], description: 'Edited.' });
  });

  it('renames the path (owner): the project answers at its new path, its repository with it', async () => {
    const created = await create('owner', { name: `Entry Rename ${RUN}`, initialize_with_readme: true });
    const renamed = await expectStatus('owner', 'PUT', `/projects/${created.id}`, 200, {
      json: { path: `entry-renamed-${run}`, name: `Entry Renamed ${RUN}` },
    });
    expect(renamed).toMatchObject({
      path: `entry-renamed-${run}`,
      name: `Entry Renamed ${RUN}`,
      path_with_namespace: `${namespace}/entry-renamed-${run}`,
    });
    await expectStatus('owner', 'GET', `/projects/${enc(created.path_with_namespace)}`, 404);
    expect(
      (await expectStatus('owner', 'GET', `/projects/${enc(renamed.path_with_namespace)}`, 200)).id,
    ).toBe(created.id);
    expect(await fileText(renamed.path_with_namespace, 'README.md', 'main')).toBe(`# Entry Rename ${RUN}\n`);
    // Another project's path or name is taken.
    const other = await create('owner', { name: `Entry Rival ${RUN}` });
    expect(
      await expectStatus('owner', 'PUT', `/projects/${other.id}`, 400, { json: { path: renamed.path } }),
    ).toEqual({ message: { path: ['has already been taken'] } });
    expect(
      await expectStatus('owner', 'PUT', `/projects/${other.id}`, 400, { json: { name: renamed.name } }),
    ).toEqual({ message: { name: ['has already been taken'] } });
    // Its own name and path again are no conflict.
    await expectStatus('owner', 'PUT', `/projects/${other.id}`, 200, {
      json: { name: other.name, path: other.path },
    });
  });

  it('moves the default branch to an existing branch only (400 otherwise)', async () => {
    const created = await create('owner', { name: `Entry Head ${RUN}`, initialize_with_readme: true });
    const path = `/projects/${created.id}`;
    const refused = await expectStatus<ErrorBody>('maintainer', 'PUT', path, 400, {
      json: { default_branch: 'nope' },
    });
    expect(refused.message).toBe("Could not set the default branch. Branch 'nope' does not exist.");
    await expectStatus('maintainer', 'POST', `${path}/repository/branches`, 201, {
      query: { branch: 'stable', ref: 'main' },
    });
    expect(
      (await expectStatus('maintainer', 'PUT', path, 200, { json: { default_branch: 'stable' } }))
        .default_branch,
    ).toBe('stable');
    const branches = await expectStatus<Branch[]>('maintainer', 'GET', `${path}/repository/branches`, 200);
    expect(branches.find((branch) => branch.default)?.name).toBe('stable');
  });

  it("keeps name, path and visibility for owners and administrators (403), and the visibility under the group's", async () => {
    const created = await create('owner', { name: `Entry Guarded ${RUN}` });
    const path = `/projects/${created.id}`;
    for (const json of [
      { name: `Entry Guarded Two ${RUN}` },
      { path: `entry-guarded-two-${run}` },
      { visibility: 'internal' },
    ])
      await expectStatus('maintainer', 'PUT', path, 403, { json });
    expect(
      (await expectStatus('admin', 'PUT', path, 200, { json: { visibility: 'internal' } })).visibility,
    ).toBe('internal');
    expect(
      (await expectStatus('owner', 'PUT', path, 200, { json: { visibility: 'private' } })).visibility,
    ).toBe('private');
    const hidden = await expectStatus('maintainer', 'POST', '/projects', 201, {
      json: { name: `Entry Hidden Edit ${RUN}`, namespace_id: hiddenGroupId },
    });
    const refused = await expectStatus<ErrorBody>('owner', 'PUT', `/projects/${hidden.id}`, 400, {
      json: { visibility: 'public' },
    });
    expect(Object.keys(refused.message ?? {})).toEqual(['visibility_level']);
  });

  it('needs at least one parameter and valid ones (400)', async () => {
    const path = `/projects/${enc(privateProject)}`;
    await expectStatus('owner', 'PUT', path, 400, { json: {} });
    await expectStatus('owner', 'PUT', path, 400, { json: { description: null } });
    await expectStatus('owner', 'PUT', path, 400, { json: { merge_method: 'squash' } });
    await expectStatus('owner', 'PUT', path, 400, { json: { build_timeout: 5 } });
    await expectStatus('owner', 'PUT', path, 400, { json: { path: 'bad path' } });
  });

  it('needs maintainer access (401, 404 for a hidden project, 403)', async () => {
    const path = `/projects/${enc(privateProject)}`;
    const json = { description: `Refused ${RUN}` };
    for (const [caller, status] of [
      ['anonymous', 401],
      ['invalid', 401],
      ['outsider', 404],
      ['guest', 403],
      ['reporter', 403],
      ['developer', 403],
      ['developerReadRepository', 403],
    ] as const)
      await expectStatus(caller, 'PUT', path, status, { json });
    await expectStatus('owner', 'PUT', `/projects/no-such-group%2Fno-such-project-${RUN}`, 404, { json });
    const read = await expectStatus('owner', 'GET', path, 200);
    expect(read.description).not.toBe(`Refused ${RUN}`);
  });
});

describe("a project's avatar (GitLab v4)", () => {
  /** The smallest PNG header GitLab's (and our) content check takes as an image. */
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const png = (bytes: Buffer = PNG) => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

  async function multipart<T = Project>(
    caller: Caller,
    method: 'POST' | 'PUT',
    path: string,
    fields: Record<string, string | [Blob, string]>,
  ): Promise<{ status: number; body: T }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields))
      if (typeof value === 'string') form.set(name, value);
      else form.set(name, value[0], value[1]);
    return callAs<T>(target, caller, path, { method, multipart: form });
  }

  /** The avatar's status and bytes for `caller` (no token for anonymous callers). */
  async function fetchAvatar(url: string, caller: 'owner' | 'outsider' | 'anonymous') {
    const headers: Record<string, string> =
      caller === 'anonymous' ? {} : { 'PRIVATE-TOKEN': target.config.tokens[caller] };
    // Outside the API (and its spec): a plain fetch.
    const response = await fetch(url, { headers });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('POST /projects takes one by multipart; avatar_url serves it to whoever may see the project only', async () => {
    const created = await multipart('owner', 'POST', '/projects', {
      name: `Avatar ${RUN}`,
      namespace_id: String(namespaceId),
      visibility: 'private',
      initialize_with_readme: 'true',
      avatar: [png(), 'logo.png'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url = String(created.body.avatar_url);
    expect(url).toMatch(new RegExp(`/uploads/-/system/project/avatar/${created.body.id}/logo\\.png$`));
    // The multipart form's other fields are read as the JSON ones.
    expect(created.body).toMatchObject({ visibility: 'private', default_branch: 'main' });
    const read = await expectStatus('owner', 'GET', `/projects/${created.body.id}`, 200);
    expect(read.avatar_url).toBe(url);
    expect(await fetchAvatar(url, 'owner')).toEqual({ status: 200, bytes: PNG });
    // A private project's avatar is no one else's business.
    expect((await fetchAvatar(url, 'outsider')).status).toBe(404);
    expect((await fetchAvatar(url, 'anonymous')).status).toBe(404);
    // Another file name under the project's ID is not its avatar.
    expect((await fetchAvatar(url.replace(/logo\.png$/, 'other.png'), 'owner')).status).toBe(404);
  });

  it('PUT /projects/:id replaces it by multipart (maintainers), and an empty avatar removes it (form or JSON)', async () => {
    const project = await create('owner', { name: `Avatar Edit ${RUN}`, visibility: 'public' });
    expect(project.avatar_url).toBeNull();
    const path = `/projects/${project.id}`;
    const first = await multipart('maintainer', 'PUT', path, { avatar: [png(), 'first.png'] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const firstUrl = String(first.body.avatar_url);
    expect(firstUrl).toMatch(new RegExp(`/uploads/-/system/project/avatar/${project.id}/first\\.png$`));
    // A public project's avatar is anyone's to see.
    expect(await fetchAvatar(firstUrl, 'anonymous')).toEqual({ status: 200, bytes: PNG });
    // With another field in the same form; the old file goes.
    const second = await multipart('maintainer', 'PUT', path, {
      description: 'With a new avatar',
      avatar: [png(), 'second.png'],
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ description: 'With a new avatar' });
    expect(second.body.avatar_url).toMatch(/\/second\.png$/);
    expect((await fetchAvatar(firstUrl, 'owner')).status).toBe(404);

    const removed = await expectStatus('maintainer', 'PUT', path, 200, { form: { avatar: '' } });
    expect(removed.avatar_url).toBeNull();
    expect((await fetchAvatar(String(second.body.avatar_url), 'owner')).status).toBe(404);
    const again = await multipart('maintainer', 'PUT', path, { avatar: [png(), 'third.png'] });
    expect(again.body.avatar_url).toMatch(/\/third\.png$/);
    const removedByJson = await expectStatus('owner', 'PUT', path, 200, { json: { avatar: '' } });
    expect(removedByJson.avatar_url).toBeNull();
    expect((await expectStatus('owner', 'GET', path, 200)).avatar_url).toBeNull();
  });

  it('refuses a file that is not an image or is over 200 KiB, and avatar as text (400 naming avatar)', async () => {
    const project = await create('owner', { name: `Avatar Refused ${RUN}` });
    const path = `/projects/${project.id}`;
    const notImage = await multipart<ErrorBody>('owner', 'PUT', path, {
      avatar: [new Blob(['not an image'], { type: 'text/plain' }), 'notes.txt'],
    });
    expect(notImage.status).toBe(400);
    expect(Object.keys(notImage.body.message as Record<string, string[]>)).toEqual(['avatar']);
    const disguised = await multipart<ErrorBody>('owner', 'PUT', path, {
      avatar: [new Blob(['plain text'], { type: 'image/png' }), 'fake.png'],
    });
    expect(disguised.status).toBe(400);
    expect(Object.keys(disguised.body.message as Record<string, string[]>)).toEqual(['avatar']);
    const large = Buffer.concat([PNG, Buffer.alloc(200 * 1024)]);
    const tooBig = await multipart<ErrorBody>('owner', 'PUT', path, {
      avatar: [png(large), 'big.png'],
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toEqual({ avatar: ['is too big (should be at most 200 KiB)'] });
    const created = await multipart<ErrorBody>('owner', 'POST', '/projects', {
      name: `Avatar Refused New ${RUN}`,
      namespace_id: String(namespaceId),
      avatar: [new Blob(['not an image'], { type: 'text/plain' }), 'notes.txt'],
    });
    expect(created.status).toBe(400);
    expect(Object.keys(created.body.message as Record<string, string[]>)).toEqual(['avatar']);
    // Nothing of a refused creation is made.
    await expectStatus('owner', 'GET', `/projects/${enc(`${namespace}/avatar-refused-new-${run}`)}`, 404);
    await expectStatus('owner', 'PUT', path, 400, { form: { avatar: 'logo.png' } });
    await expectStatus('owner', 'POST', '/projects', 400, {
      json: { name: `Avatar Text ${RUN}`, namespace_id: namespaceId, avatar: 'logo.png' },
    });
    expect((await expectStatus('owner', 'GET', path, 200)).avatar_url).toBeNull();
  });

  it('needs maintainer access to change it (403 for developers, 404 for outsiders of a private project)', async () => {
    const project = await create('owner', { name: `Avatar Access ${RUN}`, visibility: 'private' });
    for (const [caller, status] of [
      ['developer', 403],
      ['outsider', 404],
      ['anonymous', 401],
    ] as const) {
      const answer = await multipart(caller, 'PUT', `/projects/${project.id}`, {
        avatar: [png(), 'logo.png'],
      });
      expect([caller, answer.status]).toEqual([caller, status]);
    }
  });
});

// Badges of projects and groups (document 2, section 4.9): the twelve operations, the placeholders, the
// group badges in a project's list, and who may read and write them.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let target: Target;
let publicProject: string;
let privateProject: string;
/** A project of a subgroup of `namespace`: it sees the badges of both groups. */
let subgroupProject: string;
let namespace: string;
let hiddenGroup: string;
/** A group without projects of its own (the demo's Partners): its badges render unchanged. */
let emptyGroup: string;

beforeAll(async () => {
  target = await openTarget();
  ({ publicProject, privateProject, namespace, hiddenGroup } = target.config.fixtures);
  subgroupProject = target.config.fixtures.sharedProject;
  emptyGroup = target.config.fixtures.sharedGroup.path;
});
afterAll(async () => {
  await target.close();
});

const enc = encodeURIComponent;
const projectPath = (id: string, rest = '') => `/projects/${enc(id)}/badges${rest}`;
const groupPath = (id: string, rest = '') => `/groups/${enc(id)}/badges${rest}`;

/** A request as `caller` with query parameters or a JSON body (callAs validates every response). */
const call = (
  caller: Caller,
  method: Method,
  path: string,
  options: { query?: Record<string, string>; body?: Record<string, unknown> } = {},
) => callAs(target, caller, path, { method, query: options.query, json: options.body });

type Badge = components['schemas']['Badge'];
type BadgePreview = components['schemas']['BadgePreview'];
type AddBadgeBody = components['schemas']['AddProjectBadgeRequest'];
type ErrorBody = components['schemas']['Error'];

const LINK = 'https://ci.example.com/%{project_path}/-/commits/%{default_branch}?name=%{project_name}';
const IMAGE = 'https://shields.example.com/%{project_id}/%{commit_sha}.svg';

async function addBadge(
  path: string,
  name: string,
  role: Role = 'maintainer',
  urls: Pick<AddBadgeBody, 'link_url' | 'image_url'> = { link_url: LINK, image_url: IMAGE },
): Promise<Badge> {
  const { status, body } = await call(role, 'POST', path, { body: { ...urls, name } });
  expect(status, JSON.stringify(body)).toBe(201);
  return body as Badge;
}

/** What the placeholders of a project render to, read through other operations (branches). */
async function expectedValues(project: string): Promise<{ path: string; name: string; sha: string }> {
  const { data, response } = await target
    .as('maintainer')
    .GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: 'main' } },
    });
  expect(response.status).toBe(200);
  return { path: project, name: project.split('/').at(-1) ?? '', sha: data?.commit.id ?? '' };
}

/** The rendered URLs for a project whose ID is `id`. */
function renderedFor(values: { path: string; name: string; sha: string }, id: string | number) {
  return {
    rendered_link_url: `https://ci.example.com/${values.path}/-/commits/main?name=${values.name}`,
    rendered_image_url: `https://shields.example.com/${id}/${values.sha}.svg`,
  };
}

/** The project's numeric ID, read from a rendered `%{project_id}`. */
async function projectIdOf(project: string): Promise<string> {
  const { status, body } = await call('maintainer', 'GET', projectPath(project, '/render'), {
    query: { link_url: 'https://x.example/%{project_id}', image_url: 'https://x.example/i' },
  });
  expect(status).toBe(200);
  const id = (body as BadgePreview).rendered_link_url.split('/').at(-1) ?? '';
  expect(id).toMatch(/^\d+$/);
  return id;
}

describe('project badges', () => {
  it('adds a badge (201) with kind project and the placeholders rendered with the project', async () => {
    const values = await expectedValues(publicProject);
    const id = await projectIdOf(publicProject);
    const badge = await addBadge(projectPath(publicProject), `coverage-${RUN}`);
    expect(badge).toMatchObject({
      name: `coverage-${RUN}`,
      link_url: LINK,
      image_url: IMAGE,
      kind: 'project',
      ...renderedFor(values, id),
    });
    expect(values.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(badge.rendered_link_url).not.toContain('%{');
  });

  it('reads, lists (name filter, case-sensitive, pagination headers), updates and deletes a badge', async () => {
    const badge = await addBadge(projectPath(publicProject), `Lifecycle-${RUN}`);
    const one = await call('reporter', 'GET', projectPath(publicProject, `/${badge.id}`));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(badge);

    const client = target.as('guest');
    const list = await client.GET('/projects/{id}/badges', {
      params: { path: { id: publicProject }, query: { name: `Lifecycle-${RUN}` } },
    });
    expect(list.response.status).toBe(200);
    expect(list.data).toEqual([badge]);
    expect(list.response.headers.get('X-Total')).toBe('1');
    expect(list.response.headers.get('X-Page')).toBe('1');
    const lower = await client.GET('/projects/{id}/badges', {
      params: { path: { id: publicProject }, query: { name: `lifecycle-${RUN}` } },
    });
    expect(lower.data).toEqual([]);
    expect(lower.response.headers.get('X-Total')).toBe('0');

    const changed = await call('maintainer', 'PUT', projectPath(publicProject, `/${badge.id}`), {
      body: { link_url: 'https://example.com/%{project_path}' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: badge.id,
      link_url: 'https://example.com/%{project_path}',
      rendered_link_url: `https://example.com/${publicProject}`,
      image_url: IMAGE,
      name: `Lifecycle-${RUN}`,
    });
    const renamed = await target.as('maintainer').PUT('/projects/{id}/badges/{badge_id}', {
      params: { path: { id: publicProject, badge_id: badge.id } },
      body: { name: `Renamed-${RUN}` },
    });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data?.name).toBe(`Renamed-${RUN}`);
    const unchanged = await call('maintainer', 'PUT', projectPath(publicProject, `/${badge.id}`), {
      body: {},
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(renamed.data);

    const deleted = await call('maintainer', 'DELETE', projectPath(publicProject, `/${badge.id}`));
    expect(deleted.status).toBe(204);
    expect((await call('maintainer', 'GET', projectPath(publicProject, `/${badge.id}`))).status).toBe(404);
    expect((await call('maintainer', 'DELETE', projectPath(publicProject, `/${badge.id}`))).status).toBe(404);
  });

  it('reads one page at a time', async () => {
    const name = `paged-${RUN}`;
    const ids: number[] = [];
    for (let n = 0; n < 3; n++) ids.push((await addBadge(projectPath(publicProject), name)).id);
    const page2 = await call('guest', 'GET', projectPath(publicProject), {
      query: { name, per_page: '2', page: '2' },
    });
    expect(page2.status).toBe(200);
    expect((page2.body as Badge[]).map((badge) => badge.id)).toEqual([ids[2]]);
    expect(page2.headers.get('X-Total')).toBe('3');
    expect(page2.headers.get('X-Total-Pages')).toBe('2');
    expect(page2.headers.get('X-Prev-Page')).toBe('1');
  });

  it('refuses URLs that are not http(s) and missing fields with 400', async () => {
    for (const bad of ['ftp://example.com/x', 'javascript:alert(1)', 'not a url', 'http://']) {
      const { status, body } = await call('maintainer', 'POST', projectPath(publicProject), {
        body: { link_url: bad, image_url: 'https://example.com/i.svg' },
      });
      expect(status, bad).toBe(400);
      expect(((body as ErrorBody).message as Record<string, string[]>).link_url).toHaveLength(1);
    }
    const image = await call('maintainer', 'POST', projectPath(publicProject), {
      body: { link_url: 'https://example.com', image_url: 'file:///etc/passwd' },
    });
    expect(image.status).toBe(400);
    expect(image.body).toMatchObject({ message: { image_url: [expect.any(String)] } });
    const missing = await call('maintainer', 'POST', projectPath(publicProject), {
      body: { link_url: 'https://example.com' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: expect.stringMatching(/image_url/) });

    const badge = await addBadge(projectPath(publicProject), `valid-${RUN}`);
    const update = await call('maintainer', 'PUT', projectPath(publicProject, `/${badge.id}`), {
      body: { image_url: 'ftp://example.com/i.svg' },
    });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ message: { image_url: [expect.any(String)] } });
    const after = await call('maintainer', 'GET', projectPath(publicProject, `/${badge.id}`));
    expect((after.body as Badge).image_url).toBe(IMAGE);
  });

  it('answers 404 for an unknown badge and for a badge of another project', async () => {
    const other = await addBadge(projectPath(privateProject), `other-${RUN}`);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? { name: 'x' } : undefined;
      expect(
        (await call('maintainer', method, projectPath(publicProject, `/${other.id}`), { body })).status,
      ).toBe(404);
      expect(
        (await call('maintainer', method, projectPath(publicProject, '/999999999'), { body })).status,
      ).toBe(404);
    }
    expect((await call('maintainer', 'GET', projectPath(privateProject, `/${other.id}`))).status).toBe(200);
  });

  it('previews a badge (render) with the project values, without creating it', async () => {
    const values = await expectedValues(publicProject);
    const id = await projectIdOf(publicProject);
    const before = await call('maintainer', 'GET', projectPath(publicProject));
    const { data, response } = await target.as('reporter').GET('/projects/{id}/badges/render', {
      params: { path: { id: publicProject }, query: { link_url: LINK, image_url: IMAGE } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ link_url: LINK, image_url: IMAGE, ...renderedFor(values, id) });
    const after = await call('maintainer', 'GET', projectPath(publicProject));
    expect(after.headers.get('X-Total')).toBe(before.headers.get('X-Total'));
    // The URL-encoded form of a placeholder is replaced too; unknown placeholders stay.
    const encoded = await call('reporter', 'GET', projectPath(publicProject, '/render'), {
      query: {
        link_url: 'https://x.example/%25%7Bproject_id%7D/%{unknown}',
        image_url: 'https://x.example/i',
      },
    });
    expect(encoded.body).toMatchObject({ rendered_link_url: `https://x.example/${id}/%{unknown}` });
    const bad = await call('reporter', 'GET', projectPath(publicProject, '/render'), {
      query: { link_url: 'ftp://x.example', image_url: 'https://x.example/i' },
    });
    expect(bad.status).toBe(400);
    const missing = await call('reporter', 'GET', projectPath(publicProject, '/render'), {
      query: { link_url: 'https://x.example' },
    });
    expect(missing.status).toBe(400);
  });
});

describe('group badges', () => {
  it('adds, reads, lists, updates and deletes a group badge, rendered with the group first project', async () => {
    const badge = await addBadge(groupPath(namespace), `group-${RUN}`);
    expect(badge).toMatchObject({ name: `group-${RUN}`, link_url: LINK, image_url: IMAGE, kind: 'group' });
    // The values are those of a project of the group: the same as that project's own preview.
    const firstProject = badge.rendered_link_url.replace('https://ci.example.com/', '').split('/-/')[0] ?? '';
    expect(firstProject.startsWith(`${namespace}/`)).toBe(true);
    if (target.dataDir) expect(firstProject).toBe(publicProject); // the demo's oldest project of `acme`
    const preview = await call('maintainer', 'GET', projectPath(firstProject, '/render'), {
      query: { link_url: LINK, image_url: IMAGE },
    });
    expect(preview.body).toMatchObject({
      rendered_link_url: badge.rendered_link_url,
      rendered_image_url: badge.rendered_image_url,
    });
    const groupPreview = await call('reporter', 'GET', groupPath(namespace, '/render'), {
      query: { link_url: LINK, image_url: IMAGE },
    });
    expect(groupPreview.status).toBe(200);
    expect(groupPreview.body).toEqual(preview.body);

    const one = await target.as('guest').GET('/groups/{id}/badges/{badge_id}', {
      params: { path: { id: namespace, badge_id: badge.id } },
    });
    expect(one.data).toEqual(badge);
    const list = await target.as('anonymous').GET('/groups/{id}/badges', {
      params: { path: { id: namespace }, query: { name: `group-${RUN}` } },
    });
    expect(list.data).toEqual([badge]);
    expect(list.response.headers.get('X-Total')).toBe('1');

    const changed = await call('maintainer', 'PUT', groupPath(namespace, `/${badge.id}`), {
      body: { image_url: 'https://example.com/static.svg' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      image_url: 'https://example.com/static.svg',
      rendered_image_url: 'https://example.com/static.svg',
      kind: 'group',
    });
    expect((await call('maintainer', 'DELETE', groupPath(namespace, `/${badge.id}`))).status).toBe(204);
    expect((await call('maintainer', 'GET', groupPath(namespace, `/${badge.id}`))).status).toBe(404);
  });

  it("shows the group's and its ancestors' badges in a project's list with kind group", async () => {
    const top = await addBadge(groupPath(namespace), `inherited-${RUN}`);
    const sub = await addBadge(groupPath(hiddenGroup), `inherited-${RUN}`);
    const own = await addBadge(projectPath(subgroupProject), `inherited-${RUN}`);
    const values = await expectedValues(subgroupProject);
    const id = await projectIdOf(subgroupProject);
    const { status, body } = await call('maintainer', 'GET', projectPath(subgroupProject), {
      query: { name: `inherited-${RUN}` },
    });
    expect(status).toBe(200);
    const badges = body as Badge[];
    expect(badges.map((badge) => [badge.id, badge.kind])).toEqual([
      [top.id, 'group'],
      [sub.id, 'group'],
      [own.id, 'project'],
    ]);
    // Each rendered with the project's values, not the group's first project.
    for (const badge of badges) expect(badge).toMatchObject(renderedFor(values, id));
    // The public project of the top group sees the top group's badge only.
    const fromTop = await call('guest', 'GET', projectPath(publicProject), {
      query: { name: `inherited-${RUN}` },
    });
    expect((fromTop.body as Badge[]).map((badge) => badge.id)).toEqual([top.id]);
    // A group's own list holds only its badges.
    const groupList = await call('maintainer', 'GET', groupPath(hiddenGroup), {
      query: { name: `inherited-${RUN}` },
    });
    expect((groupList.body as Badge[]).map((badge) => badge.id)).toEqual([sub.id]);
  });

  it('reads a group badge through a project, but changes or deletes it only through the group', async () => {
    const badge = await addBadge(groupPath(namespace), `group-only-${RUN}`);
    const read = await call('maintainer', 'GET', projectPath(publicProject, `/${badge.id}`));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: badge.id, kind: 'group' });
    for (const role of ['maintainer', 'owner', 'admin'] as const) {
      const update = await call(role, 'PUT', projectPath(publicProject, `/${badge.id}`), {
        body: { link_url: 'https://evil.example.com' },
      });
      expect(update.status, role).toBe(403);
      const deletion = await call(role, 'DELETE', projectPath(publicProject, `/${badge.id}`));
      expect(deletion.status, role).toBe(403);
      expect(deletion.body).toMatchObject({ message: expect.stringMatching(/Group endpoint/) });
    }
    const still = await call('maintainer', 'GET', groupPath(namespace, `/${badge.id}`));
    expect(still.body).toMatchObject({ id: badge.id, link_url: LINK });
    // A group's endpoints do not reach a badge of another group or of a project.
    const own = await addBadge(projectPath(publicProject), `not-a-group-badge-${RUN}`);
    for (const id of [badge.id, own.id])
      expect((await call('admin', 'GET', groupPath(emptyGroup, `/${id}`))).status).toBe(404);
    expect((await call('maintainer', 'GET', groupPath(namespace, `/${own.id}`))).status).toBe(404);
    expect((await call('maintainer', 'DELETE', groupPath(namespace, `/${badge.id}`))).status).toBe(204);
  });

  it('returns the URLs unchanged for a group without projects', async () => {
    const badge = await addBadge(groupPath(emptyGroup), `empty-${RUN}`, 'admin');
    expect(badge).toMatchObject({ rendered_link_url: LINK, rendered_image_url: IMAGE, kind: 'group' });
    const preview = await call('admin', 'GET', groupPath(emptyGroup, '/render'), {
      query: { link_url: LINK, image_url: IMAGE },
    });
    expect(preview.body).toEqual({
      link_url: LINK,
      image_url: IMAGE,
      rendered_link_url: LINK,
      rendered_image_url: IMAGE,
    });
    expect((await call('admin', 'DELETE', groupPath(emptyGroup, `/${badge.id}`))).status).toBe(204);
  });

  it('refuses bad URLs and answers 404 for unknown groups and badges', async () => {
    const bad = await call('maintainer', 'POST', groupPath(namespace), {
      body: { link_url: 'https://example.com', image_url: 'gopher://example.com' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: { image_url: [expect.any(String)] } });
    expect((await call('maintainer', 'GET', groupPath(namespace, '/999999999'))).status).toBe(404);
    const unknown = await call('admin', 'GET', groupPath(`no-such-group-${RUN}`));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Group Not Found' });
  });
});

/* Who may do what ---------------------------------------------------------------------------------- */

const EVERYONE: readonly Caller[] = [
  'anonymous',
  'invalid',
  'outsider',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
];

/** The status a write answers: 401 without a valid token, 404 where invisible, 403 below maintainer. */
function writeStatus(caller: Caller, visibleToOutsider: boolean, success: number): number {
  if (caller === 'anonymous' || caller === 'invalid') return 401;
  if (caller === 'outsider') return visibleToOutsider ? 403 : 404;
  if (caller === 'guest' || caller === 'reporter' || caller === 'developer') return 403;
  return success;
}

/** The status a read of a private project or group answers. */
function privateReadStatus(caller: Caller): number {
  if (caller === 'invalid') return 401;
  if (caller === 'anonymous' || caller === 'outsider') return 404;
  return 200;
}

describe('access', () => {
  const sources = () => [
    { label: 'public project', path: projectPath(publicProject), visible: true },
    { label: 'private project', path: projectPath(privateProject), visible: false },
    { label: 'public group', path: groupPath(namespace), visible: true },
    { label: 'private group', path: groupPath(hiddenGroup), visible: false },
  ];

  it('adds, updates and deletes for maintainers, owners and administrators only (401/403/404 otherwise)', async () => {
    for (const source of sources()) {
      for (const caller of EVERYONE) {
        const label = `${source.label} ${caller}`;
        const created = await call(caller, 'POST', source.path, {
          body: {
            link_url: 'https://example.com',
            image_url: 'https://example.com/i.svg',
            name: `acl-${RUN}`,
          },
        });
        expect(created.status, `POST ${label}`).toBe(writeStatus(caller, source.visible, 201));
        const badge = await addBadge(source.path, `acl-${RUN}`);
        const updated = await call(caller, 'PUT', `${source.path}/${badge.id}`, {
          body: { name: `acl2-${RUN}` },
        });
        expect(updated.status, `PUT ${label}`).toBe(writeStatus(caller, source.visible, 200));
        const deleted = await call(caller, 'DELETE', `${source.path}/${badge.id}`);
        expect(deleted.status, `DELETE ${label}`).toBe(writeStatus(caller, source.visible, 204));
      }
    }
  });

  it('lets members read a private project or group and hides it from others (404)', async () => {
    for (const source of sources().filter((s) => !s.visible)) {
      const badge = await addBadge(source.path, `private-read-${RUN}`);
      for (const caller of EVERYONE) {
        const label = `${source.label} ${caller}`;
        const expected = privateReadStatus(caller);
        const list = await call(caller, 'GET', source.path, { query: { name: `private-read-${RUN}` } });
        expect(list.status, `list ${label}`).toBe(expected);
        if (expected === 200) expect((list.body as Badge[]).map((b) => b.id)).toEqual([badge.id]);
        expect((await call(caller, 'GET', `${source.path}/${badge.id}`)).status, `get ${label}`).toBe(
          expected,
        );
        const render = await call(caller, 'GET', `${source.path}/render`, {
          query: { link_url: 'https://example.com', image_url: 'https://example.com/i.svg' },
        });
        // The preview needs a signed-in caller (GitLab authenticates it): 401 before the 404.
        expect(render.status, `render ${label}`).toBe(caller === 'anonymous' ? 401 : expected);
      }
    }
  });

  it('lets anyone read the badges of a public project or group; the preview needs a token', async () => {
    for (const source of sources().filter((s) => s.visible)) {
      const badge = await addBadge(source.path, `public-read-${RUN}`);
      for (const caller of EVERYONE) {
        const expected = caller === 'invalid' ? 401 : 200;
        const label = `${source.label} ${caller}`;
        expect((await call(caller, 'GET', source.path)).status, `list ${label}`).toBe(expected);
        expect((await call(caller, 'GET', `${source.path}/${badge.id}`)).status, `get ${label}`).toBe(
          expected,
        );
        const render = await call(caller, 'GET', `${source.path}/render`, {
          query: { link_url: 'https://example.com', image_url: 'https://example.com/i.svg' },
        });
        expect(render.status, `render ${label}`).toBe(caller === 'anonymous' ? 401 : expected);
      }
    }
  });
});

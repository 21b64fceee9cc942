// Snippets (document 2, 4.5 and 4.6; GitLab v4 where the seeds are silent): personal snippets under
// /snippets and project snippets under /projects/:id/snippets. Create (one-file and multi-file forms), read,
// raw content, lists, update (fields and file actions), delete, the administrators' user-agent detail, the
// visibility rules and the 401/403/404 matrix of the roles.
//
// On a shared server the file only reads what it made itself (names carry RUN) and deletes its snippets at
// the end; the project whose snippets are switched off is a new project of this run.
import type { components, operations } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A personal snippet (`/snippets`) or a project's (`/projects/:id/snippets`). */
type SnippetBody = components['schemas']['Snippet'] | components['schemas']['ProjectSnippet'];
type UserAgentDetail = components['schemas']['SnippetUserAgentDetail'];
type Project = components['schemas']['ProjectFull'];
/** A single project read: the full form for signed-in callers, the summary form otherwise. */
type ProjectRead = operations['getProject']['responses'][200]['content']['application/json'];

let target: Target;
let publicProject: string;
let privateProject: string;
/** Snippets this file made, deleted again at the end: [path prefix, id]. */
const made: [string, number][] = [];

const enc = encodeURIComponent;

async function expectStatus<T = SnippetBody>(
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

async function statusOf(caller: Caller, method: Method, path: string, json?: Record<string, unknown>) {
  return (await callAs(target, caller, path, { method, json })).status;
}

/** A GET of raw content (text/plain) as `caller`, with an optional User-Agent. */
async function rawAs(caller: Caller, path: string): Promise<{ status: number; text: string; type: string }> {
  const headers: Record<string, string> = {};
  if (caller === 'invalid') headers['PRIVATE-TOKEN'] = `no-such-token-${RUN}`;
  else if (caller !== 'anonymous') headers['PRIVATE-TOKEN'] = target.config.tokens[caller];
  const response = await target.fetch(`${target.config.baseUrl}/api/v4${path}`, { headers });
  return {
    status: response.status,
    text: await response.text(),
    type: response.headers.get('content-type') ?? '',
  };
}

/** Creates a snippet at `collection` (`/snippets` or a project's) with a User-Agent of this run. */
async function createWithAgent(
  caller: Caller,
  collection: string,
  json: Record<string, unknown>,
): Promise<SnippetBody> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `conformance-snippets/${RUN}`,
  };
  if (caller !== 'anonymous' && caller !== 'invalid') headers['PRIVATE-TOKEN'] = target.config.tokens[caller];
  const response = await target.fetch(`${target.config.baseUrl}/api/v4${collection}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(json),
  });
  const body = (await response.json()) as SnippetBody;
  expect(response.status, JSON.stringify(body)).toBe(201);
  made.push([collection, body.id]);
  return body;
}

async function create(
  caller: Caller,
  collection: string,
  json: Record<string, unknown>,
): Promise<SnippetBody> {
  const body = await expectStatus(caller, 'POST', collection, 201, { json });
  made.push([collection, body.id]);
  return body;
}

const personal = (visibility: string, extra: Record<string, unknown> = {}) => ({
  title: `${visibility} snippet ${RUN}`,
  file_name: 'notes.md',
  content: `# ${visibility} ${RUN}\n`,
  visibility,
  ...extra,
});

/** Every snippet ID of a list, read through its pages. */
async function listIds(caller: Caller, path: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const response = await callAs<SnippetBody[]>(target, caller, path, {
      query: { per_page: '100', page: String(page) },
    });
    expect(response.status).toBe(200);
    ids.push(...response.body.map((snippet) => snippet.id));
    if (!response.headers.get('X-Next-Page')) return ids;
  }
}

beforeAll(async () => {
  target = await openTarget();
  publicProject = enc(target.config.fixtures.publicProject);
  privateProject = enc(target.config.fixtures.privateProject);
}, 60_000);

afterAll(async () => {
  if (!target) return;
  for (const [collection, id] of made)
    await callAs(target, 'admin', `${collection}/${id}`, { method: 'DELETE' });
  await target.close();
});

describe('personal snippets', () => {
  it('creates a one-file snippet (private by default) and reads it back', async () => {
    const { developer } = target.config.fixtures.users;
    const snippet = await create('developer', '/snippets', {
      title: `aliases ${RUN}`,
      file_name: 'aliases.sh',
      content: "alias ll='ls -l'\n",
      description: 'Shell aliases',
    });
    expect(snippet).toMatchObject({
      title: `aliases ${RUN}`,
      file_name: 'aliases.sh',
      description: 'Shell aliases',
      visibility: 'private',
      project_id: null,
      author: { id: developer.id, username: developer.username },
    });
    expect(snippet.web_url).toMatch(new RegExp(`/-/snippets/${snippet.id}$`));
    expect(snippet.raw_url).toBe(`${snippet.web_url}/raw`);
    expect(snippet.files?.map((file) => file.path)).toEqual(['aliases.sh']);
    expect(await expectStatus('developer', 'GET', `/snippets/${snippet.id}`, 200)).toEqual(snippet);
    const raw = await rawAs('developer', `/snippets/${snippet.id}/raw`);
    expect(raw).toMatchObject({ status: 200, text: "alias ll='ls -l'\n" });
    expect(raw.type).toMatch(/^text\/plain/);
  });

  it('takes a form body and the multi-file form', async () => {
    const form = await expectStatus('reporter', 'POST', '/snippets', 201, {
      form: { title: `form ${RUN}`, file_name: 'a.txt', content: 'from a form', visibility: 'internal' },
    });
    made.push(['/snippets', form.id]);
    expect(form).toMatchObject({ visibility: 'internal', file_name: 'a.txt' });

    const multi = await create('reporter', '/snippets', {
      title: `multi ${RUN}`,
      visibility: 'public',
      files: [
        { file_path: 'z/last.rb', content: 'puts 2' },
        { file_path: 'first.rb', content: 'puts 1' },
      ],
    });
    // The first file by path names the snippet and gives its raw content.
    expect(multi.file_name).toBe('first.rb');
    expect(multi.files?.map((file) => file.path)).toEqual(['first.rb', 'z/last.rb']);
    expect(multi.files?.[1]?.raw_url).toBe(`${multi.web_url}/raw/main/z/last.rb`);
    expect((await rawAs('anonymous', `/snippets/${multi.id}/raw`)).text).toBe('puts 1');
  });

  it('refuses bad creates with 400 and callers without a valid token with 401', async () => {
    const bad: Record<string, unknown>[] = [
      { file_name: 'a.txt', content: 'x' },
      { title: '   ', file_name: 'a.txt', content: 'x' },
      { title: `t ${RUN}`, file_name: 'a.txt' },
      { title: `t ${RUN}`, content: 'x' },
      { title: `t ${RUN}`, file_name: 'a.txt', content: '  ' },
      { title: `t ${RUN}`, file_name: 'a.txt', content: 'x', files: [{ file_path: 'b.txt', content: 'y' }] },
      { title: `t ${RUN}`, files: [] },
      { title: `t ${RUN}`, files: [{ file_path: '../escape', content: 'y' }] },
      {
        title: `t ${RUN}`,
        files: [
          { file_path: 'same', content: 'y' },
          { file_path: 'same', content: 'z' },
        ],
      },
      { title: `t ${RUN}`, file_name: 'a.txt', content: 'x', visibility: 'secret' },
    ];
    for (const json of bad)
      expect(await statusOf('developer', 'POST', '/snippets', json), JSON.stringify(json)).toBe(400);
    expect(await statusOf('anonymous', 'POST', '/snippets', personal('public'))).toBe(401);
    expect(await statusOf('invalid', 'POST', '/snippets', personal('public'))).toBe(401);
    expect(await statusOf('revoked', 'POST', '/snippets', personal('public'))).toBe(401);
  });

  it('shows each visibility to whom it should', async () => {
    const privateOne = await create('developer', '/snippets', personal('private'));
    const internalOne = await create('developer', '/snippets', personal('internal'));
    const publicOne = await create('developer', '/snippets', personal('public'));
    const matrix: [number, Caller, number][] = [
      [privateOne.id, 'developer', 200],
      [privateOne.id, 'admin', 200],
      [privateOne.id, 'owner', 404],
      [privateOne.id, 'outsider', 404],
      [internalOne.id, 'outsider', 200],
      [publicOne.id, 'outsider', 200],
      [publicOne.id, 'anonymous', 401],
      [publicOne.id, 'invalid', 401],
    ];
    for (const [id, caller, status] of matrix)
      expect(await statusOf(caller, 'GET', `/snippets/${id}`), `${caller} ${id}`).toBe(status);
    expect((await rawAs('anonymous', `/snippets/${publicOne.id}/raw`)).status).toBe(200);
    expect((await rawAs('anonymous', `/snippets/${internalOne.id}/raw`)).status).toBe(404);
    expect((await rawAs('outsider', `/snippets/${privateOne.id}/raw`)).status).toBe(404);
    expect((await rawAs('outsider', `/snippets/${internalOne.id}/raw`)).status).toBe(200);

    // The caller's list holds their own snippets only; the public list the public ones.
    const own = await listIds('developer', '/snippets');
    expect(own).toEqual(expect.arrayContaining([privateOne.id, internalOne.id, publicOne.id]));
    expect(await listIds('outsider', '/snippets')).not.toContain(publicOne.id);
    const publicIds = await listIds('outsider', '/snippets/public');
    expect(publicIds).toContain(publicOne.id);
    expect(publicIds).not.toContain(privateOne.id);
    expect(publicIds).not.toContain(internalOne.id);
    expect(await statusOf('anonymous', 'GET', '/snippets')).toBe(401);
    expect(await statusOf('anonymous', 'GET', '/snippets/public')).toBe(401);
  });

  it("pages the caller's list", async () => {
    await create('guest', '/snippets', personal('private', { title: `page one ${RUN}` }));
    await create('guest', '/snippets', personal('private', { title: `page two ${RUN}` }));
    const response = await callAs<SnippetBody[]>(target, 'guest', '/snippets', { query: { per_page: '1' } });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    expect(Number(response.headers.get('X-Total'))).toBeGreaterThanOrEqual(2);
    expect(response.headers.get('X-Next-Page')).toBe('2');
    // Newest first.
    expect(response.body[0]?.title).toBe(`page two ${RUN}`);
  });

  it('updates fields for the author and administrators only', async () => {
    const snippet = await create('developer', '/snippets', personal('public'));
    const path = `/snippets/${snippet.id}`;
    const updated = await expectStatus('developer', 'PUT', path, 200, {
      json: {
        title: `renamed ${RUN}`,
        description: 'now described',
        visibility: 'internal',
        file_name: 'b.md',
      },
    });
    expect(updated).toMatchObject({
      title: `renamed ${RUN}`,
      description: 'now described',
      visibility: 'internal',
      file_name: 'b.md',
    });
    expect((await rawAs('developer', `${path}/raw`)).text).toBe(`# public ${RUN}\n`);
    await expectStatus('developer', 'PUT', path, 200, { json: { content: 'new content' } });
    expect((await rawAs('developer', `${path}/raw`)).text).toBe('new content');
    expect(
      (await expectStatus('admin', 'PUT', path, 200, { json: { title: `by admin ${RUN}` } })).title,
    ).toBe(`by admin ${RUN}`);
    expect(await statusOf('outsider', 'PUT', path, { title: 'x' })).toBe(403);
    expect(await statusOf('anonymous', 'PUT', path, { title: 'x' })).toBe(401);
    expect(await statusOf('developer', 'PUT', path, {})).toBe(400);
    expect(await statusOf('developer', 'PUT', path, { title: '' })).toBe(400);
    expect(await statusOf('developer', 'PUT', path, { visibility: 'secret' })).toBe(400);
    expect(await statusOf('developer', 'PUT', '/snippets/999999999', { title: 'x' })).toBe(404);
    const privateOne = await create('developer', '/snippets', personal('private'));
    expect(await statusOf('outsider', 'PUT', `/snippets/${privateOne.id}`, { title: 'x' })).toBe(404);
  });

  it('changes files with create, update, move and delete actions', async () => {
    const snippet = await create('developer', '/snippets', personal('private'));
    const path = `/snippets/${snippet.id}`;
    const step = (files: Record<string, unknown>[], status = 200) =>
      expectStatus('developer', 'PUT', path, status, { json: { files } });

    let body = await step([{ action: 'create', file_path: 'a.txt', content: 'A' }]);
    expect(body.files?.map((file) => file.path)).toEqual(['a.txt', 'notes.md']);
    expect(body.file_name).toBe('a.txt');
    body = await step([{ action: 'update', file_path: 'a.txt', previous_path: 'a.txt', content: 'A2' }]);
    expect((await rawAs('developer', `${path}/raw`)).text).toBe('A2');
    body = await step([{ action: 'move', previous_path: 'a.txt', file_path: 'z.txt' }]);
    expect(body.files?.map((file) => file.path)).toEqual(['notes.md', 'z.txt']);
    body = await step([{ action: 'delete', file_path: 'notes.md' }]);
    expect(body.files?.map((file) => file.path)).toEqual(['z.txt']);
    expect((await rawAs('developer', `${path}/raw`)).text).toBe('A2');

    // Actions that do not fit: 422 for invalid data, 400 against the files there are.
    await step([{ action: 'create', file_path: 'new.txt' }], 422);
    await step([{ action: 'move', file_path: 'z.txt' }], 422);
    await step([{ action: 'update', file_path: 'z.txt', previous_path: 'y.txt', content: 'c' }], 422);
    await step([{ action: 'create', file_path: 'z.txt', content: 'again' }], 400);
    await step([{ action: 'delete', file_path: 'missing.txt' }], 400);
    await step([{ action: 'delete', file_path: 'z.txt' }], 400);
    await step([{ action: 'rename', file_path: 'z.txt' }], 400);
    // `files` with `content` or `file_name` is a 400; so is `content` on a snippet of several files.
    expect(
      await statusOf('developer', 'PUT', path, {
        files: [{ action: 'delete', file_path: 'z.txt' }],
        content: 'x',
      }),
    ).toBe(400);
    await step([{ action: 'create', file_path: 'second.txt', content: 'S' }]);
    expect(await statusOf('developer', 'PUT', path, { content: 'x' })).toBe(400);
    expect(await statusOf('developer', 'PUT', path, { file_name: 'x' })).toBe(400);
  });

  it('deletes for the author (204), then 404', async () => {
    const snippet = await create('developer', '/snippets', personal('public'));
    const path = `/snippets/${snippet.id}`;
    expect(await statusOf('outsider', 'DELETE', path)).toBe(403);
    expect(await statusOf('anonymous', 'DELETE', path)).toBe(401);
    expect(await statusOf('developer', 'DELETE', path)).toBe(204);
    expect(await statusOf('developer', 'DELETE', path)).toBe(404);
    expect(await statusOf('developer', 'GET', path)).toBe(404);
  });

  it('shows the user-agent detail to administrators only', async () => {
    const snippet = await createWithAgent('developer', '/snippets', personal('public'));
    const path = `/snippets/${snippet.id}/user_agent_detail`;
    const detail = await expectStatus<UserAgentDetail>('admin', 'GET', path, 200);
    expect(detail.user_agent).toBe(`conformance-snippets/${RUN}`);
    expect(detail.ip_address).not.toBe('');
    expect(detail.akismet_submitted).toBe(false);
    expect(await statusOf('developer', 'GET', path)).toBe(403);
    expect(await statusOf('anonymous', 'GET', path)).toBe(401);
    expect(await statusOf('admin', 'GET', '/snippets/999999999/user_agent_detail')).toBe(404);
  });
});

describe('project snippets', () => {
  const collection = (project: string) => `/projects/${project}/snippets`;
  const projectSnippet = (visibility: string) => ({
    title: `${visibility} project snippet ${RUN}`,
    file_name: 'add.rb',
    content: 'def add(a, b) = a + b\n',
    visibility,
  });

  it('creates for reporters and above: the 401/403/404 matrix', async () => {
    const expected: [string, Caller, number][] = [
      [privateProject, 'anonymous', 401],
      [privateProject, 'invalid', 401],
      [privateProject, 'outsider', 404],
      [privateProject, 'guest', 403],
      [publicProject, 'outsider', 403],
      [publicProject, 'guest', 403],
      [publicProject, 'anonymous', 401],
    ];
    for (const [project, caller, status] of expected)
      expect(
        await statusOf(caller, 'POST', collection(project), projectSnippet('private')),
        `${caller} ${project}`,
      ).toBe(status);
    const { reporter } = target.config.fixtures.users;
    for (const caller of ['reporter', 'developer', 'maintainer', 'owner', 'admin'] as const) {
      const snippet = await create(caller, collection(privateProject), projectSnippet('private'));
      expect(snippet.visibility).toBe('private');
      if (caller === 'reporter') expect(snippet.author.id).toBe(reporter.id);
    }
    expect(
      await statusOf('reporter', 'POST', collection(privateProject), {
        title: 'no visibility',
        file_name: 'a',
        content: 'b',
      }),
    ).toBe(400);
    expect(await statusOf('reporter', 'POST', collection('999999999'), projectSnippet('private'))).toBe(404);
  });

  it("reads by the snippet's and the project's visibility", async () => {
    const privateOne = await create('reporter', collection(publicProject), projectSnippet('private'));
    const internalOne = await create('reporter', collection(publicProject), projectSnippet('internal'));
    const publicOne = await create('reporter', collection(publicProject), {
      title: `files ${RUN}`,
      visibility: 'public',
      files: [{ file_path: 'lib/one.rb', content: 'one' }],
    });
    const { id: projectId } = await expectStatus<ProjectRead>(
      'owner',
      'GET',
      `/projects/${publicProject}`,
      200,
    );
    expect(publicOne).toMatchObject({ project_id: projectId, file_name: 'lib/one.rb' });
    expect(publicOne.web_url).toMatch(
      new RegExp(`/${target.config.fixtures.publicProject}/-/snippets/${publicOne.id}$`),
    );
    const one = (id: number) => `${collection(publicProject)}/${id}`;
    const matrix: [number, Caller, number][] = [
      [privateOne.id, 'guest', 200],
      [privateOne.id, 'reporter', 200],
      [privateOne.id, 'outsider', 404],
      [privateOne.id, 'anonymous', 404],
      [internalOne.id, 'outsider', 200],
      [internalOne.id, 'anonymous', 404],
      [publicOne.id, 'anonymous', 200],
      [publicOne.id, 'invalid', 401],
    ];
    for (const [id, caller, status] of matrix)
      expect(await statusOf(caller, 'GET', one(id)), `${caller} ${id}`).toBe(status);
    expect((await rawAs('anonymous', `${one(publicOne.id)}/raw`)).text).toBe('one');
    expect((await rawAs('anonymous', `${one(privateOne.id)}/raw`)).status).toBe(404);
    expect((await rawAs('guest', `${one(privateOne.id)}/raw`)).text).toBe('def add(a, b) = a + b\n');

    const memberIds = await listIds('guest', collection(publicProject));
    expect(memberIds).toEqual(expect.arrayContaining([privateOne.id, internalOne.id, publicOne.id]));
    const outsiderIds = await listIds('outsider', collection(publicProject));
    expect(outsiderIds).toEqual(expect.arrayContaining([internalOne.id, publicOne.id]));
    expect(outsiderIds).not.toContain(privateOne.id);
    expect(await statusOf('anonymous', 'GET', collection(publicProject))).toBe(401);

    // A private project hides its snippets from non-members; project snippets are no personal snippets.
    const hidden = await create('reporter', collection(privateProject), projectSnippet('public'));
    expect(await statusOf('outsider', 'GET', `${collection(privateProject)}/${hidden.id}`)).toBe(404);
    expect(await statusOf('outsider', 'GET', collection(privateProject))).toBe(404);
    expect(await statusOf('reporter', 'GET', `/snippets/${hidden.id}`)).toBe(404);
    expect(await statusOf('reporter', 'GET', `${collection(publicProject)}/${hidden.id}`)).toBe(404);
  });

  it('lets the author (reporter and above), maintainers and administrators change and delete', async () => {
    const snippet = await create('reporter', collection(publicProject), projectSnippet('public'));
    const path = `${collection(publicProject)}/${snippet.id}`;
    const expected: [Caller, number][] = [
      ['anonymous', 401],
      ['outsider', 403],
      ['guest', 403],
      ['developer', 403],
      ['reporter', 200],
      ['maintainer', 200],
      ['admin', 200],
    ];
    for (const [caller, status] of expected)
      expect(await statusOf(caller, 'PUT', path, { title: `by ${caller} ${RUN}` }), caller).toBe(status);
    const updated = await expectStatus('reporter', 'PUT', path, 200, {
      json: { files: [{ action: 'create', file_path: 'more.rb', content: 'more' }], visibility: 'internal' },
    });
    expect(updated.files?.map((file) => file.path)).toEqual(['add.rb', 'more.rb']);
    expect(updated.visibility).toBe('internal');
    expect(await statusOf('reporter', 'PUT', path, {})).toBe(400);

    for (const [caller, status] of [
      ['anonymous', 401],
      ['outsider', 403],
      ['developer', 403],
    ] as const)
      expect(await statusOf(caller, 'DELETE', path), caller).toBe(status);
    expect(await statusOf('maintainer', 'DELETE', path)).toBe(204);
    expect(await statusOf('maintainer', 'DELETE', path)).toBe(404);
    expect(await statusOf('maintainer', 'PUT', path, { title: 'x' })).toBe(404);
  });

  it('shows the user-agent detail to administrators only', async () => {
    const snippet = await createWithAgent('developer', collection(privateProject), projectSnippet('private'));
    const path = `${collection(privateProject)}/${snippet.id}/user_agent_detail`;
    const detail = await expectStatus<UserAgentDetail>('admin', 'GET', path, 200);
    expect(detail.user_agent).toBe(`conformance-snippets/${RUN}`);
    expect(await statusOf('maintainer', 'GET', path)).toBe(403);
    expect(await statusOf('anonymous', 'GET', path)).toBe(401);
    expect(await statusOf('admin', 'GET', `${collection(privateProject)}/999999999/user_agent_detail`)).toBe(
      404,
    );
  });

  it("answers 403 when the project's snippets are switched off", async () => {
    const namespace = await expectStatus<components['schemas']['GroupDetails']>(
      'owner',
      'GET',
      `/groups/${enc(target.config.fixtures.namespace)}`,
      200,
    );
    const project = await expectStatus<Project>('owner', 'POST', '/projects', 201, {
      json: {
        path: `no-snippets-${RUN}`,
        namespace_id: namespace.id,
        visibility: 'public',
        snippets_enabled: false,
      },
    });
    expect(project.snippets_enabled).toBe(false);
    const id = String(project.id);
    expect(await statusOf('owner', 'GET', collection(id))).toBe(403);
    expect(await statusOf('owner', 'POST', collection(id), projectSnippet('public'))).toBe(403);
    expect(await statusOf('anonymous', 'GET', `${collection(id)}/1`)).toBe(403);
    await expectStatus('owner', 'DELETE', `/projects/${id}`, 202);
  });
});

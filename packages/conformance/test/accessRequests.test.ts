// Access requests of groups and projects (document 2, section 4.10): request, list, approve and deny or
// withdraw, the 401/403/404 matrix of every role, duplicates, the default level and the effect of an
// approval at once.
//
// On a shared server the file leaves nothing behind that another file (or a second run) would notice: the
// requests it makes on the fixtures are denied or withdrawn again, and the approvals go to projects it
// imports under new paths. The one approval into a fixture group (which makes the outsider a member, for
// good) runs on a server of its own, last.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  type FixtureUser,
  openTarget,
  type Role,
  RUN,
  type Target,
} from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { ownServer } from './ownServer.js';
import { waitFor } from './waitFor.js';

type Kind = 'groups' | 'projects';
type AccessRequest = components['schemas']['AccessRequest'];
type ExportStatus = components['schemas']['ProjectExportStatus'];
type ImportStatus = components['schemas']['ProjectImportStatus'];

let target: Target;
/** Encoded paths of the fixtures. */
let publicProject: string;
let privateProject: string;
let namespace: string;
let hiddenGroup: string;
let outsider: FixtureUser;
let guest: FixtureUser;

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  publicProject = encodeURIComponent(fixtures.publicProject);
  privateProject = encodeURIComponent(fixtures.privateProject);
  namespace = encodeURIComponent(fixtures.namespace);
  hiddenGroup = encodeURIComponent(fixtures.hiddenGroup);
  ({ outsider, guest } = fixtures.users);
});

afterAll(async () => {
  // A failed test may have left the outsider's requests pending: withdrawn, so no later file sees them.
  if (target) {
    await call('outsider', 'DELETE', `/projects/${publicProject}/access_requests/${outsider.id}`);
    await call('outsider', 'DELETE', `/groups/${namespace}/access_requests/${outsider.id}`);
    await target.close();
  }
});

/** One request as `caller` with a JSON body or a form (callAs validates every response). */
const call = (
  caller: Caller,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: { json?: Record<string, unknown>; form?: Record<string, string> },
) => callAs(target, caller, path, { method, json: body?.json, form: body?.form });

const requests = (kind: Kind, id: string) => `/${kind}/${id}/access_requests`;
const one = (kind: Kind, id: string, userId: number) => `${requests(kind, id)}/${userId}`;
const approval = (kind: Kind, id: string, userId: number) => `${one(kind, id, userId)}/approve`;

async function statuses(callers: readonly Caller[], method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string) {
  const answers: Record<string, number> = {};
  for (const caller of callers) answers[caller] = (await call(caller, method, path)).status;
  return answers;
}

/** The user IDs of a source's pending requests, read through every page. */
async function pendingIds(kind: Kind, id: string, as: Role): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { status, body, headers } = await call(
      as,
      'GET',
      `${requests(kind, id)}?per_page=100&page=${page}`,
    );
    expect(status).toBe(200);
    ids.push(...(body as AccessRequest[]).map((request) => request.id));
    if (!headers.get('X-Next-Page')) return ids;
  }
}

/** The outsider asks to join and gets the request back. */
async function outsiderRequests(kind: Kind, id: string): Promise<void> {
  const before = Date.now();
  const { status, body } = await call('outsider', 'POST', requests(kind, id));
  expect(status, JSON.stringify(body)).toBe(201);
  expect(body).toMatchObject({ id: outsider.id, username: outsider.username, name: outsider.name });
  const requestedAt = Date.parse((body as AccessRequest).requested_at);
  expect(requestedAt).toBeGreaterThanOrEqual(before - 60_000);
}

describe.each([
  ['projects', 'maintainer'],
  ['groups', 'owner'],
] as const)('access requests of %s', (kind, manager) => {
  let source: string;
  let hidden: string;
  beforeAll(() => {
    source = kind === 'projects' ? publicProject : namespace;
    hidden = kind === 'projects' ? privateProject : hiddenGroup;
  });

  it('needs a valid token for every operation (401)', async () => {
    for (const [method, path] of [
      ['GET', requests(kind, source)],
      ['POST', requests(kind, source)],
      ['PUT', approval(kind, source, outsider.id)],
      ['DELETE', one(kind, source, outsider.id)],
    ] as const) {
      expect(await statuses(['anonymous', 'invalid', 'revoked'], method, path), `${method} ${path}`).toEqual({
        anonymous: 401,
        invalid: 401,
        revoked: 401,
      });
    }
  });

  it('hides a private source and an unknown one from who may not see them (404)', async () => {
    for (const [method, path] of [
      ['GET', requests(kind, hidden)],
      ['POST', requests(kind, hidden)],
      ['PUT', approval(kind, hidden, outsider.id)],
      ['DELETE', one(kind, hidden, outsider.id)],
    ] as const) {
      expect((await call('outsider', method, path)).status, `${method} ${path}`).toBe(404);
    }
    const unknown = encodeURIComponent(`no-such-${kind}-${RUN}`);
    expect((await call('admin', 'GET', requests(kind, unknown))).status).toBe(404);
    expect((await call('outsider', 'POST', requests(kind, unknown))).status).toBe(404);
    expect((await call('admin', 'GET', requests(kind, '999999999'))).status).toBe(404);
  });

  it('refuses a request from whoever has access already: members, inherited members and admins (400)', async () => {
    for (const role of ['guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'] as const) {
      const { status, body } = await call(role, 'POST', requests(kind, source));
      expect(status, role).toBe(400);
      expect(body).toEqual({ message: { user_id: ['already exists in source'] } });
    }
  });

  it('needs the api scope to request access (403 with a read_repository token)', async () => {
    const { status, body } = await call('developerReadRepository', 'POST', requests(kind, source));
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: 'insufficient_scope' });
  });

  it('records the outsider’s request once: a second one is a 400', async () => {
    await outsiderRequests(kind, source);
    const again = await call('outsider', 'POST', requests(kind, source));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { user_id: ['already exists in source'] } });
  });

  it(`lists the requests to ${manager}s and above, and answers 403 to the others`, async () => {
    const denied = [
      'outsider',
      'guest',
      'reporter',
      'developer',
      ...(kind === 'groups' ? ['maintainer'] : []),
    ];
    const allowed = [...(kind === 'projects' ? ['maintainer'] : []), 'owner', 'admin'];
    const expected = Object.fromEntries([
      ...denied.map((role) => [role, 403]),
      ...allowed.map((role) => [role, 200]),
    ]);
    expect(await statuses([...denied, ...allowed] as Role[], 'GET', requests(kind, source))).toEqual(
      expected,
    );
    const { body, headers } = await call(manager, 'GET', `${requests(kind, source)}?per_page=100`);
    const mine = (body as Record<string, unknown>[]).find((request) => request.id === outsider.id);
    expect(mine).toMatchObject({ username: outsider.username, name: outsider.name, state: 'active' });
    expect(Object.keys(mine ?? {}).sort()).toEqual([
      'created_at',
      'id',
      'name',
      'requested_at',
      'state',
      'username',
    ]);
    expect(headers.get('X-Per-Page')).toBe('100');
    expect(Number(headers.get('X-Total'))).toBeGreaterThanOrEqual(1);
  });

  it('reads one page of the list with the pagination headers', async () => {
    const { status, body, headers } = await call(
      manager,
      'GET',
      `${requests(kind, source)}?per_page=1&page=1`,
    );
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(headers.get('X-Page')).toBe('1');
    expect(headers.get('X-Per-Page')).toBe('1');
    expect(headers.get('Link')).toContain('rel="first"');
    const past = await call(manager, 'GET', `${requests(kind, source)}?per_page=1&page=99999`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  it('lets only those who manage members approve (403), and 404 for a user who did not ask', async () => {
    const denied = [
      'outsider',
      'guest',
      'reporter',
      'developer',
      ...(kind === 'groups' ? ['maintainer'] : []),
    ];
    const expected = Object.fromEntries(denied.map((role) => [role, 403]));
    expect(await statuses(denied as Role[], 'PUT', approval(kind, source, outsider.id))).toEqual(expected);
    expect((await call(manager, 'PUT', approval(kind, source, guest.id))).status).toBe(404);
    expect((await call(manager, 'PUT', approval(kind, source, 999_999_999))).status).toBe(404);
    // Still pending after all of them.
    expect(await pendingIds(kind, source, manager)).toContain(outsider.id);
  });

  it('refuses an access level that is no role (400), leaving the request pending', async () => {
    for (const access_level of [35, 60, 0]) {
      const { status } = await call(manager, 'PUT', approval(kind, source, outsider.id), {
        json: { access_level },
      });
      expect(status, String(access_level)).toBe(400);
    }
    expect(await pendingIds(kind, source, manager)).toContain(outsider.id);
  });

  it('lets only those who manage members deny another user’s request (403)', async () => {
    const denied = ['guest', 'reporter', 'developer', ...(kind === 'groups' ? ['maintainer'] : [])];
    const expected = Object.fromEntries(denied.map((role) => [role, 403]));
    expect(await statuses(denied as Role[], 'DELETE', one(kind, source, outsider.id))).toEqual(expected);
    // The outsider may withdraw their own request, not deny somebody else's.
    expect((await call('outsider', 'DELETE', one(kind, source, guest.id))).status).toBe(403);
    expect(await pendingIds(kind, source, manager)).toContain(outsider.id);
  });

  it(`denies the request (${manager}, 204): it is gone, and denying again is a 404`, async () => {
    expect((await call(manager, 'DELETE', one(kind, source, outsider.id))).status).toBe(204);
    expect(await pendingIds(kind, source, manager)).not.toContain(outsider.id);
    expect((await call(manager, 'DELETE', one(kind, source, outsider.id))).status).toBe(404);
    expect((await call(manager, 'PUT', approval(kind, source, outsider.id))).status).toBe(404);
  });

  it('lets the requester withdraw their own request (204) and ask again afterwards', async () => {
    await outsiderRequests(kind, source);
    expect((await call('outsider', 'DELETE', one(kind, source, outsider.id))).status).toBe(204);
    expect(await pendingIds(kind, source, 'admin')).not.toContain(outsider.id);
    expect((await call('outsider', 'DELETE', one(kind, source, outsider.id))).status).toBe(404);
    await outsiderRequests(kind, source);
    // An administrator denies too.
    expect((await call('admin', 'DELETE', one(kind, source, outsider.id))).status).toBe(204);
    expect(await pendingIds(kind, source, 'admin')).not.toContain(outsider.id);
  });

  it('answers 404 for a user_id beyond any user', async () => {
    expect((await call(manager, 'DELETE', one(kind, source, 0))).status).toBe(404);
    const huge = `${requests(kind, source)}/99999999999999999999`;
    expect([400, 404]).toContain((await call(manager, 'DELETE', huge)).status);
    expect([400, 404]).toContain((await call(manager, 'PUT', `${huge}/approve`)).status);
  });
});

/* Approvals, on projects of this run ------------------------------------------------------------------ */

/** The internal project exported once: the archive of every project this file imports. */
async function exportedArchive(): Promise<Buffer> {
  const id = encodeURIComponent(target.config.fixtures.internalProject);
  const started = await call('maintainer', 'POST', `/projects/${id}/export`);
  expect(started.status).toBe(202);
  await waitFor(
    'the export',
    async () => (await call('maintainer', 'GET', `/projects/${id}/export`)).body as ExportStatus,
    (state) => state.export_status === 'finished',
    30_000,
  );
  const response = await target.fetch(`${target.config.baseUrl}/api/v4/projects/${id}/export/download`, {
    headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** A project of this run in `namespace` (imported by the maintainer): its members are the namespace's. */
async function projectOfThisRun(archive: Buffer, path: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'export.tar.gz');
  form.set('namespace', target.config.fixtures.namespace);
  form.set('path', path);
  const response = await target.fetch(`${target.config.baseUrl}/api/v4/projects/import`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
    body: form,
  });
  const imported = (await response.json()) as ImportStatus;
  expect(response.status, JSON.stringify(imported)).toBe(201);
  await waitFor(
    `the import of ${path}`,
    async () => (await call('maintainer', 'GET', `/projects/${imported.id}/import`)).body as ImportStatus,
    (state) => state.import_status === 'finished' || state.import_status === 'failed',
    30_000,
  );
  return String(imported.id);
}

describe('approving a project access request', () => {
  let developerProject: string;
  let maintainerProject: string;

  beforeAll(async () => {
    const archive = await exportedArchive();
    developerProject = await projectOfThisRun(archive, `access-dev-${RUN}`);
    maintainerProject = await projectOfThisRun(archive, `access-maint-${RUN}`);
  }, 90_000);

  const createBranch = (project: string, branch: string) =>
    call('outsider', 'POST', `/projects/${project}/repository/branches`, { json: { branch, ref: 'main' } });

  it('makes the requester a developer by default, at once, and removes the request', async () => {
    // Before: the outsider sees the internal project but may not push to it.
    expect((await createBranch(developerProject, `before-${RUN}`)).status).toBe(403);
    await outsiderRequests('projects', developerProject);
    expect((await createBranch(developerProject, `pending-${RUN}`)).status).toBe(403);

    const { status, body } = await call(
      'maintainer',
      'PUT',
      approval('projects', developerProject, outsider.id),
    );
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      id: outsider.id,
      username: outsider.username,
      name: outsider.name,
      state: 'active',
      access_level: 30,
    });

    expect(await pendingIds('projects', developerProject, 'maintainer')).not.toContain(outsider.id);
    expect(
      (await call('maintainer', 'PUT', approval('projects', developerProject, outsider.id))).status,
    ).toBe(404);
    // A member now: a new request is refused, and developer work is allowed.
    expect((await call('outsider', 'POST', requests('projects', developerProject))).status).toBe(400);
    expect((await createBranch(developerProject, `after-${RUN}`)).status).toBe(201);
    // Still no maintainer: the access requests stay closed to the new developer.
    expect((await call('outsider', 'GET', requests('projects', developerProject))).status).toBe(403);
  });

  it('grants the access_level given (a form field), and only an owner grants Owner', async () => {
    await outsiderRequests('projects', maintainerProject);
    expect((await call('outsider', 'GET', requests('projects', maintainerProject))).status).toBe(403);
    const asOwner = await call('maintainer', 'PUT', approval('projects', maintainerProject, outsider.id), {
      form: { access_level: '50' },
    });
    expect(asOwner.status).toBe(403);
    const { status, body } = await call(
      'maintainer',
      'PUT',
      approval('projects', maintainerProject, outsider.id),
      {
        form: { access_level: '40' },
      },
    );
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: outsider.id, access_level: 40 });
    // A maintainer at once: the access requests open to them.
    const list = await call('outsider', 'GET', requests('projects', maintainerProject));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });
});

/* An approval into a fixture group: on a server of its own, as it makes the outsider a member for good. */

describe('approving a group access request', () => {
  let shared: Target | undefined;
  beforeAll(async () => {
    if (!againstSuiteServer()) return;
    // The helpers above call `target`: it is this server for the tests of this block.
    shared = target;
    target = await ownServer();
  }, 300_000);
  afterAll(async () => {
    if (!shared) return;
    await target.close();
    target = shared;
  });

  it('makes the requester a member of the group and of its projects at once: the private project opens', async (context) => {
    if (!shared) return context.skip();
    const readme = `/projects/${privateProject}/repository/files/README.md?ref=main`;
    expect((await call('outsider', 'GET', readme)).status).toBe(404);
    await outsiderRequests('groups', namespace);
    expect((await call('outsider', 'GET', readme)).status).toBe(404);

    const { status, body } = await call('owner', 'PUT', approval('groups', namespace, outsider.id), {
      json: { access_level: 20 },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: outsider.id, username: outsider.username, access_level: 20 });
    expect(await pendingIds('groups', namespace, 'owner')).not.toContain(outsider.id);

    expect((await call('outsider', 'GET', readme)).status).toBe(200);
    expect((await call('outsider', 'POST', requests('groups', namespace))).status).toBe(400);
    expect((await call('outsider', 'POST', requests('projects', publicProject))).status).toBe(400);
  });
});

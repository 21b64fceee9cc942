// Project actions (document 2, 4.2 and section 3): archive and unarchive, delete and restore, uploads, and
// shares with groups, with who may do each. The tests change projects imported for them (from an export of
// the public project), so the fixtures stay as they are.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { type Caller, callAs } from './callAs.js';
import { waitFor } from './waitFor.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The full form of a project, as archive, unarchive and restore answer. */
type Project = components['schemas']['ProjectFull'];
type ImportStatus = components['schemas']['ProjectImportStatus'];
type ExportStatus = components['schemas']['ProjectExportStatus'];
type Group = components['schemas']['GroupDetails'];
type Upload = components['schemas']['ProjectUpload'];
type Link = components['schemas']['ProjectGroupLink'];

let target: Target;
let archive: Buffer;
let publicProject: string;
let privateProject: string;
let namespace: string;

const enc = encodeURIComponent;

/** A request as `caller` with a JSON or multipart body (callAs validates every response). */
const call = (caller: Caller, method: Method, path: string, body?: Record<string, unknown> | FormData) =>
  callAs(
    target,
    caller,
    path,
    body instanceof FormData ? { method, multipart: body } : { method, json: body },
  );

async function expectStatus(
  caller: Caller,
  method: Method,
  path: string,
  status: number,
  body?: Record<string, unknown> | FormData,
): Promise<unknown> {
  const response = await call(caller, method, path, body);
  expect(response.status, `${caller} ${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

/** A project of this run, imported from the public project's export and finished. */
async function throwaway(
  name: string,
  options: { as?: Role; namespace?: string | null; visibility?: 'private' | 'public' } = {},
): Promise<string> {
  const role = options.as ?? 'maintainer';
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'export.tar.gz');
  form.set('path', `${name}-${RUN}`);
  if (options.namespace !== null) form.set('namespace', options.namespace ?? namespace);
  if (options.visibility) form.set('override_params[visibility]', options.visibility);
  const created = (await expectStatus(role, 'POST', '/projects/import', 201, form)) as ImportStatus;
  const done = await waitFor(
    `the import of ${name}`,
    async () => (await call(role, 'GET', `/projects/${created.id}/import`)).body as ImportStatus,
    (status) => status.import_status === 'finished' || status.import_status === 'failed',
  );
  expect(done.import_status).toBe('finished');
  return created.path_with_namespace;
}

beforeAll(async () => {
  target = await openTarget();
  ({ publicProject, privateProject, namespace } = target.config.fixtures);
  await expectStatus('maintainer', 'POST', `/projects/${enc(publicProject)}/export`, 202);
  await waitFor(
    'the export of the public project',
    async () =>
      (await call('maintainer', 'GET', `/projects/${enc(publicProject)}/export`)).body as ExportStatus,
    (status) => status.export_status === 'finished',
  );
  const response = await fetch(
    `${target.config.baseUrl}/api/v4/projects/${enc(publicProject)}/export/download`,
    {
      headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
    },
  );
  expect(response.status).toBe(200);
  archive = Buffer.from(await response.arrayBuffer());
}, 120_000);
afterAll(async () => {
  await target.close();
});

/** Who is refused an owner-only operation on the private project, and how. */
const OWNER_ONLY_REFUSALS: [Caller, number][] = [
  ['anonymous', 401],
  ['invalid', 401],
  ['outsider', 404],
  ['guest', 403],
  ['reporter', 403],
  ['developer', 403],
  ['maintainer', 403],
];

describe('archive and unarchive', () => {
  it('refuse everyone but the owner and administrators (401, 404 for a hidden project, 403)', async () => {
    for (const action of ['archive', 'unarchive']) {
      for (const [caller, status] of OWNER_ONLY_REFUSALS)
        await expectStatus(caller, 'POST', `/projects/${enc(privateProject)}/${action}`, status);
      await expectStatus('owner', 'POST', `/projects/no-such-group%2Fno-such-project-${RUN}/${action}`, 404);
    }
  });

  it('archive and unarchive (201, the full form), idempotently, as the owner and as an administrator', async () => {
    const project = await throwaway('archive');
    const path = `/projects/${enc(project)}`;
    for (const caller of ['owner', 'admin'] as const) {
      const archived = (await expectStatus(caller, 'POST', `${path}/archive`, 201)) as Project;
      expect(archived).toMatchObject({ path_with_namespace: project, archived: true });
      expect((await expectStatus(caller, 'POST', `${path}/archive`, 201)) as Project).toMatchObject({
        archived: true,
      });
      const unarchived = (await expectStatus(caller, 'POST', `${path}/unarchive`, 201)) as Project;
      expect(unarchived).toMatchObject({ id: archived.id, archived: false });
      expect((await expectStatus(caller, 'POST', `${path}/unarchive`, 201)) as Project).toMatchObject({
        archived: false,
      });
    }
  });

  it('an archived project refuses repository writes (403) and uploads, and takes them again once unarchived', async () => {
    const project = await throwaway('read-only');
    const path = `/projects/${enc(project)}`;
    await expectStatus('owner', 'POST', `${path}/archive`, 201);
    await expectStatus('developer', 'POST', `${path}/repository/branches`, 403, {
      branch: `archived-${RUN}`,
      ref: 'main',
    });
    await expectStatus('maintainer', 'POST', `${path}/repository/files/${enc(`archived-${RUN}.txt`)}`, 403, {
      branch: 'main',
      content: 'x',
      commit_message: 'write to an archived project',
    });
    await expectStatus('maintainer', 'DELETE', `${path}/repository/branches/develop`, 403);
    await expectStatus('developer', 'POST', `${path}/uploads`, 403, fileForm('a.txt', 'a'));
    // Reads still work.
    await expectStatus('reporter', 'GET', `${path}/repository/branches/main`, 200);

    await expectStatus('owner', 'POST', `${path}/unarchive`, 201);
    await expectStatus('developer', 'POST', `${path}/repository/branches`, 201, {
      branch: `unarchived-${RUN}`,
      ref: 'main',
    });
    await expectStatus('developer', 'POST', `${path}/uploads`, 201, fileForm('a.txt', 'a'));
  });
});

describe('delete and restore', () => {
  it('refuse everyone but the owner and administrators', async () => {
    for (const [caller, status] of OWNER_ONLY_REFUSALS) {
      await expectStatus(caller, 'DELETE', `/projects/${enc(privateProject)}`, status);
      await expectStatus(caller, 'POST', `/projects/${enc(privateProject)}/restore`, status);
    }
    await expectStatus('owner', 'DELETE', `/projects/no-such-group%2Fno-such-project-${RUN}`, 404);
    await expectStatus('admin', 'POST', `/projects/no-such-group%2Fno-such-project-${RUN}/restore`, 404);
  });

  for (const caller of ['owner', 'admin'] as const) {
    it(`delete answers 202; the project is gone, or marked for deletion and restorable (higher tier) (${caller})`, async () => {
      const project = await throwaway(`delete-${caller}`);
      const path = `/projects/${enc(project)}`;
      // Not marked: restore is a 400 in the higher tier and a 404 without it.
      const early = await call(caller, 'POST', `${path}/restore`);
      expect([400, 404], JSON.stringify(early.body)).toContain(early.status);
      const higherTier = early.status === 400;

      expect(await expectStatus(caller, 'DELETE', path, 202)).toEqual({ message: '202 Accepted' });
      if (!higherTier) {
        // Removed at once.
        await expectStatus(caller, 'POST', `${path}/archive`, 404);
        await expectStatus('reporter', 'GET', `${path}/repository/branches/main`, 404);
        await expectStatus(caller, 'DELETE', path, 404);
        return;
      }
      // Marked for deletion (and archived, as GitLab does): the full form shows the day.
      const marked = (await expectStatus(caller, 'POST', `${path}/archive`, 201)) as Project;
      const today = new Date().toISOString().slice(0, 10);
      expect(marked).toMatchObject({
        archived: true,
        marked_for_deletion_on: today,
        marked_for_deletion_at: today,
      });
      await expectStatus('reporter', 'GET', `${path}/repository/branches/main`, 200);
      await expectStatus(caller, 'DELETE', path, 400);
      // Restored: live again, unarchived and unmarked; a second restore is a 400.
      const restored = (await expectStatus(caller, 'POST', `${path}/restore`, 201)) as Project;
      expect(restored).toMatchObject({
        path_with_namespace: project,
        archived: false,
        marked_for_deletion_on: null,
        marked_for_deletion_at: null,
      });
      await expectStatus(caller, 'POST', `${path}/restore`, 400);
      await expectStatus('developer', 'POST', `${path}/repository/branches`, 201, {
        branch: `restored-${RUN}`,
        ref: 'main',
      });
    });
  }
});

function fileForm(name: string, content: string | Uint8Array, type = 'application/octet-stream'): FormData {
  const form = new FormData();
  form.set(
    'file',
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }),
    name,
  );
  return form;
}

/** The first bytes of a PNG file: enough for a file named .png. */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('uploads', () => {
  it('stores an image (201) and serves it back at full_path with its Content-Type', async () => {
    const upload = (await expectStatus(
      'developer',
      'POST',
      `/projects/${enc(publicProject)}/uploads`,
      201,
      fileForm('screen shot.png', PNG, 'image/png'),
    )) as Upload;
    expect(upload.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/screen_shot\.png$/);
    expect(upload).toEqual({
      alt: 'screen_shot',
      url: upload.url,
      full_path: `/${publicProject}${upload.url}`,
      markdown: `![screen_shot](${upload.url})`,
    });
    const served = await fetch(`${target.config.baseUrl}${upload.full_path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^image\/png/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // Another secret, or another name, is no file.
    const wrongSecret = upload.full_path.replace(/\/[0-9a-f]{32}\//, `/${'0'.repeat(32)}/`);
    expect((await fetch(`${target.config.baseUrl}${wrongSecret}`)).status).toBe(404);
    expect((await fetch(`${target.config.baseUrl}${upload.full_path.replace('.png', '.gif')}`)).status).toBe(
      404,
    );
  });

  it('links other files with their whole name, sanitizes names and never leaves the upload directory', async () => {
    const upload = (await expectStatus(
      'guest',
      'POST',
      `/projects/${enc(publicProject)}/uploads`,
      201,
      fileForm('../../etc/re]port (1).txt', 'report'),
    )) as Upload;
    expect(upload.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/re_port__1_\.txt$/);
    expect(upload.alt).toBe('re_port__1_.txt');
    expect(upload.markdown).toBe(`[re_port__1_.txt](${upload.url})`);
    const served = await fetch(`${target.config.baseUrl}${upload.full_path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await served.text()).toBe('report');
    const dots = (await expectStatus(
      'developer',
      'POST',
      `/projects/${enc(publicProject)}/uploads`,
      201,
      fileForm('...', 'dots'),
    )) as Upload;
    expect(dots.url).toMatch(/\/_\.\.\.$/);
  });

  it('serves the files of a private project only to those who see it', async () => {
    const upload = (await expectStatus(
      'guest',
      'POST',
      `/projects/${enc(privateProject)}/uploads`,
      201,
      fileForm('secret.txt', 'secret'),
    )) as Upload;
    const url = `${target.config.baseUrl}${upload.full_path}`;
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { headers: { 'PRIVATE-TOKEN': target.config.tokens.outsider } })).status).toBe(
      404,
    );
    const seen = await fetch(url, { headers: { 'PRIVATE-TOKEN': target.config.tokens.guest } });
    expect(seen.status).toBe(200);
    expect(await seen.text()).toBe('secret');
  });

  it('needs a signed-in caller who may see the project, and a file (400 without)', async () => {
    const path = `/projects/${enc(privateProject)}/uploads`;
    await expectStatus(
      'anonymous',
      'POST',
      `/projects/${enc(publicProject)}/uploads`,
      401,
      fileForm('a.txt', 'a'),
    );
    await expectStatus('invalid', 'POST', path, 401, fileForm('a.txt', 'a'));
    await expectStatus('outsider', 'POST', path, 404, fileForm('a.txt', 'a'));
    // GitLab's upload_file: any signed-in user of a public project acts as a guest there.
    await expectStatus(
      'outsider',
      'POST',
      `/projects/${enc(publicProject)}/uploads`,
      201,
      fileForm('a.txt', 'a'),
    );
    for (const role of ['guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'] as const)
      await expectStatus(role, 'POST', path, 201, fileForm('a.txt', 'a'));
    const noFile = new FormData();
    noFile.set('file', 'not a file');
    await expectStatus('developer', 'POST', path, 400, noFile);
    const other = new FormData();
    other.set('other', 'x');
    await expectStatus('developer', 'POST', path, 400, other);
  });
});

describe('sharing with a group', () => {
  it('refuses callers below maintainer, hidden projects and groups, bad levels and dates, existing shares', async () => {
    const project = await throwaway('share-rules');
    const path = `/projects/${enc(project)}/share`;
    const { sharedGroup } = target.config.fixtures;
    const group = (await expectStatus('admin', 'GET', `/groups/${enc(namespace)}`, 200)) as Group;
    const share = { group_id: group.id, group_access: 20 };
    await expectStatus('anonymous', 'POST', path, 401, share);
    await expectStatus('invalid', 'POST', path, 401, share);
    for (const role of ['guest', 'reporter', 'developer'] as const)
      await expectStatus(role, 'POST', path, 403, share);
    await expectStatus('outsider', 'POST', `/projects/${enc(privateProject)}/share`, 404, share);
    // The maintainer cannot see the shared group: as if it did not exist.
    await expectStatus('maintainer', 'POST', path, 404, { group_id: sharedGroup.id, group_access: 20 });
    await expectStatus('maintainer', 'POST', path, 404, { group_id: 999_999_999, group_access: 20 });
    await expectStatus('maintainer', 'POST', path, 400, { group_id: group.id, group_access: 25 });
    await expectStatus('maintainer', 'POST', path, 400, { group_id: group.id });
    await expectStatus('maintainer', 'POST', path, 400, { ...share, expires_at: '31/12/2099' });
    await expectStatus('maintainer', 'POST', path, 400, { ...share, expires_at: '2000-01-01' });

    const link = (await expectStatus('maintainer', 'POST', path, 201, {
      ...share,
      expires_at: '2099-12-31',
    })) as Link;
    expect(link).toEqual({
      id: link.id,
      project_id: link.project_id,
      group_id: group.id,
      group_access: 20,
      expires_at: '2099-12-31',
    });
    await expectStatus('owner', 'POST', path, 409, share);
    // The administrator sees every group.
    const other = (await expectStatus('admin', 'POST', path, 201, {
      group_id: sharedGroup.id,
      group_access: 30,
    })) as Link;
    expect(other).toMatchObject({ group_id: sharedGroup.id, group_access: 30, expires_at: null });

    const unshare = `${path}/${group.id}`;
    await expectStatus('anonymous', 'DELETE', unshare, 401);
    await expectStatus('invalid', 'DELETE', unshare, 401);
    for (const role of ['guest', 'reporter', 'developer'] as const)
      await expectStatus(role, 'DELETE', unshare, 403);
    await expectStatus('outsider', 'DELETE', `/projects/${enc(privateProject)}/share/${group.id}`, 404);
    await expectStatus('maintainer', 'DELETE', unshare, 204);
    await expectStatus('maintainer', 'DELETE', unshare, 404);
    await expectStatus('owner', 'DELETE', `${path}/${sharedGroup.id}`, 204);
    await expectStatus('admin', 'DELETE', `${path}/999999999`, 404);
  });

  it("gives the group's members the shared level, capped by their own, until the share goes", async () => {
    // A private project of the outsider's own, shared with the group where the roles are members.
    const project = await throwaway('shared-private', {
      as: 'outsider',
      namespace: null,
      visibility: 'private',
    });
    const path = `/projects/${enc(project)}`;
    const group = (await expectStatus('outsider', 'GET', `/groups/${enc(namespace)}`, 200)) as Group;
    await expectStatus('developer', 'GET', `${path}/repository/branches/main`, 404);

    await expectStatus('outsider', 'POST', `${path}/share`, 201, { group_id: group.id, group_access: 20 });
    // The developer (30 in the group) acts as a reporter: reads the code, may not push.
    await expectStatus('developer', 'GET', `${path}/repository/branches/main`, 200);
    await expectStatus('developer', 'POST', `${path}/repository/branches`, 403, {
      branch: `shared-${RUN}`,
      ref: 'main',
    });
    // The guest (10 in the group) stays a guest: sees the project, not its code.
    await expectStatus('guest', 'POST', `${path}/uploads`, 201, fileForm('g.txt', 'g'));
    await expectStatus('guest', 'GET', `${path}/repository/branches/main`, 403);
    // The owner of the group is a reporter here too, so may not share the project further.
    await expectStatus('owner', 'POST', `${path}/share`, 403, { group_id: group.id, group_access: 10 });

    await expectStatus('outsider', 'DELETE', `${path}/share/${group.id}`, 204);
    await expectStatus('developer', 'GET', `${path}/repository/branches/main`, 404);
  });
});

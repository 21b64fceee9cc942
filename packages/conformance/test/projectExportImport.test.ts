import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collect,
  demoConfig,
  openTarget,
  type Role,
  RUN,
  startLocalServer,
  type Target,
  targetFor,
} from '../src/index.js';
import { readTarGz, writeTarGz } from './tarball.js';
import { startReceiver } from './uploadReceiver.js';
import { waitFor } from './waitFor.js';

let target: Target;
let project: string;
let privateProject: string;
/** The group imports go to (the maintainer may create projects there). */
let namespace: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  privateProject = target.config.fixtures.privateProject;
  namespace = target.config.fixtures.namespace;
});
afterAll(async () => {
  await target.close();
});

const EXPORT = '/projects/{id}/export' as const;
const DOWNLOAD = '/projects/{id}/export/download' as const;
const IMPORT_STATUS = '/projects/{id}/import' as const;

type ExportState = 'none' | 'queued' | 'started' | 'finished' | 'regeneration_in_progress';
type ImportState = 'none' | 'scheduled' | 'started' | 'finished' | 'failed';

async function exportState(on: Target, id: string | number): Promise<ExportState> {
  const { data, response } = await on.as('maintainer').GET(EXPORT, { params: { path: { id: String(id) } } });
  expect(response.status).toBe(200);
  return data?.export_status as ExportState;
}

const waitForExport = (on: Target, id: string | number, timeoutMs?: number) =>
  waitFor(
    `the export of ${id} to finish`,
    () => exportState(on, id),
    (state) => state === 'finished',
    timeoutMs,
  );

async function download(on: Target, id: string | number): Promise<Buffer> {
  const response = await on.fetch(
    `${on.config.baseUrl}/api/v4/projects/${encodeURIComponent(String(id))}/export/download`,
    {
      headers: { 'PRIVATE-TOKEN': on.config.tokens.maintainer },
    },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/gzip/);
  return Buffer.from(await response.arrayBuffer());
}

async function exportAndDownload(id: string, body: { description?: string } = {}): Promise<Buffer> {
  const { response } = await target.as('maintainer').POST(EXPORT, { params: { path: { id } }, body });
  expect(response.status).toBe(202);
  await waitForExport(target, id);
  return download(target, id);
}

function importForm(archive: Buffer, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'export.tar.gz');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

interface ImportResult {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  description: string | null;
  import_status: ImportState;
  correlation_id: string | null;
  import_error?: string | null;
  failed_relations: {
    id: number;
    relation_name: string;
    exception_class: string;
    exception_message: string;
    source: string;
    created_at: string;
  }[];
}

async function postImport(
  role: Role | 'anonymous',
  body: FormData,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> =
    role === 'anonymous' ? {} : { 'PRIVATE-TOKEN': target.config.tokens[role] };
  const response = await target.fetch(`${target.config.baseUrl}/api/v4/projects/import`, {
    method: 'POST',
    headers,
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function importStatus(id: number | string): Promise<ImportResult> {
  const { data, response } = await target
    .as('maintainer')
    .GET(IMPORT_STATUS, { params: { path: { id: String(id) } } });
  expect(response.status).toBe(200);
  return data as ImportResult;
}

/** A project path of this run: imported projects stay, so a second run against the same server needs new ones. */
const fresh = (path: string): string => `${path}-${RUN}`;

/** `text` as a regular expression that matches it literally. */
const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Imports `archive` as the maintainer (into `namespace` unless given) and waits until it finished or failed. */
async function importAndWait(archive: Buffer, fields: Record<string, string>): Promise<ImportResult> {
  const { status, body } = await postImport('maintainer', importForm(archive, { namespace, ...fields }));
  expect(status, JSON.stringify(body)).toBe(201);
  expect(body.import_status).toBe('scheduled');
  const id = body.id as number;
  return waitFor(
    `the import of ${fields.path}`,
    () => importStatus(id),
    (s) => s.import_status === 'finished' || s.import_status === 'failed',
  );
}

function expectExportArchive(bytes: Buffer): Map<string, Buffer> {
  const files = readTarGz(bytes);
  expect([...files.keys()].sort()).toEqual(['VERSION', 'project.bundle', 'project.json']);
  // A git bundle starts with its signature line.
  expect(files.get('project.bundle')?.subarray(0, 20).toString('utf8')).toMatch(/^# v[23] git bundle\n/);
  return files;
}

describe('export status and download before any export', () => {
  it('reports export_status none without _links, and the download is 404', async () => {
    // A project of its own, imported under a new path: on a shared server the fixtures may have been exported.
    const neverExported = (
      await importAndWait(await exportAndDownload(project), { path: fresh('never-exported') })
    ).path_with_namespace;
    const { data, response } = await target
      .as('maintainer')
      .GET(EXPORT, { params: { path: { id: neverExported } } });
    expect(response.status).toBe(200);
    expect(data?.export_status).toBe('none');
    expect(data?.path_with_namespace).toBe(neverExported);
    expect(data).not.toHaveProperty('_links');
    const missing = await target
      .as('maintainer')
      .GET(DOWNLOAD, { params: { path: { id: neverExported } }, parseAs: 'stream' });
    expect(missing.response.status).toBe(404);
  });
});

describe('who may export', () => {
  it('needs a token (401), maintainer access (403 for developers), and hides private projects (404)', async () => {
    for (const [role, id, status] of [
      ['anonymous', project, 401],
      ['developer', project, 403],
      ['reporter', project, 403],
      ['outsider', privateProject, 404],
      ['anonymous', privateProject, 401],
    ] as const) {
      const params = { params: { path: { id } } };
      expect(
        (await target.as(role).POST(EXPORT, { ...params, body: {} })).response.status,
        `${role} POST ${id}`,
      ).toBe(status);
      expect((await target.as(role).GET(EXPORT, params)).response.status, `${role} GET ${id}`).toBe(status);
      expect(
        (await target.as(role).GET(DOWNLOAD, { ...params, parseAs: 'stream' })).response.status,
        `${role} download ${id}`,
      ).toBe(status);
    }
    expect(
      (
        await target
          .as('maintainer')
          .GET(EXPORT, { params: { path: { id: `${namespace}/no-such-project` } } })
      ).response.status,
    ).toBe(404);
  });

  it('needs the api scope to request an export (403 with a read_repository token)', async () => {
    const { response, error } = await target
      .as('developerReadRepository')
      .POST(EXPORT, { params: { path: { id: project } }, body: {} });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ error: 'insufficient_scope' });
  });

  it('refuses an upload without url, with another method, or with a url that is not http(s) (400)', async () => {
    const client = target.as('maintainer');
    const params = { path: { id: privateProject } };
    // Settled first (another file on a shared server may have exported it), to compare after.
    const before = await waitFor(
      'no export in progress',
      () => exportState(target, privateProject),
      (state) => state === 'none' || state === 'finished',
    );
    for (const upload of [
      {},
      { url: 'http://127.0.0.1:1/x', http_method: 'PATCH' },
      { url: 'file:///etc/passwd' },
    ]) {
      const { response, error } = await client.POST(EXPORT, {
        params,
        body: { upload: upload as { url: string } },
      });
      expect(response.status, JSON.stringify(upload)).toBe(400);
      expect(error).toHaveProperty('error');
    }
    // The seeds require upload[url] when upload is present (GitLab would take `{}` as no upload): the error
    // names the parameter as a form field does, in JSON as in form.
    const missing = await client.POST(EXPORT, { params, body: { upload: {} as { url: string } } });
    expect(missing.error).toEqual({ error: 'upload[url] is missing' });
    const missingForm = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(privateProject)}/export`,
      {
        method: 'POST',
        headers: {
          'PRIVATE-TOKEN': target.config.tokens.maintainer,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'upload[http_method]=POST',
      },
    );
    expect(await missingForm.json()).toEqual({ error: 'upload[url] is missing' });
    // Nothing was queued by the refused requests.
    expect((await client.GET(EXPORT, { params })).data?.export_status).toBe(before);
  });
});

describe('exporting a project', () => {
  it('answers 202, moves to finished with _links, and serves a gzip tar with the project and its bundle', async () => {
    const client = target.as('maintainer');
    // Settled first: a project exported before (by another file on a shared server) is regenerated.
    const before = await waitFor(
      'no export in progress',
      () => exportState(target, project),
      (state) => state === 'none' || state === 'finished',
    );
    const posted = await client.POST(EXPORT, {
      params: { path: { id: project } },
      body: { description: 'Exported copy' },
    });
    expect(posted.response.status).toBe(202);
    expect(posted.data).toEqual({ message: '202 Accepted' });
    const seen = new Set<ExportState>();
    await waitFor(
      'finished',
      async () => {
        const state = await exportState(target, project);
        seen.add(state);
        return state;
      },
      (state) => state === 'finished',
    );
    const expected: ExportState[] =
      before === 'none'
        ? ['queued', 'started', 'finished']
        : ['regeneration_in_progress', 'started', 'finished'];
    for (const state of seen) expect(expected).toContain(state);

    const { data } = await client.GET(EXPORT, { params: { path: { id: project } } });
    expect(data?._links?.api_url).toMatch(/\/api\/v4\/projects\/\d+\/export\/download$/);
    expect(data?._links?.web_url).toMatch(new RegExp(`/${project}/download_export$`));
    // The override is for the archive only: the project keeps its description.
    expect(data?.description).not.toBe('Exported copy');

    const response = await target.fetch(data?._links?.api_url ?? '', {
      headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/gzip/);
    // GitLab's name: a timestamp, then the project's full path with `_` for `/`.
    expect(response.headers.get('content-disposition')).toMatch(
      new RegExp(
        `^attachment; filename="[\\d_-]+_${literally(project.replace(/\//g, '_'))}_export\\.tar\\.gz"$`,
      ),
    );
    const files = expectExportArchive(Buffer.from(await response.arrayBuffer()));
    expect(files.get('VERSION')?.toString('utf8').trim()).toBe('1');
    const archived = JSON.parse(files.get('project.json')?.toString('utf8') ?? '{}') as Record<
      string,
      unknown
    >;
    expect(archived).toMatchObject({
      path: project.split('/').pop(),
      visibility: 'public',
      default_branch: 'main',
      description: 'Exported copy',
    });
    expect(archived.protected_branches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'main', push_access_levels: [{ access_level: 40 }] }),
      ]),
    );
  });

  it('keeps the old archive downloadable during a regeneration (regeneration_in_progress), then replaces it', async () => {
    // The first export's upload is held open: the job queue is busy, so the second request waits in the queue.
    let release: (status: number) => void = () => undefined;
    const held = new Promise<number>((resolve) => {
      release = resolve;
    });
    const receiver = await startReceiver(() => held);
    try {
      const client = target.as('maintainer');
      const params = { path: { id: privateProject } };
      expect(
        (await client.POST(EXPORT, { params, body: { description: 'first', upload: { url: receiver.url } } }))
          .response.status,
      ).toBe(202);
      await waitFor(
        'the upload to start',
        async () => receiver.received.length,
        (n) => n === 1,
      );
      expect(await exportState(target, privateProject)).toBe('started');
      const first = readTarGz(await download(target, privateProject));

      expect((await client.POST(EXPORT, { params, body: { description: 'second' } })).response.status).toBe(
        202,
      );
      expect(await exportState(target, privateProject)).toBe('regeneration_in_progress');
      const during = (await client.GET(EXPORT, { params })).data;
      expect(during).not.toHaveProperty('_links');
      expect(readTarGz(await download(target, privateProject)).get('project.json')).toEqual(
        first.get('project.json'),
      );

      release(200);
      await waitForExport(target, privateProject);
      const second = JSON.parse(
        readTarGz(await download(target, privateProject))
          .get('project.json')
          ?.toString('utf8') ?? '{}',
      );
      expect(JSON.parse(first.get('project.json')?.toString('utf8') ?? '{}').description).toBe('first');
      expect(second.description).toBe('second');
    } finally {
      release(200);
      await receiver.close();
    }
  });
});

describe('uploading the archive', () => {
  it('PUTs it by default with Content-Type application/gzip, and POSTs it when asked', async () => {
    const receiver = await startReceiver();
    try {
      const client = target.as('maintainer');
      for (const method of ['PUT', 'POST'] as const) {
        const before = receiver.received.length;
        const upload = method === 'PUT' ? { url: receiver.url } : { url: receiver.url, http_method: method };
        expect(
          (await client.POST(EXPORT, { params: { path: { id: project } }, body: { upload } })).response
            .status,
        ).toBe(202);
        await waitForExport(target, project);
        expect(receiver.received).toHaveLength(before + 1);
        const request = receiver.received[before];
        expect(request?.method).toBe(method);
        expect(request?.contentType).toBe('application/gzip');
        expectExportArchive(request?.body ?? Buffer.alloc(0));
        // What was uploaded is what the download serves.
        expect(await download(target, project)).toEqual(request?.body);
      }
    } finally {
      await receiver.close();
    }
  });

  it('takes upload[url] and upload[http_method] as form fields', async () => {
    const receiver = await startReceiver();
    try {
      const form = new URLSearchParams({
        'upload[url]': receiver.url,
        'upload[http_method]': 'POST',
        description: 'from a form',
      });
      const response = await target.fetch(
        `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/export`,
        {
          method: 'POST',
          headers: {
            'PRIVATE-TOKEN': target.config.tokens.maintainer,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: form,
        },
      );
      expect(response.status).toBe(202);
      await waitForExport(target, project);
      expect(receiver.received.map((r) => r.method)).toEqual(['POST']);
      const archived = JSON.parse(
        readTarGz(receiver.received[0]?.body ?? Buffer.alloc(0))
          .get('project.json')
          ?.toString('utf8') ?? '{}',
      );
      expect(archived.description).toBe('from a form');
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing upload, then finishes with the archive still downloadable', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      expect(
        (
          await target
            .as('maintainer')
            .POST(EXPORT, { params: { path: { id: project } }, body: { upload: { url: receiver.url } } })
        ).response.status,
      ).toBe(202);
      await waitForExport(target, project);
      expect(receiver.received).toHaveLength(3);
      expectExportArchive(await download(target, project));
    } finally {
      await receiver.close();
    }
  });
});

describe('an export across a server restart', () => {
  it('resumes the pending upload after the server restarts on the same data directory', async (context) => {
    if (!target.dataDir) context.skip();
    const receiver = await startReceiver((index) => (index === 0 ? 503 : 200));
    let local = await startLocalServer();
    try {
      let server = targetFor(demoConfig(local.baseUrl), local);
      const posted = await server
        .as('maintainer')
        .POST(EXPORT, { params: { path: { id: project } }, body: { upload: { url: receiver.url } } });
      expect(posted.response.status).toBe(202);
      // The first attempt failed; the retry is queued for later, and the export is still `started`.
      await waitFor(
        'the first upload attempt',
        async () => receiver.received.length,
        (n) => n === 1,
      );
      expect(await exportState(server, project)).toBe('started');

      await local.close({ keepData: true });
      local = await startLocalServer({ dataDir: local.dataDir });
      server = targetFor(demoConfig(local.baseUrl), local);
      expect(['started', 'finished']).toContain(await exportState(server, project));
      await waitForExport(server, project);
      expect(receiver.received.map((r) => r.method)).toEqual(['PUT', 'PUT']);
      expect(await download(server, project)).toEqual(receiver.received[1]?.body);
    } finally {
      await local.close();
      await receiver.close();
    }
  });
});

describe('importing a project', () => {
  let archive: Buffer;
  /** A rule of this run that allows force pushes (GitLab's `allow_force_push`), which the archive keeps. */
  const forcePushRule = `force-push-${RUN}/*`;
  beforeAll(async () => {
    const rule = await target.as('maintainer').POST('/projects/{id}/protected_branches', {
      params: { path: { id: project } },
      body: { name: forcePushRule, allow_force_push: true },
    });
    expect(rule.response.status).toBe(201);
    archive = await exportAndDownload(project);
  });

  it('round-trips: the same files, branches, commits and protected branches (with allow_force_push) under a new path', async () => {
    const path = fresh('website-copy');
    const copyPath = `${namespace}/${path}`;
    const imported = await importAndWait(archive, { path });
    expect(imported.import_status).toBe('finished');
    expect(imported.failed_relations).toEqual([]);
    expect(imported).toMatchObject({ path, name: path, path_with_namespace: copyPath });
    expect(imported.correlation_id).toEqual(expect.any(String));

    const client = target.as('maintainer');
    // All pages of both lists: on a shared server, earlier runs leave more branches and rules than a page.
    const branchesOf = async (id: string) => {
      const branches = await collect(
        client.paginate(() =>
          client.GET('/projects/{id}/repository/branches', {
            params: { path: { id }, query: { per_page: 100 } },
          }),
        ),
      );
      return branches.map((b) => [b.name, b.commit.id, b.default]).sort();
    };
    const originalBranches = await branchesOf(project);
    expect(originalBranches.length).toBeGreaterThan(1);
    expect(await branchesOf(copyPath)).toEqual(originalBranches);

    for (const [branch] of originalBranches) {
      for (const filePath of [
        'README.md',
        'src/index.html',
        'docs/guide/getting started.md',
        '.collab-ci.yml',
      ]) {
        const read = (id: string) =>
          client.GET('/projects/{id}/repository/files/{file_path}', {
            params: { path: { id, file_path: filePath }, query: { ref: String(branch) } },
          });
        const [original, copy] = await Promise.all([read(project), read(copyPath)]);
        expect(copy.response.status).toBe(original.response.status);
        expect(copy.data?.content).toEqual(original.data?.content);
        expect(copy.data?.last_commit_id).toEqual(original.data?.last_commit_id);
      }
    }

    const protectedRules = async (id: string) => {
      const rules = await collect(
        client.paginate(() =>
          client.GET('/projects/{id}/protected_branches', {
            params: { path: { id }, query: { per_page: 100 } },
          }),
        ),
      );
      return rules.map((rule) => [rule.name, rule.allow_force_push]).sort();
    };
    expect(await protectedRules(copyPath)).toEqual(await protectedRules(project));
    expect(await protectedRules(project)).toContainEqual(['main', false]);
    expect(await protectedRules(copyPath)).toContainEqual([forcePushRule, true]);
  });

  it('honours name and override_params over the archive', async () => {
    const name = `Website Renamed ${RUN}`;
    const form = importForm(archive, {
      namespace,
      path: fresh('website-renamed'),
      name,
      'override_params[description]': 'Overridden description',
      'override_params[visibility]': 'private',
    });
    const { status, body } = await postImport('maintainer', form);
    expect(status, JSON.stringify(body)).toBe(201);
    const done = await waitFor(
      'finished',
      () => importStatus(body.id as number),
      (s) => s.import_status === 'finished',
    );
    expect(done).toMatchObject({ name, description: 'Overridden description' });
    // Private now: the outsider, who sees the public original, does not see the copy.
    expect(
      (await target.as('outsider').GET(IMPORT_STATUS, { params: { path: { id: String(done.id) } } })).response
        .status,
    ).toBe(404);
  });

  it('refuses a taken path (400) unless overwrite is true, which replaces the project', async () => {
    const path = fresh('website-overwrite');
    const first = await importAndWait(archive, { path });
    expect(first.import_status).toBe('finished');
    const taken = await postImport('maintainer', importForm(archive, { namespace, path }));
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { path: ['has already been taken'] } });

    // The replacement's archive has another description and one branch fewer.
    const files = readTarGz(archive);
    const projectJson = JSON.parse(files.get('project.json')?.toString('utf8') ?? '{}');
    files.set('project.json', Buffer.from(JSON.stringify({ ...projectJson, description: 'Replaced' })));
    const replaced = await importAndWait(writeTarGz(files), { path, overwrite: 'true' });
    expect(replaced.import_status).toBe('finished');
    expect(replaced.id).toBe(first.id);
    expect(replaced.description).toBe('Replaced');
    expect(replaced.correlation_id).not.toBe(first.correlation_id);
  });

  it("imports into the caller's personal namespace (at the username) when namespace is left out", async () => {
    const path = fresh('personal-copy');
    const { status, body } = await postImport('maintainer', importForm(archive, { path }));
    expect(status, JSON.stringify(body)).toBe(201);
    const username = target.config.fixtures.users.maintainer.username;
    expect(body.path_with_namespace).toBe(`${username}/${path}`);
    const done = await waitFor(
      `the import of ${path}`,
      () => importStatus(body.id as number),
      (s) => s.import_status === 'finished' || s.import_status === 'failed',
    );
    expect(done.import_status).toBe('finished');
    // The second import finds the namespace made by the first.
    const again = await postImport('maintainer', importForm(archive, { path: `${path}-2` }));
    expect(again.body.path_with_namespace).toBe(`${username}/${path}-2`);
  });

  it('needs file and path, a valid path, and a namespace the caller may create projects in', async () => {
    const { hiddenGroup, sharedGroup } = target.config.fixtures;
    // Paths of this run: none of these imports may be accepted, and none may fail for a taken path.
    const x = (n: number) => fresh(`x${n}`);
    const cases: [Role | 'anonymous', FormData, number][] = [
      ['anonymous', importForm(archive, { namespace, path: x(1) }), 401],
      ['developerReadRepository', importForm(archive, { namespace, path: x(2) }), 403],
      ['developer', importForm(archive, { namespace, path: x(3) }), 403],
      // A group the maintainer cannot see.
      ['maintainer', importForm(archive, { namespace: sharedGroup.path, path: x(4) }), 404],
      ['maintainer', importForm(archive, { namespace: 'no-such-group', path: x(5) }), 404],
      ['maintainer', importForm(archive, { namespace: '999999', path: x(6) }), 404],
      // Without a namespace the import goes to the caller's personal namespace (tested above).
      ['maintainer', importForm(archive, { namespace, path: '-bad path' }), 400],
      [
        'maintainer',
        importForm(archive, { namespace, path: x(8), 'override_params[visibility]': 'secret' }),
        400,
      ],
      // A public project in a private group.
      [
        'maintainer',
        importForm(archive, {
          namespace: hiddenGroup,
          path: x(9),
          'override_params[visibility]': 'public',
        }),
        400,
      ],
    ];
    const withoutFile = new FormData();
    withoutFile.set('namespace', namespace);
    withoutFile.set('path', x(10));
    cases.push(['maintainer', withoutFile, 400]);
    const withoutPath = importForm(archive, { namespace });
    cases.push(['maintainer', withoutPath, 400]);
    for (const [index, [role, form, status]] of cases.entries()) {
      const result = await postImport(role, form);
      expect(result.status, `case ${index}: ${JSON.stringify(result.body)}`).toBe(status);
    }
    // The owner of the group may import into it.
    const byOwner = await postImport(
      'owner',
      importForm(archive, { namespace, path: fresh('owner-import') }),
    );
    expect(byOwner.status).toBe(201);
  });

  it('fails an archive that is not a gzip tar, has no bundle, or an invalid project.json, with import_error', async () => {
    const files = readTarGz(archive);
    const withoutBundle = new Map<string, Buffer | string>(files);
    withoutBundle.delete('project.bundle');
    const badJson = new Map<string, Buffer | string>(files);
    badJson.set(
      'project.json',
      '{"name": "x", "path": "x", "visibility": "everyone", "default_branch": "main"}',
    );
    const notJson = new Map<string, Buffer | string>(files);
    notJson.set('project.json', 'not json');
    const badBundle = new Map<string, Buffer | string>(files);
    badBundle.set('project.bundle', '# v2 git bundle\nnonsense\n');
    for (const [path, bytes, error] of [
      [fresh('broken-random'), Buffer.from('this is not an archive at all'), /not a valid gzip tar/],
      [fresh('broken-no-bundle'), writeTarGz(withoutBundle), /project\.bundle/],
      [fresh('broken-visibility'), writeTarGz(badJson), /visibility/],
      [fresh('broken-json'), writeTarGz(notJson), /project\.json/],
      [fresh('broken-bundle'), writeTarGz(badBundle), /bundle/],
    ] as const) {
      const result = await importAndWait(bytes, { path });
      expect(result.import_status, path).toBe('failed');
      expect(result.import_error, path).toMatch(error);
      expect(result.failed_relations).toEqual([]);
    }
  });

  it('restores the valid protected branches and lists the others as failed relations (at most 100)', async () => {
    const files = readTarGz(archive);
    const projectJson = JSON.parse(files.get('project.json')?.toString('utf8') ?? '{}');
    const good = {
      name: 'release/*',
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 30 }],
    };
    const bad = {
      name: 'bad..name',
      push_access_levels: [{ access_level: 40 }],
      merge_access_levels: [{ access_level: 40 }],
    };
    const badLevel = {
      name: 'stable',
      push_access_levels: [{ access_level: 35 }],
      merge_access_levels: [{ access_level: 40 }],
    };
    files.set(
      'project.json',
      Buffer.from(JSON.stringify({ ...projectJson, protected_branches: [good, bad, badLevel] })),
    );
    const result = await importAndWait(writeTarGz(files), { path: fresh('website-relations') });
    expect(result.import_status).toBe('finished');
    expect(result.failed_relations).toHaveLength(2);
    for (const failure of result.failed_relations) {
      expect(failure).toMatchObject({
        relation_name: 'protected_branches',
        exception_class: expect.any(String),
        source: expect.any(String),
      });
    }
    expect(result.failed_relations[0]?.exception_message).toMatch(/bad\.\.name/);
    const names = (
      await target
        .as('maintainer')
        .GET('/projects/{id}/protected_branches', { params: { path: { id: String(result.id) } } })
    ).data;
    expect(names?.map((p) => p.name)).toEqual(['release/*']);

    const many = Array.from({ length: 150 }, (_, i) => ({ ...bad, name: `bad..${i}` }));
    files.set('project.json', Buffer.from(JSON.stringify({ ...projectJson, protected_branches: many })));
    const capped = await importAndWait(writeTarGz(files), { path: fresh('website-many-failures') });
    expect(capped.import_status).toBe('finished');
    expect(capped.failed_relations).toHaveLength(100);
    expect(new Set(capped.failed_relations.map((f) => f.id)).size).toBe(100);
  });
});

describe('import status', () => {
  it('is none for a project that was never imported', async () => {
    const status = await importStatus(project);
    expect(status).toMatchObject({
      import_status: 'none',
      correlation_id: null,
      failed_relations: [],
      path_with_namespace: project,
    });
  });

  it('needs a token (401), maintainer access (403) and hides private projects (404)', async () => {
    const params = (id: string) => ({ params: { path: { id } } });
    expect((await target.as('anonymous').GET(IMPORT_STATUS, params(project))).response.status).toBe(401);
    expect((await target.as('developer').GET(IMPORT_STATUS, params(project))).response.status).toBe(403);
    expect((await target.as('outsider').GET(IMPORT_STATUS, params(privateProject))).response.status).toBe(
      404,
    );
    expect(
      (await target.as('maintainer').GET(IMPORT_STATUS, params(`${namespace}/nope`))).response.status,
    ).toBe(404);
  });
});

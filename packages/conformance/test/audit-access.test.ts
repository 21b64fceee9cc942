// Audit of issue 4 point 7 and issue 2 point 5 across all 44 operations of document 1: per operation, a
// missing token (401 where one is needed, 404 where the project is hidden), an invalid token (401), an
// outsider (404, or 403 for administrator-only routes), a known but insufficient caller (403) and the
// weakest caller that is allowed; 400 for malformed parameters; the seven pagination headers on every list;
// HEAD, `%2F` and the three parameter carriers beyond repository files.

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Role, RUN, type Target } from '../src/index.js';
import { newKey } from './sshKeys.js';

type Caller = Role | 'anonymous';
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Call {
  method: Method;
  /** Relative to /api/v4, already URL-encoded. */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: Record<string, unknown>;
  /** Sent as multipart/form-data (the import). */
  form?: () => FormData;
}

let target: Target;
let scratch: string;

async function call(caller: Caller, request: Call): Promise<Response> {
  const url = new URL(`${target.config.baseUrl}/api/v4${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {};
  if (caller !== 'anonymous') headers['PRIVATE-TOKEN'] = target.config.tokens[caller];
  let body: BodyInit | undefined;
  if (request.form) body = request.form();
  else if (request.body) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  // target.fetch validates every response against the spec (documented status, headers, body).
  return target.fetch(url, { method: request.method, headers, body });
}

const status = async (caller: Caller, request: Call): Promise<number> => (await call(caller, request)).status;

/* Fixtures ---------------------------------------------------------------------------------------- */

const enc = encodeURIComponent;
let PRIVATE: string; // the private project's path, encoded
let PUBLIC: string; // the public project's path, encoded
let privatePipeline: number;
let publicPipeline: number;
let doomedPipeline: number;
let privateKey: number;
let publicKey: number;
let privateMirror: number;
let exportArchive: Buffer;
let mirrorUrl: string;

/** The names this file creates, new on every run (a second run against the same server finds none taken). */
const WORK = `audit/work-${RUN}`;
const OTHER = `audit/other-${RUN}`;
const CREATED = `audit/created-${RUN}`;
const RULE = `audit-${RUN}-*`;
const EXTRA_RULE = `audit-extra-${RUN}`;
const BY_QUERY = `audit/q-${RUN}`;
const BY_FORM = `audit/f-${RUN}`;
const BY_JSON = `audit/j-${RUN}`;
const IMPORTED = `audit-import-${RUN}`;
const HIDDEN_IMPORT = `hidden-import-${RUN}`;
const JSON_IMPORT = `json-import-${RUN}`;

async function created<T = { id: number }>(caller: Caller, request: Call, expected = 201): Promise<T> {
  const response = await call(caller, request);
  const text = await response.text();
  expect(response.status, text).toBe(expected);
  return JSON.parse(text) as T;
}

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  target = await openTarget();
  PRIVATE = enc(target.config.fixtures.privateProject);
  PUBLIC = enc(target.config.fixtures.publicProject);
  scratch = await mkdtemp(join(tmpdir(), 'collab-audit-'));
  const mirrorPath = join(scratch, 'mirror.git');
  await promisify(execFile)('git', ['init', '--bare', '--quiet', mirrorPath]);
  mirrorUrl = pathToFileURL(mirrorPath).href;

  // A CI configuration on the private project's default branch (the public one has one), for pipelines.
  // On a shared server another file may have written one already: then it is replaced.
  const ciFile = `/projects/${PRIVATE}/repository/files/.collab-ci.yml`;
  const ciExists =
    (await status('maintainer', { method: 'GET', path: ciFile, query: { ref: 'main' } })) === 200;
  await created(
    'maintainer',
    {
      method: ciExists ? 'PUT' : 'POST',
      path: ciFile,
      body: {
        branch: 'main',
        // Unique content: an update to identical content would be refused.
        content: `# audit ${Date.now().toString(36)}\nbuild:\n  script: make\n  duration: 1\n`,
        commit_message: 'CI',
      },
    },
    ciExists ? 200 : 201,
  );
  // The test-report flag off, as by default (another file on a shared server may have left it on).
  expect((await call('admin', { method: 'DELETE', path: '/features/pipeline_test_report' })).status).toBe(
    204,
  );
  for (const branch of [WORK, OTHER]) {
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/repository/branches`,
      body: { branch, ref: 'main' },
    });
    // A commit of its own, so that deleteMergedBranches (run in any order) leaves the branch alone.
    await created('maintainer', {
      method: 'POST',
      path: file(PRIVATE, 'audit/keep.txt'),
      body: { branch, content: 'keep', commit_message: 'audit: keep the branch' },
    });
  }
  privatePipeline = (
    await created('developer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/pipeline`,
      body: {
        ref: 'main',
        variables: [
          { key: 'A', value: '1' },
          { key: 'B', value: '2' },
        ],
      },
    })
  ).id;
  doomedPipeline = (
    await created('developer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/pipeline`,
      body: { ref: 'main' },
    })
  ).id;
  publicPipeline = (
    await created('developer', {
      method: 'POST',
      path: `/projects/${PUBLIC}/pipeline`,
      body: { ref: 'main' },
    })
  ).id;
  privateKey = (
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/deploy_keys`,
      body: { title: 'private key', key: newKey('ed25519', 'audit') },
    })
  ).id;
  await created('maintainer', {
    method: 'POST',
    path: `/projects/${PRIVATE}/deploy_keys`,
    body: { title: 'second private key', key: newKey('ed25519', 'audit') },
  });
  publicKey = (
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PUBLIC}/deploy_keys`,
      body: { title: 'public key', key: newKey('ed25519', 'audit') },
    })
  ).id;
  privateMirror = (
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/remote_mirrors`,
      body: { url: mirrorUrl },
    })
  ).id;
  await created('maintainer', { method: 'POST', path: `/projects/${PRIVATE}/export`, body: {} }, 202);
  await waitUntil('the export', async () => {
    const response = await call('maintainer', { method: 'GET', path: `/projects/${PRIVATE}/export` });
    return ((await response.json()) as { export_status: string }).export_status === 'finished';
  });
  const download = await call('maintainer', { method: 'GET', path: `/projects/${PRIVATE}/export/download` });
  expect(download.status).toBe(200);
  exportArchive = Buffer.from(await download.arrayBuffer());
  // The pipelines must be finished for retry (the runner moves them on its own).
  // These two, not every pipeline of the project: other files may have made some on a shared server.
  await waitUntil('the pipelines', async () => {
    const response = await call('developer', {
      method: 'GET',
      path: `/projects/${PRIVATE}/pipelines`,
      query: { scope: 'finished', per_page: '100' },
    });
    const finished = ((await response.json()) as { id: number }[]).map((pipeline) => pipeline.id);
    return finished.includes(privatePipeline) && finished.includes(doomedPipeline);
  });
});

afterAll(async () => {
  await target.close();
  await rm(scratch, { recursive: true, force: true });
});

/* The matrix -------------------------------------------------------------------------------------- */

interface Row {
  operationId: string;
  /** The request against a project (`P` is its encoded path); omitted `project` means not project-scoped. */
  request: (P: string) => Call;
  /** Anonymous on the public project: 401 where a token is needed, else what the anonymous reader gets. */
  anonymousOnPublic: number;
  /** A known caller whose access is insufficient on the private project (or, instance-wide, a non-admin). */
  denied: [Role, number];
  /** The weakest caller that is allowed, and the success status. */
  allowed: [Role, number];
  /** Routes without a project: anonymous 401, and the outsider is a known non-admin (403). */
  instanceWide?: boolean;
}

/** The import form; `namespace` defaults to the configured one, where the maintainer may import. */
function importForm(path: string, namespace?: string): () => FormData {
  return () => {
    const form = new FormData();
    form.set(
      'file',
      new Blob([new Uint8Array(exportArchive)], { type: 'application/gzip' }),
      'export.tar.gz',
    );
    form.set('path', path);
    form.set('namespace', namespace ?? target.config.fixtures.namespace);
    return form;
  };
}

const file = (P: string, filePath: string, suffix = '') =>
  `/projects/${P}/repository/files/${enc(filePath)}${suffix}`;

const ROWS: Row[] = [
  // Repository files: reads need reporter on a private project (guests 403), writes a developer.
  ...(['', '/blame', '/raw'] as const).flatMap((suffix): Row[] =>
    (['GET', 'HEAD'] as const).map((method) => ({
      operationId: `${method} file${suffix}`,
      request: (P) => ({ method, path: file(P, 'README.md', suffix), query: { ref: 'main' } }),
      anonymousOnPublic: 200,
      denied: ['guest', 403],
      allowed: ['reporter', 200],
    })),
  ),
  {
    operationId: 'createRepositoryFile',
    request: (P) => ({
      method: 'POST',
      path: file(P, 'audit/new file.txt'),
      body: { branch: WORK, content: 'x', commit_message: 'audit create' },
    }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 201],
  },
  {
    operationId: 'updateRepositoryFile',
    request: (P) => ({
      method: 'PUT',
      path: file(P, 'audit/new file.txt'),
      body: { branch: WORK, content: 'y', commit_message: 'audit update' },
    }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 200],
  },
  {
    operationId: 'deleteRepositoryFile',
    request: (P) => ({
      method: 'DELETE',
      path: file(P, 'audit/new file.txt'),
      body: { branch: WORK, commit_message: 'audit delete' },
    }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 204],
  },
  // Branches.
  {
    operationId: 'listBranches',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/repository/branches` }),
    anonymousOnPublic: 200,
    denied: ['guest', 403],
    allowed: ['reporter', 200],
  },
  {
    operationId: 'getBranch',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/repository/branches/main` }),
    anonymousOnPublic: 200,
    denied: ['guest', 403],
    allowed: ['reporter', 200],
  },
  {
    operationId: 'createBranch',
    request: (P) => ({
      method: 'POST',
      path: `/projects/${P}/repository/branches`,
      body: { branch: CREATED, ref: 'main' },
    }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 201],
  },
  {
    operationId: 'deleteBranch',
    request: (P) => ({
      method: 'DELETE',
      path: `/projects/${P}/repository/branches/${enc(CREATED)}`,
    }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 204],
  },
  {
    operationId: 'deleteMergedBranches',
    request: (P) => ({ method: 'DELETE', path: `/projects/${P}/repository/merged_branches` }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 202],
  },
  // Protected branches: maintainers.
  {
    operationId: 'listProtectedBranches',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/protected_branches` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'protectBranch',
    request: (P) => ({
      method: 'POST',
      path: `/projects/${P}/protected_branches`,
      body: { name: RULE },
    }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 201],
  },
  {
    operationId: 'getProtectedBranch',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/protected_branches/main` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'updateProtectedBranch',
    request: (P) => ({
      method: 'PATCH',
      path: `/projects/${P}/protected_branches/main`,
      body: { code_owner_approval_required: true },
    }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'unprotectBranch',
    request: (P) => ({ method: 'DELETE', path: `/projects/${P}/protected_branches/${enc(RULE)}` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 204],
  },
  // Pipelines: reads need reporter on a private project; writes a developer, delete the owner.
  {
    operationId: 'listPipelines',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/pipelines` }),
    anonymousOnPublic: 200,
    denied: ['guest', 403],
    allowed: ['reporter', 200],
  },
  {
    operationId: 'getPipeline',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/pipelines/${pipelineOf(P)}` }),
    anonymousOnPublic: 200,
    denied: ['guest', 403],
    allowed: ['reporter', 200],
  },
  {
    operationId: 'getPipelineVariables',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/pipelines/${pipelineOf(P)}/variables` }),
    anonymousOnPublic: 401,
    // Neither maintainer nor the user who triggered the pipeline.
    denied: ['reporter', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'getPipelineTestReport',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/pipelines/${pipelineOf(P)}/test_report` }),
    // Behind a feature flag that is off by default: 404 for everyone who may see the pipeline.
    anonymousOnPublic: 404,
    denied: ['guest', 403],
    allowed: ['reporter', 404],
  },
  {
    operationId: 'createPipeline',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/pipeline`, body: { ref: 'main' } }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 201],
  },
  {
    operationId: 'retryPipeline',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/pipelines/${pipelineOf(P)}/retry` }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 201],
  },
  {
    operationId: 'cancelPipeline',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/pipelines/${pipelineOf(P)}/cancel` }),
    anonymousOnPublic: 401,
    denied: ['reporter', 403],
    allowed: ['developer', 200],
  },
  {
    operationId: 'deletePipeline',
    request: (P) => ({
      method: 'DELETE',
      path: `/projects/${P}/pipelines/${P === PRIVATE ? doomedPipeline : publicPipeline}`,
    }),
    anonymousOnPublic: 401,
    denied: ['maintainer', 403],
    allowed: ['owner', 204],
  },
  // Deploy keys: maintainers; the instance-wide list administrators.
  {
    operationId: 'listAllDeployKeys',
    request: () => ({ method: 'GET', path: '/deploy_keys' }),
    anonymousOnPublic: 401,
    denied: ['maintainer', 403],
    allowed: ['admin', 200],
    instanceWide: true,
  },
  {
    operationId: 'listProjectDeployKeys',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/deploy_keys` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'addDeployKey',
    request: (P) => ({
      method: 'POST',
      path: `/projects/${P}/deploy_keys`,
      body: { title: 'audit', key: newKey('ed25519', 'audit') },
    }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 201],
  },
  {
    operationId: 'getDeployKey',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/deploy_keys/${keyOf(P)}` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'updateDeployKey',
    request: (P) => ({
      method: 'PUT',
      path: `/projects/${P}/deploy_keys/${keyOf(P)}`,
      body: { title: 'renamed' },
    }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    // The public project's key, enabled on the private project (the maintainer may access both).
    operationId: 'enableDeployKey',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/deploy_keys/${publicKey}/enable` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 201],
  },
  {
    operationId: 'deleteDeployKey',
    request: (P) => ({ method: 'DELETE', path: `/projects/${P}/deploy_keys/${keyOf(P)}` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 204],
  },
  // Remote mirrors: maintainers.
  {
    operationId: 'listRemoteMirrors',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/remote_mirrors` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'createRemoteMirror',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/remote_mirrors`, body: { url: mirrorUrl } }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 201],
  },
  {
    operationId: 'updateRemoteMirror',
    request: (P) => ({
      method: 'PUT',
      path: `/projects/${P}/remote_mirrors/${privateMirror}`,
      body: { only_protected_branches: true },
    }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  // Export and import: maintainers.
  {
    operationId: 'getProjectExportStatus',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/export` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'downloadProjectExport',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/export/download` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    operationId: 'scheduleProjectExport',
    request: (P) => ({ method: 'POST', path: `/projects/${P}/export`, body: {} }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 202],
  },
  {
    operationId: 'getProjectImportStatus',
    request: (P) => ({ method: 'GET', path: `/projects/${P}/import` }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 200],
  },
  {
    // Importing into a namespace needs maintainer access to it; the outsider sees the (public) namespace.
    operationId: 'importProject',
    request: () => ({ method: 'POST', path: '/projects/import', form: importForm(IMPORTED) }),
    anonymousOnPublic: 401,
    denied: ['developer', 403],
    allowed: ['maintainer', 201],
    instanceWide: true,
  },
  // Storage moves: administrators.
  {
    operationId: 'listProjectRepositoryStorageMoves',
    request: () => ({ method: 'GET', path: '/project_repository_storage_moves' }),
    anonymousOnPublic: 401,
    denied: ['maintainer', 403],
    allowed: ['admin', 200],
    instanceWide: true,
  },
  {
    // No move exists yet: the administrator gets past the 403 to the 404.
    operationId: 'getProjectRepositoryStorageMove',
    request: () => ({ method: 'GET', path: '/project_repository_storage_moves/999' }),
    anonymousOnPublic: 401,
    denied: ['maintainer', 403],
    allowed: ['admin', 404],
    instanceWide: true,
  },
];

function pipelineOf(P: string): number {
  return P === PRIVATE ? privatePipeline : publicPipeline;
}

function keyOf(P: string): number {
  return P === PRIVATE ? privateKey : publicKey;
}

// In order: the rows create, then update and delete the same file, branch, rule and key.
describe('401, 403 and 404 for every operation of document 1', { shuffle: false }, () => {
  it('has a row for each of the 44 operations', () => {
    expect(ROWS).toHaveLength(44);
  });

  for (const row of ROWS) {
    it(`${row.operationId}: anonymous, invalid token, outsider, ${row.denied[0]} ${row.denied[1]}, ${row.allowed[0]} ${row.allowed[1]}`, async () => {
      const onPrivate = row.request(PRIVATE);
      const statuses = {
        anonymousOnPublic: await status('anonymous', row.request(PUBLIC)),
        anonymous: await status('anonymous', onPrivate),
        revoked: await status('revoked', onPrivate),
        outsider: await status('outsider', onPrivate),
        denied: await status(row.denied[0], onPrivate),
        allowed: await status(row.allowed[0], onPrivate),
      };
      expect(statuses).toEqual({
        anonymousOnPublic: row.anonymousOnPublic,
        // Without a token: 401 where one is needed (as on the public project), else the private project
        // is hidden (404), as it is from outsiders.
        anonymous: row.instanceWide || row.anonymousOnPublic === 401 ? 401 : 404,
        revoked: 401,
        outsider: row.instanceWide ? 403 : 404,
        denied: row.denied[1],
        allowed: row.allowed[1],
      });
    });
  }

  it('answers 404 to the outsider for a namespace it cannot see on import', async () => {
    expect(
      await status('outsider', {
        method: 'POST',
        path: '/projects/import',
        form: importForm(HIDDEN_IMPORT, target.config.fixtures.hiddenGroup),
      }),
    ).toBe(404);
  });

  it('sends no body with HEAD errors', async () => {
    for (const suffix of ['', '/blame', '/raw']) {
      const response = await call('outsider', {
        method: 'HEAD',
        path: file(PRIVATE, 'README.md', suffix),
        query: { ref: 'main' },
      });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('');
    }
  });
});

/* 400 ---------------------------------------------------------------------------------------------- */

describe('400 for malformed parameters', () => {
  const LISTS = () => [
    `/projects/${PUBLIC}/repository/branches`,
    `/projects/${PRIVATE}/protected_branches`,
    `/projects/${PRIVATE}/pipelines`,
    `/projects/${PRIVATE}/pipelines/${privatePipeline}/variables`,
    '/deploy_keys',
    `/projects/${PRIVATE}/deploy_keys`,
    `/projects/${PRIVATE}/remote_mirrors`,
    '/project_repository_storage_moves',
  ];

  it('refuses per_page 0 and page 0 on every list', async () => {
    for (const path of LISTS()) {
      const queries: Record<string, string>[] = [{ per_page: '0' }, { page: '0' }, { page: 'x' }];
      for (const query of queries) {
        const response = await call('admin', { method: 'GET', path, query });
        expect([path, query, response.status]).toEqual([path, query, 400]);
        expect(await response.json()).toHaveProperty('error');
      }
    }
  });

  it('reads per_page above 100 as 100 on every list, as GitLab does', async () => {
    for (const path of LISTS()) {
      const response = await call('admin', { method: 'GET', path, query: { per_page: '101' } });
      expect([path, response.status]).toEqual([path, 200]);
      expect([path, response.headers.get('X-Per-Page')]).toEqual([path, '100']);
      expect(((await response.json()) as unknown[]).length).toBeLessThanOrEqual(100);
    }
  });

  it('refuses non-numeric pipeline, key, mirror and move IDs', async () => {
    const paths: [Method, string][] = [
      ['GET', `/projects/${PRIVATE}/pipelines/abc`],
      ['DELETE', `/projects/${PRIVATE}/pipelines/abc`],
      ['GET', `/projects/${PRIVATE}/pipelines/abc/variables`],
      ['GET', `/projects/${PRIVATE}/pipelines/abc/test_report`],
      ['POST', `/projects/${PRIVATE}/pipelines/abc/retry`],
      ['POST', `/projects/${PRIVATE}/pipelines/abc/cancel`],
      ['GET', `/projects/${PRIVATE}/deploy_keys/abc`],
      ['DELETE', `/projects/${PRIVATE}/deploy_keys/abc`],
      ['POST', `/projects/${PRIVATE}/deploy_keys/abc/enable`],
      ['PUT', `/projects/${PRIVATE}/remote_mirrors/abc`],
      ['GET', '/project_repository_storage_moves/abc'],
    ];
    for (const [method, path] of paths) {
      const response = await call('admin', {
        method,
        path,
        ...(method === 'PUT' ? { body: { enabled: true } } : {}),
      });
      expect([method, path, response.status]).toEqual([method, path, 400]);
    }
  });

  it('refuses a request without ref on every file read, HEAD included', async () => {
    for (const suffix of ['', '/blame', '/raw']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await call('reporter', { method, path: file(PUBLIC, 'README.md', suffix) });
        expect([method, suffix, response.status]).toEqual([method, suffix, 400]);
      }
    }
  });

  it('refuses an import that is not multipart form data', async () => {
    const response = await call('maintainer', {
      method: 'POST',
      path: '/projects/import',
      body: {
        path: JSON_IMPORT,
        namespace: target.config.fixtures.namespace,
        file: exportArchive.toString('base64'),
      },
    });
    expect(response.status).toBe(400);
  });

  it('refuses a file delete without commit_message and a mirror update with a non-boolean', async () => {
    expect(
      await status('developer', {
        method: 'DELETE',
        path: file(PRIVATE, 'README.md'),
        body: { branch: WORK },
      }),
    ).toBe(400);
    expect(
      await status('maintainer', {
        method: 'PUT',
        path: `/projects/${PRIVATE}/remote_mirrors/${privateMirror}`,
        body: { enabled: 'sometimes' },
      }),
    ).toBe(400);
  });
});

/* Pagination --------------------------------------------------------------------------------------- */

describe('the seven pagination headers on every list', () => {
  const LISTS = (): [string, Role][] => [
    [`/projects/${PUBLIC}/repository/branches`, 'reporter'],
    [`/projects/${PRIVATE}/protected_branches`, 'maintainer'],
    [`/projects/${PRIVATE}/pipelines`, 'reporter'],
    [`/projects/${PRIVATE}/pipelines/${privatePipeline}/variables`, 'maintainer'],
    ['/deploy_keys', 'admin'],
    [`/projects/${PRIVATE}/deploy_keys`, 'maintainer'],
    [`/projects/${PRIVATE}/remote_mirrors`, 'maintainer'],
    ['/project_repository_storage_moves', 'admin'],
  ];

  const HEADERS = ['X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link'];

  it('answers all seven, consistent with the items, on the first, a middle and the last page', async () => {
    // Every list of the private project gets at least two items.
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/remote_mirrors`,
      body: { url: mirrorUrl },
    });
    await created('maintainer', {
      method: 'POST',
      path: `/projects/${PRIVATE}/protected_branches`,
      body: { name: EXTRA_RULE },
    });
    for (const [path, role] of LISTS()) {
      const all = await call(role, { method: 'GET', path, query: { per_page: '100' } });
      expect(all.status).toBe(200);
      const items = (await all.json()) as unknown[];
      for (const name of HEADERS) expect(all.headers.has(name), `${path} ${name}`).toBe(true);
      // Runs against one server add up: a list may have more than the 100 items of this page.
      const total = Number(all.headers.get('X-Total'));
      expect(items, path).toHaveLength(Math.min(total, 100));
      expect(all.headers.get('X-Total-Pages'), path).toBe(String(Math.max(1, Math.ceil(total / 100))));
      expect(all.headers.get('X-Per-Page'), path).toBe('100');
      if (total < 2) {
        // Only the storage moves are empty here (moves come from an operator command).
        expect(path).toBe('/project_repository_storage_moves');
        expect(all.headers.get('X-Total-Pages')).toBe('1');
        expect(all.headers.get('X-Next-Page')).toBe('');
        expect(all.headers.get('X-Prev-Page')).toBe('');
        expect(all.headers.get('Link')).toMatch(/rel="first".*rel="last"/);
        continue;
      }
      const last = await call(role, { method: 'GET', path, query: { per_page: '1', page: String(total) } });
      expect(last.status).toBe(200);
      expect((await last.json()) as unknown[]).toHaveLength(1);
      expect(Object.fromEntries(HEADERS.map((name) => [name, last.headers.get(name) !== null]))).toEqual(
        Object.fromEntries(HEADERS.map((name) => [name, true])),
      );
      expect(
        HEADERS.slice(0, 6).map((name) => last.headers.get(name)),
        path,
      ).toEqual([String(total), String(total), '1', String(total), '', String(total - 1)]);
      const link = last.headers.get('Link') ?? '';
      expect(link, path).toMatch(new RegExp(`[?&]page=${total - 1}[^>]*>; rel="prev"`));
      expect(link, path).not.toMatch(/rel="next"/);
      expect(link, path).not.toMatch(/private_token/);
      const first = await call(role, { method: 'GET', path, query: { per_page: '1' } });
      expect([
        first.headers.get('X-Page'),
        first.headers.get('X-Next-Page'),
        first.headers.get('X-Prev-Page'),
      ]).toEqual(['1', '2', '']);
      expect(first.headers.get('Link'), path).toMatch(/[?&]page=2[^>]*>; rel="next"/);
      // Past the last page: an empty page, the headers still there.
      const beyond = await call(role, {
        method: 'GET',
        path,
        query: { per_page: '1', page: String(total + 1) },
      });
      expect(beyond.status).toBe(200);
      expect(await beyond.json()).toEqual([]);
      expect(beyond.headers.get('X-Total')).toBe(String(total));
    }
  });
});

/* Validation gaps: HEAD, %2F, the three carriers ---------------------------------------------------- */

describe('parameters as query, form fields or JSON body beyond repository files', () => {
  const url = (P: string, path: string) => `${target.config.baseUrl}/api/v4/projects/${P}${path}`;

  it('creates branches from the query string, form fields and a JSON body, the token in either carrier', async () => {
    const token = target.config.tokens.developer;
    const viaQuery = await target.fetch(
      `${url(PRIVATE, '/repository/branches')}?branch=${enc(BY_QUERY)}&ref=main&private_token=${token}`,
      { method: 'POST' },
    );
    expect(viaQuery.status).toBe(201);
    const viaForm = await target.fetch(url(PRIVATE, '/repository/branches'), {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ branch: BY_FORM, ref: 'main' }),
    });
    expect(viaForm.status).toBe(201);
    const viaJson = await target.fetch(`${url(PRIVATE, '/repository/branches')}?private_token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch: BY_JSON, ref: 'main' }),
    });
    expect(viaJson.status).toBe(201);
    const names = (
      (await (
        await call('developer', {
          method: 'GET',
          path: `/projects/${PRIVATE}/repository/branches`,
          // This run's branches (earlier runs against the same server left others under audit/).
          query: { search: RUN },
        })
      ).json()) as { name: string }[]
    ).map((branch) => branch.name);
    expect(names).toEqual(expect.arrayContaining([BY_QUERY, BY_FORM, BY_JSON]));
  });

  it('takes nested form fields (pipeline variables) from a form body', async () => {
    const viaForm = await target.fetch(url(PRIVATE, '/pipeline'), {
      method: 'POST',
      headers: {
        'PRIVATE-TOKEN': target.config.tokens.developer,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ ref: 'main', 'variables[][key]': 'FORM', 'variables[][value]': 'yes' }),
    });
    expect(viaForm.status).toBe(201);
    const { id } = (await viaForm.json()) as { id: number };
    const variables = await call('developer', {
      method: 'GET',
      path: `/projects/${PRIVATE}/pipelines/${id}/variables`,
    });
    expect(await variables.json()).toEqual([expect.objectContaining({ key: 'FORM', value: 'yes' })]);
  });

  it('reads with the token in the private_token query parameter, and refuses an invalid one there (401)', async () => {
    const good = await target.fetch(
      `${url(PRIVATE, '/protected_branches')}?private_token=${target.config.tokens.maintainer}`,
    );
    expect(good.status).toBe(200);
    const bad = await target.fetch(`${url(PUBLIC, '/repository/branches')}?private_token=nope`);
    expect(bad.status).toBe(401);
  });

  it('finds a project by numeric ID and by %2F-encoded path, and a branch with %2F in its name', async () => {
    const byPath = await call('reporter', {
      method: 'GET',
      path: `/projects/${PRIVATE}/repository/branches/${enc(WORK)}`,
    });
    expect(byPath.status).toBe(200);
    const sha = ((await byPath.json()) as { commit: { id: string } }).commit.id;
    const status = await call('maintainer', { method: 'GET', path: `/projects/${PRIVATE}/export` });
    const { id } = (await status.json()) as { id: number };
    const byId = await call('reporter', {
      method: 'GET',
      path: `/projects/${id}/repository/branches/${enc(WORK)}`,
    });
    expect(((await byId.json()) as { commit: { id: string } }).commit.id).toBe(sha);
    // HEAD with %2F in :id and a %2F-encoded ref.
    const head = await call('reporter', {
      method: 'HEAD',
      path: file(PRIVATE, 'README.md', '/raw'),
      query: { ref: WORK },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('X-Service-Ref')).toBe(WORK);
  });
});

describe('the X-Service-* headers', () => {
  it('carry the same values as the object fields (seed: "same values"), names and refs with / and spaces included', async () => {
    const filePath = 'docs/guide/getting started.md';
    const query = { ref: 'main' };
    const get = await call('anonymous', { method: 'GET', path: file(PUBLIC, filePath), query });
    const fields = (await get.json()) as Record<string, string | number>;
    for (const suffix of ['', '/blame', '/raw']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await call('anonymous', { method, path: file(PUBLIC, filePath, suffix), query });
        expect(response.status).toBe(200);
        const header = (name: string) => response.headers.get(`X-Service-${name}`);
        expect(
          [
            header('Blob-Id'),
            header('Commit-Id'),
            header('Content-Sha256'),
            header('Encoding'),
            header('File-Name'),
            header('File-Path'),
            header('Last-Commit-Id'),
            header('Ref'),
            header('Size'),
          ],
          `${method} ${suffix}`,
        ).toEqual([
          fields.blob_id,
          fields.commit_id,
          fields.content_sha256,
          fields.encoding,
          fields.file_name,
          fields.file_path,
          fields.last_commit_id,
          fields.ref,
          String(fields.size),
        ]);
      }
    }
  });

  it('percent-encode a name that a header cannot carry', async () => {
    const created = await call('developer', {
      method: 'POST',
      path: file(PRIVATE, 'docs/übersicht.md'),
      body: { branch: WORK, content: 'x', commit_message: 'non-ASCII name' },
    });
    expect(created.status).toBe(201);
    const head = await call('reporter', {
      method: 'HEAD',
      path: file(PRIVATE, 'docs/übersicht.md'),
      query: { ref: WORK },
    });
    expect(head.status).toBe(200);
    expect(decodeURIComponent(head.headers.get('X-Service-File-Path') ?? '')).toBe('docs/übersicht.md');
    expect(head.headers.get('X-Service-Ref')).toBe(WORK);
  });
});

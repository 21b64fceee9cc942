// Audit of issue 2 point 2 on the bundled spec: the 44 operations of document 1, the nine X-Service-*
// headers, pagination on every list, both token carriers and the reads that need none, the
// administrator-only and higher-tier marks, the export upload rules and the multipart import. (Examples for
// every response body are checked by spec.test.ts.) No server: these are properties of the contract.
import { describe, expect, it } from 'vitest';
import { type JsonObject, loadSpecIndex, resolveRef } from '../src/specIndex.js';

const index = loadSpecIndex();
const document = index.document;
const resolve = <T = JsonObject>(value: unknown): T => resolveRef<T>(index, value);

/** Document 1's operations are the paths before the first path of document 2 (`/groups`). */
const paths = Object.keys(document.paths as JsonObject);
const DOCUMENT_1 = index.operations.filter(
  (entry) => paths.indexOf(entry.template) < paths.indexOf('/groups'),
);
const operation = (id: string): JsonObject => {
  const found = DOCUMENT_1.find((entry) => entry.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found.operation;
};

const EXPECTED: Record<string, string[]> = {
  'Repository files': [
    'getRepositoryFile',
    'headRepositoryFile',
    'createRepositoryFile',
    'updateRepositoryFile',
    'deleteRepositoryFile',
    'getRepositoryFileBlame',
    'headRepositoryFileBlame',
    'getRepositoryFileRaw',
    'headRepositoryFileRaw',
  ],
  Branches: ['listBranches', 'createBranch', 'getBranch', 'deleteBranch', 'deleteMergedBranches'],
  'Protected branches': [
    'listProtectedBranches',
    'protectBranch',
    'getProtectedBranch',
    'updateProtectedBranch',
    'unprotectBranch',
  ],
  Pipelines: [
    'listPipelines',
    'getPipeline',
    'deletePipeline',
    'getPipelineVariables',
    'getPipelineTestReport',
    'createPipeline',
    'retryPipeline',
    'cancelPipeline',
  ],
  'Deploy keys': [
    'listAllDeployKeys',
    'listProjectDeployKeys',
    'addDeployKey',
    'getDeployKey',
    'updateDeployKey',
    'deleteDeployKey',
    'enableDeployKey',
  ],
  'Remote mirrors': ['listRemoteMirrors', 'createRemoteMirror', 'updateRemoteMirror'],
  'Project import/export': [
    'getProjectExportStatus',
    'scheduleProjectExport',
    'downloadProjectExport',
    'importProject',
    'getProjectImportStatus',
  ],
  'Project repository storage moves': [
    'listProjectRepositoryStorageMoves',
    'getProjectRepositoryStorageMove',
  ],
};

const LISTS = [
  'listBranches',
  'listProtectedBranches',
  'listPipelines',
  'getPipelineVariables',
  'listAllDeployKeys',
  'listProjectDeployKeys',
  'listRemoteMirrors',
  'listProjectRepositoryStorageMoves',
];
const PAGINATION_HEADERS = [
  'X-Total',
  'X-Total-Pages',
  'X-Per-Page',
  'X-Page',
  'X-Next-Page',
  'X-Prev-Page',
  'Link',
];
const X_SERVICE = [
  'X-Service-Blob-Id',
  'X-Service-Commit-Id',
  'X-Service-Content-Sha256',
  'X-Service-Encoding',
  'X-Service-File-Name',
  'X-Service-File-Path',
  'X-Service-Last-Commit-Id',
  'X-Service-Ref',
  'X-Service-Size',
];

const parametersOf = (entry: { template: string; operation: JsonObject }): JsonObject[] => {
  const item = (document.paths as Record<string, JsonObject>)[entry.template] ?? {};
  return [
    ...((item.parameters as unknown[]) ?? []),
    ...((entry.operation.parameters as unknown[]) ?? []),
  ].map((parameter) => resolve(parameter));
};

describe('document 1 in the spec', () => {
  it('has exactly the 44 operations of the seed, one tag each, per area', () => {
    expect(DOCUMENT_1).toHaveLength(44);
    const byTag: Record<string, string[]> = {};
    for (const entry of DOCUMENT_1) {
      const tags = entry.operation.tags as string[];
      expect(tags, entry.operationId).toHaveLength(1);
      const tag = tags[0] ?? '';
      byTag[tag] = [...(byTag[tag] ?? []), entry.operationId];
    }
    for (const [tag, ids] of Object.entries(EXPECTED))
      expect(byTag[tag]?.sort(), tag).toEqual([...ids].sort());
  });

  it('documents 401 and 404 (or 403 for instance-wide routes) on every operation, and 403 wherever a role is needed', () => {
    for (const entry of DOCUMENT_1) {
      const statuses = Object.keys(entry.operation.responses as JsonObject);
      expect(statuses, entry.operationId).toContain('401');
      const projectScoped = entry.template.startsWith('/projects/{id}');
      if (projectScoped) expect(statuses, entry.operationId).toContain('404');
      else expect(statuses, entry.operationId).toContain('403');
      // Every project operation has a caller who sees the project but lacks the role (a guest on a private
      // project reads no code; writes need a developer or more).
      if (projectScoped) expect(statuses, entry.operationId).toContain('403');
    }
  });

  it("sends the nine X-Service-* headers, required, (and GitLab's X-Gitlab-* beside them) on HEAD and GET of a file, its blame and raw content", () => {
    for (const id of [
      'getRepositoryFile',
      'headRepositoryFile',
      'getRepositoryFileBlame',
      'headRepositoryFileBlame',
      'getRepositoryFileRaw',
      'headRepositoryFileRaw',
    ]) {
      const ok = resolve((operation(id).responses as JsonObject)['200']);
      const headers = (ok.headers ?? {}) as JsonObject;
      // The seeds' nine, and beside them only GitLab's own names for the same values (X-Gitlab-*) and
      // GitLab's one header without a seed name, X-Gitlab-Execute-Filemode.
      const names = Object.keys(headers);
      expect(names.filter((name) => name.startsWith('X-Service-')).sort(), id).toEqual([...X_SERVICE].sort());
      for (const name of names.filter((name) => !name.startsWith('X-Service-')))
        if (name !== 'X-Gitlab-Execute-Filemode')
          expect(X_SERVICE, `${id} ${name}`).toContain(name.replace(/^X-Gitlab-/, 'X-Service-'));
      expect(resolve(headers['X-Gitlab-Execute-Filemode']).required, id).toBe(true);
      for (const name of X_SERVICE) expect(resolve(headers[name]).required, `${id} ${name}`).toBe(true);
      expect(resolve<JsonObject>(resolve(headers['X-Service-Size']).schema).type).toBe('integer');
      if (id.startsWith('head')) expect(ok.content, id).toBeUndefined();
    }
  });

  it('pages every list with page and per_page (default 20, above 100 read as 100) and documents the seven headers', () => {
    for (const id of LISTS) {
      const entry = DOCUMENT_1.find((candidate) => candidate.operationId === id);
      if (!entry) throw new Error(id);
      const parameters = parametersOf(entry);
      const perPage = parameters.find((parameter) => parameter.name === 'per_page');
      expect(perPage?.schema, id).toMatchObject({ type: 'integer', minimum: 1, default: 20 });
      expect(perPage?.schema, id).not.toHaveProperty('maximum');
      expect(parameters.find((parameter) => parameter.name === 'page')?.schema, id).toMatchObject({
        type: 'integer',
        minimum: 1,
      });
      const ok = resolve((entry.operation.responses as JsonObject)['200']);
      expect(Object.keys((ok.headers ?? {}) as JsonObject).sort(), id).toEqual(
        [...PAGINATION_HEADERS].sort(),
      );
      const json = ((ok.content ?? {}) as Record<string, JsonObject>)['application/json'];
      expect(resolve(json?.schema).type, id).toBe('array');
    }
    // And no other GET of document 1 answers an array without them.
    for (const entry of DOCUMENT_1.filter((candidate) => candidate.method === 'GET')) {
      const ok = resolve((entry.operation.responses as JsonObject)['200']);
      const json = ((ok.content ?? {}) as Record<string, JsonObject>)['application/json'];
      if (json && resolve(json.schema).type === 'array' && entry.operationId !== 'getRepositoryFileBlame')
        expect(LISTS, entry.operationId).toContain(entry.operationId);
    }
  });

  it('takes the token in the PRIVATE-TOKEN header or the private_token query, and lets anonymous callers read public code only', () => {
    const schemes = (document.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    expect(schemes.privateTokenHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' });
    expect(schemes.privateTokenQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'private_token' });
    const anonymousReads: string[] = [];
    for (const entry of DOCUMENT_1) {
      const security = entry.operation.security as JsonObject[];
      expect(security, entry.operationId).toEqual(
        expect.arrayContaining([{ privateTokenHeader: [] }, { privateTokenQuery: [] }]),
      );
      if (security.some((requirement) => Object.keys(requirement).length === 0))
        anonymousReads.push(entry.operationId);
    }
    // Seed, section 5.3: repository files, branches and their single reads work without authentication;
    // GitLab v4 also serves a public project's pipelines to anonymous callers.
    expect(anonymousReads.sort()).toEqual(
      [
        'listPipelines',
        'getPipeline',
        'getPipelineTestReport',
        'getRepositoryFile',
        'headRepositoryFile',
        'getRepositoryFileBlame',
        'headRepositoryFileBlame',
        'getRepositoryFileRaw',
        'headRepositoryFileRaw',
        'listBranches',
        'getBranch',
      ].sort(),
    );
  });

  it('marks the administrator-only operations (with a 403) and the higher-tier features', () => {
    const adminOnly = DOCUMENT_1.filter((entry) => entry.operation['x-admin-only'] === true).map(
      (entry) => entry.operationId,
    );
    expect(adminOnly.sort()).toEqual(
      ['listAllDeployKeys', 'listProjectRepositoryStorageMoves', 'getProjectRepositoryStorageMove'].sort(),
    );
    for (const id of adminOnly)
      expect(Object.keys(operation(id).responses as JsonObject), id).toContain('403');

    expect(operation('updateProtectedBranch')['x-tier']).toBe('premium');
    const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
    const protect = schemas.ProtectBranchRequest?.properties as Record<string, JsonObject>;
    for (const field of [
      'allowed_to_push',
      'allowed_to_merge',
      'allowed_to_unprotect',
      'code_owner_approval_required',
    ])
      expect(protect[field]?.['x-tier'], field).toBe('premium');
    const level = schemas.ProtectedBranchAccessLevel?.properties as Record<string, JsonObject>;
    for (const field of ['user_id', 'group_id']) {
      expect(level[field]?.['x-tier'], field).toBe('premium');
      expect(level[field]?.type, field).toEqual(['integer', 'null']);
    }
  });

  it('documents the export upload: upload[url] required, PUT (default) or POST, sent as application/gzip', () => {
    const schedule = operation('scheduleProjectExport');
    expect(schedule.description).toMatch(/Content-Type: application\/gzip/);
    const content = (schedule.requestBody as JsonObject).content as Record<string, JsonObject>;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    for (const media of Object.values(content)) {
      const upload = (resolve(media.schema).properties as Record<string, JsonObject>).upload as JsonObject;
      expect(upload.required).toEqual(['url']);
      expect((upload.properties as Record<string, JsonObject>).http_method).toMatchObject({
        enum: ['PUT', 'POST', null],
        default: 'PUT',
      });
    }
    expect(Object.keys(schedule.responses as JsonObject)).toContain('202');
    const download = resolve((operation('downloadProjectExport').responses as JsonObject)['200']);
    expect(Object.keys(download.content as JsonObject)).toEqual(['application/gzip']);
  });

  it('documents the import as multipart only, with file and path required', () => {
    const importProject = operation('importProject');
    const content = (importProject.requestBody as JsonObject).content as Record<string, JsonObject>;
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    const schema = resolve(content['multipart/form-data']?.schema);
    expect(schema.required).toEqual(['file', 'path']);
    const properties = schema.properties as Record<string, JsonObject>;
    expect(properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(properties).sort()).toEqual(
      ['file', 'path', 'namespace', 'name', 'overwrite', 'override_params'].sort(),
    );
    expect(properties.overwrite).toMatchObject({ type: ['boolean', 'null'], default: false });
    expect(Object.keys(importProject.responses as JsonObject)).toContain('201');
  });
});

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collect,
  loadSpecIndex,
  openTarget,
  ResponseValidator,
  type Role,
  RUN,
  type Target,
} from '../src/index.js';
import { newKey } from './sshKeys.js';
import { readTarGz } from './tarball.js';
import { type Receiver, startReceiver } from './uploadReceiver.js';
import { waitFor } from './waitFor.js';

let target: Target;
let project: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
});
afterAll(async () => {
  await target.close();
});

type Params = Record<string, unknown>;

function apiUrl(path: string): string {
  return `${target.config.baseUrl}/api/v4${path}`;
}

function projectUrl(rest: string, id = project): string {
  return apiUrl(`/projects/${encodeURIComponent(id)}${rest}`);
}

/** `params` as query or form pairs in bracket notation: `x[]=a`, `x[0][key]=a`, `x[key]=a`. */
function bracketPairs(params: Params, into = new URLSearchParams(), prefix = ''): URLSearchParams {
  for (const [key, value] of Object.entries(params)) {
    const name = prefix === '' ? key : `${prefix}[${key}]`;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === 'object' && item !== null)
          bracketPairs(item as Params, into, `${name}[${index}]`);
        else into.append(`${name}[]`, String(item));
      });
    } else if (typeof value === 'object' && value !== null) {
      bracketPairs(value as Params, into, name);
    } else if (value !== undefined) {
      into.append(name, String(value));
    }
  }
  return into;
}

function withQuery(url: string, params: Params): string {
  const query = bracketPairs(params).toString();
  return query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** A name the mixed carriers give twice: a wrong value in the query, the intended one in the body. */
interface Conflict {
  name: string;
  wrong: unknown;
}

/** Splits `params` between the query and the body, the conflicting name in both. */
function split(params: Params, conflict: Conflict): { query: Params; body: Params } {
  const query: Params = { [conflict.name]: conflict.wrong };
  const body: Params = { [conflict.name]: params[conflict.name] };
  Object.keys(params)
    .filter((name) => name !== conflict.name)
    .forEach((name, index) => {
      (index % 2 === 0 ? query : body)[name] = params[name];
    });
  return { query, body };
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

interface Carrier {
  /** Part of the names the write creates: lower-case letters, digits and `_`. */
  id: string;
  description: string;
  /** The request for `params`: its URL (with query), headers and body; the token is added by the caller. */
  build(
    url: string,
    params: Params,
    conflict: Conflict,
  ): { url: string; headers: Record<string, string>; body?: string };
}

const CARRIERS: readonly Carrier[] = [
  {
    id: 'query',
    description: 'in the query string only, no body and no Content-Type',
    build: (url, params) => ({ url: withQuery(url, params), headers: {} }),
  },
  {
    id: 'form',
    description: 'as form fields only',
    build: (url, params) => ({ url, headers: FORM_TYPE, body: bracketPairs(params).toString() }),
  },
  {
    id: 'json',
    description: 'as a JSON body only',
    build: (url, params) => ({ url, headers: JSON_TYPE, body: JSON.stringify(params) }),
  },
  {
    id: 'json_empty',
    description: 'in the query string with a JSON Content-Type and an empty body',
    build: (url, params) => ({ url: withQuery(url, params), headers: JSON_TYPE, body: '' }),
  },
  {
    id: 'json_braces',
    description: 'in the query string with a JSON body {}',
    build: (url, params) => ({ url: withQuery(url, params), headers: JSON_TYPE, body: '{}' }),
  },
  {
    id: 'json_mixed',
    description: 'half in the query string, half in a JSON body, the body winning on a name given twice',
    build: (url, params, conflict) => {
      const { query, body } = split(params, conflict);
      return { url: withQuery(url, query), headers: JSON_TYPE, body: JSON.stringify(body) };
    },
  },
  {
    id: 'form_mixed',
    description: 'half in the query string, half as form fields, the form winning on a name given twice',
    build: (url, params, conflict) => {
      const { query, body } = split(params, conflict);
      return { url: withQuery(url, query), headers: FORM_TYPE, body: bracketPairs(body).toString() };
    },
  },
];

/** One write of an area, with what it should have done. */
interface Write {
  role: Role;
  status: number;
  /** The write's URL for the names of `tag` (a unique tag per carrier and run). */
  url(tag: string): string;
  /** The intended parameters for `tag`. */
  params(tag: string): Params;
  conflict: Conflict;
  /** Reads the result back and checks that the intended values took effect. */
  check(tag: string, params: Params, response: unknown): Promise<void>;
}

/** Sends `write` through `carrier`: the token in a header, or (query carrier) as `private_token` in the query. */
async function send(write: Write, carrier: Carrier, tag: string) {
  const params = write.params(tag);
  const token = target.config.tokens[write.role];
  const built = carrier.build(write.url(tag), params, write.conflict);
  const url = carrier.id === 'query' ? withQuery(built.url, { private_token: token }) : built.url;
  const headers = carrier.id === 'query' ? built.headers : { ...built.headers, 'PRIVATE-TOKEN': token };
  const response = await target.fetch(url, { method: 'POST', headers, body: built.body });
  const text = await response.text();
  expect(response.status, text).toBe(write.status);
  return { params, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function describeCarriers(area: string, write: Write): void {
  describe(area, () => {
    for (const carrier of CARRIERS) {
      it(`takes the parameters ${carrier.description}`, async () => {
        const tag = `c${RUN}_${carrier.id}`;
        const { params, body } = await send(write, carrier, tag);
        await write.check(tag, params, body);
      });
    }
  });
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Params)[name] : undefined;
}

/* The writes ------------------------------------------------------------------------------------- */

/** A branch of this file, made from main before the file commits to it. */
const FILES_BRANCH = `carriers_${RUN}`;

describe('repository files', () => {
  beforeAll(async () => {
    const { response } = await target.as('maintainer').POST('/projects/{id}/repository/branches', {
      params: { path: { id: project } },
      body: { branch: FILES_BRANCH, ref: 'main' },
    });
    expect(response.status).toBe(201);
  });

  describeCarriers('creating a file', {
    role: 'developer',
    status: 201,
    url: (tag) => projectUrl(`/repository/files/${encodeURIComponent(`carriers/${tag}.txt`)}`),
    params: (tag) => ({
      branch: FILES_BRANCH,
      content: `content of ${tag}\n`,
      commit_message: `add ${tag}`,
      author_name: `Author ${tag}`,
      author_email: `${tag}@example.com`,
    }),
    conflict: { name: 'content', wrong: 'from the query\n' },
    async check(tag, params, response) {
      expect(response).toEqual({ file_path: `carriers/${tag}.txt`, branch: FILES_BRANCH });
      const { data, response: read } = await target
        .as('developer')
        .GET('/projects/{id}/repository/files/{file_path}', {
          params: { path: { id: project, file_path: `carriers/${tag}.txt` }, query: { ref: FILES_BRANCH } },
        });
      expect(read.status).toBe(200);
      expect(Buffer.from(data?.content ?? '', 'base64').toString('utf8')).toBe(params.content);
      const blame = await target.as('developer').GET('/projects/{id}/repository/files/{file_path}/blame', {
        params: { path: { id: project, file_path: `carriers/${tag}.txt` }, query: { ref: FILES_BRANCH } },
      });
      expect(blame.data?.[0]?.commit).toMatchObject({
        message: `add ${tag}`,
        author_name: `Author ${tag}`,
        author_email: `${tag}@example.com`,
      });
    },
  });
});

describeCarriers('branches: creating a branch', {
  role: 'developer',
  status: 201,
  url: () => projectUrl('/repository/branches'),
  params: (tag) => ({ branch: `branch_${tag}`, ref: target.config.fixtures.unprotectedBranch }),
  // main and the unprotected branch have different tips, so the read-back tells which ref was used.
  conflict: { name: 'ref', wrong: 'main' },
  async check(tag, params) {
    const client = target.as('developer');
    const created = await client.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: `branch_${tag}` } },
    });
    const source = await client.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: String(params.ref) } },
    });
    expect(created.data?.name).toBe(`branch_${tag}`);
    expect(created.data?.commit.id).toBe(source.data?.commit.id);
  },
});

describeCarriers('protected branches: protecting a branch', {
  role: 'maintainer',
  status: 201,
  url: () => projectUrl('/protected_branches'),
  params: (tag) => ({
    name: `protected_${tag}`,
    push_access_level: 30,
    merge_access_level: 0,
    code_owner_approval_required: true,
    allowed_to_push: [{ user_id: target.config.fixtures.users.developer.id }],
  }),
  conflict: { name: 'push_access_level', wrong: 40 },
  async check(tag) {
    const { data, response } = await target.as('maintainer').GET('/projects/{id}/protected_branches/{name}', {
      params: { path: { id: project, name: `protected_${tag}` } },
    });
    expect(response.status).toBe(200);
    const developer = target.config.fixtures.users.developer.id;
    expect(data?.push_access_levels.map((level) => [level.access_level, level.user_id])).toEqual([
      [30, null],
      [null, developer],
    ]);
    expect(data?.merge_access_levels.map((level) => level.access_level)).toEqual([0]);
    expect(data?.code_owner_approval_required).toBe('true');
  },
});

describeCarriers('pipelines: creating a pipeline with variables', {
  role: 'maintainer',
  status: 201,
  url: () => projectUrl('/pipeline'),
  params: (tag) => ({
    ref: 'main',
    variables: [
      { key: 'CARRIER', value: tag },
      { key: 'SECOND', value: 'two words & more', variable_type: 'file' },
    ],
  }),
  conflict: { name: 'variables', wrong: [{ key: 'FROM_QUERY', value: 'wrong' }] },
  async check(tag, _params, response) {
    const id = field(response, 'id');
    expect(field(response, 'ref')).toBe('main');
    const { data } = await target.as('maintainer').GET('/projects/{id}/pipelines/{pipeline_id}/variables', {
      params: { path: { id: project, pipeline_id: Number(id) } },
    });
    expect(data).toEqual([
      { key: 'CARRIER', value: tag, variable_type: 'env_var' },
      { key: 'SECOND', value: 'two words & more', variable_type: 'file' },
    ]);
  },
});

const deployKeys = new Map<string, string>();
function deployKeyFor(tag: string): string {
  let key = deployKeys.get(tag);
  if (key === undefined) {
    key = newKey('ed25519', `${tag}@example.com`);
    deployKeys.set(tag, key);
  }
  return key;
}

describeCarriers('deploy keys: adding a key', {
  role: 'maintainer',
  status: 201,
  url: () => projectUrl('/deploy_keys'),
  params: (tag) => ({ title: `Key ${tag}`, key: deployKeyFor(tag), can_push: true }),
  conflict: { name: 'title', wrong: 'title from the query' },
  async check(tag, params, response) {
    const { data, response: read } = await target
      .as('maintainer')
      .GET('/projects/{id}/deploy_keys/{key_id}', {
        params: { path: { id: project, key_id: Number(field(response, 'id')) } },
      });
    expect(read.status).toBe(200);
    expect(data).toMatchObject({ title: `Key ${tag}`, key: params.key, can_push: true });
  },
});

describeCarriers('remote mirrors: creating a mirror', {
  role: 'maintainer',
  status: 201,
  url: () => projectUrl('/remote_mirrors'),
  // Disabled, so nothing is pushed to the (unreachable) host.
  params: (tag) => ({
    url: `https://mirror.example.com/${tag}.git`,
    enabled: false,
    only_protected_branches: true,
    keep_divergent_refs: true,
  }),
  conflict: { name: 'only_protected_branches', wrong: false },
  async check(tag, _params, response) {
    const client = target.as('maintainer');
    const mirrors = await collect(
      client.paginate(() =>
        client.GET('/projects/{id}/remote_mirrors', {
          params: { path: { id: project }, query: { per_page: 100 } },
        }),
      ),
    );
    expect(mirrors.find((mirror) => mirror.id === field(response, 'id'))).toMatchObject({
      url: `https://mirror.example.com/${tag}.git`,
      enabled: false,
      only_protected_branches: true,
      keep_divergent_refs: true,
    });
  },
});

async function exportStatus(): Promise<string | undefined> {
  const { data } = await target
    .as('maintainer')
    .GET('/projects/{id}/export', { params: { path: { id: project } } });
  return data?.export_status;
}

describe('project export', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  describeCarriers('scheduling an export with upload[url] and upload[http_method]', {
    role: 'maintainer',
    status: 202,
    url: () => projectUrl('/export'),
    params: (tag) => ({
      description: `Export ${tag}`,
      upload: { url: `${receiver.url}&tag=${tag}`, http_method: 'POST' },
    }),
    conflict: { name: 'description', wrong: 'description from the query' },
    async check(tag) {
      // The upload URL carries the tag, so this export's upload is told from earlier ones.
      const upload = await waitFor(
        `the upload of ${tag}`,
        async () => receiver.received.find((request) => request.url.endsWith(`&tag=${tag}`)),
        (found) => found !== undefined,
      );
      expect(upload?.method).toBe('POST');
      const archived = JSON.parse(
        readTarGz(upload?.body ?? Buffer.alloc(0))
          .get('project.json')
          ?.toString('utf8') ?? '{}',
      );
      expect(archived.description).toBe(`Export ${tag}`);
    },
  });
});

describe('project import: multipart fields and the query string', () => {
  let archive: Buffer;
  let namespace: string;

  beforeAll(async () => {
    namespace = target.config.fixtures.namespace;
    const client = target.as('maintainer');
    await waitFor('no export in progress', exportStatus, (state) => state === 'none' || state === 'finished');
    const { response } = await client.POST('/projects/{id}/export', {
      params: { path: { id: project } },
      body: {},
    });
    expect(response.status).toBe(202);
    // Any finished archive of the project will do, also an earlier one.
    await waitFor('the export to finish', exportStatus, (state) => state === 'finished');
    const download = await target.fetch(projectUrl('/export/download'), {
      headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
    });
    expect(download.status).toBe(200);
    archive = Buffer.from(await download.arrayBuffer());
  });

  function importParams(tag: string): Params {
    return {
      path: `import_${tag}`,
      namespace,
      name: `Import ${tag}`,
      override_params: { description: `Imported through ${tag}` },
    };
  }

  function multipart(fields: Params): FormData {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'export.tar.gz');
    for (const [name, value] of bracketPairs(fields)) form.set(name, value);
    return form;
  }

  const cases: {
    id: string;
    description: string;
    fields: (params: Params) => { form: Params; query: Params };
  }[] = [
    {
      id: 'multipart',
      description: 'as multipart fields only',
      fields: (params) => ({ form: params, query: {} }),
    },
    {
      id: 'multipart_query',
      description: 'in the query string, only the file in the multipart body',
      fields: (params) => ({ form: {}, query: params }),
    },
    {
      id: 'multipart_mixed',
      description:
        'half in the query string, half as multipart fields, the fields winning on a name given twice',
      fields: (params) => {
        const { query, body } = split(params, { name: 'name', wrong: 'Name from the query' });
        return { form: body, query };
      },
    },
  ];

  for (const carrier of cases) {
    it(`takes the parameters ${carrier.description}`, async () => {
      const tag = `c${RUN}_${carrier.id}`;
      const params = importParams(tag);
      const { form, query } = carrier.fields(params);
      const response = await target.fetch(withQuery(apiUrl('/projects/import'), query), {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
        body: multipart(form),
      });
      const created = (await response.json()) as { id: number };
      expect(response.status, JSON.stringify(created)).toBe(201);
      const status = await waitFor(
        `the import of ${tag}`,
        async () =>
          (
            await target
              .as('maintainer')
              .GET('/projects/{id}/import', { params: { path: { id: String(created.id) } } })
          ).data,
        (value) => value?.import_status === 'finished' || value?.import_status === 'failed',
      );
      expect(status).toMatchObject({
        import_status: 'finished',
        name: `Import ${tag}`,
        path: `import_${tag}`,
        path_with_namespace: `${namespace}/import_${tag}`,
        description: `Imported through ${tag}`,
      });
    });
  }
});

describe('features: setting a gate (administrators)', () => {
  describeCarriers('a percentage-of-time gate', {
    role: 'admin',
    status: 201,
    url: (tag) => apiUrl(`/features/feature_${tag}`),
    params: () => ({ value: 25, key: 'percentage_of_time' }),
    conflict: { name: 'value', wrong: 75 },
    async check(tag, _params, response) {
      const expected = {
        name: `feature_${tag}`,
        state: 'conditional',
        gates: [
          { key: 'boolean', value: false },
          { key: 'percentage_of_time', value: 25 },
        ],
      };
      expect(response).toEqual(expected);
      const client = target.as('admin');
      const features = await collect(
        client.paginate(() => client.GET('/features', { params: { query: { per_page: 100 } } })),
      );
      expect(features.find((feature) => feature.name === `feature_${tag}`)).toEqual(expected);
    },
  });
});

/* Reads --------------------------------------------------------------------------------------------- */

const validator = new ResponseValidator(loadSpecIndex());

/** A GET with a body (fetch refuses to send one), its response validated against the spec as target.fetch does. */
async function getWithBody(url: string, headers: Record<string, string>, body: string) {
  const answer = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const options = {
      method: 'GET',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    };
    const sent = request(url, options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const received = new Headers();
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string') received.set(name, value);
        resolve({
          status: response.statusCode ?? 0,
          headers: received,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
  const { problems } = validator.check('GET', url, answer.status, answer.headers, answer.text);
  expect(problems).toEqual([]);
  return answer;
}

describe('reads take their parameters from a form or JSON body too (the body winning)', () => {
  const readCarriers = [
    { description: 'in the query string', query: { per_page: 1 }, headers: {}, body: '' },
    { description: 'as form fields', query: {}, headers: FORM_TYPE, body: 'per_page=1' },
    { description: 'as a JSON body', query: {}, headers: JSON_TYPE, body: '{"per_page":1}' },
    {
      description: 'in a JSON body over the query',
      query: { per_page: 7 },
      headers: JSON_TYPE,
      body: '{"per_page":1}',
    },
  ];

  for (const carrier of readCarriers) {
    it(`lists storage moves (administrators) with per_page ${carrier.description}`, async () => {
      const url = withQuery(apiUrl('/project_repository_storage_moves'), carrier.query);
      const { status, headers } = await getWithBody(
        url,
        { ...carrier.headers, 'PRIVATE-TOKEN': target.config.tokens.admin },
        carrier.body,
      );
      expect(status).toBe(200);
      expect(headers.get('X-Per-Page')).toBe('1');
    });
  }

  it('lists branches with search in a JSON body and per_page in a form body, over the query', async () => {
    const headers = { 'PRIVATE-TOKEN': target.config.tokens.developer };
    const json = await getWithBody(
      withQuery(projectUrl('/repository/branches'), { search: 'no-such-branch', per_page: 100 }),
      { ...headers, ...JSON_TYPE },
      JSON.stringify({ search: `branch_c${RUN}_` }),
    );
    expect(json.status).toBe(200);
    const names = (JSON.parse(json.text) as { name: string }[]).map((branch) => branch.name).sort();
    expect(names).toEqual(CARRIERS.map((carrier) => `branch_c${RUN}_${carrier.id}`).sort());
    // The pagination links carry the filter the body gave, not the query's.
    expect(json.headers.get('Link')).toContain(`search=branch_c${RUN}_`);
    expect(json.headers.get('Link')).not.toContain('no-such-branch');

    const form = await getWithBody(
      withQuery(projectUrl('/repository/branches'), { search: `branch_c${RUN}_` }),
      { ...headers, ...FORM_TYPE },
      'per_page=2',
    );
    expect(form.headers.get('X-Per-Page')).toBe('2');
    expect(form.headers.get('X-Total')).toBe(String(CARRIERS.length));
    expect(JSON.parse(form.text)).toHaveLength(2);
  });
});

// Repository files: read, HEAD, blame, raw and one-file commits, with their permission and failure rules.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type JsonObject, loadSpecIndex, resolveRef } from '../src/specIndex.js';

let target: Target;
let project: string;
let privateProject: string;
/** The public project's unprotected branch, where the developer commits. */
let branch: string;

beforeAll(async () => {
  target = await openTarget();
  project = target.config.fixtures.publicProject;
  privateProject = target.config.fixtures.privateProject;
  branch = target.config.fixtures.unprotectedBranch;
});
afterAll(async () => {
  await target.close();
});

const FILE = '/projects/{id}/repository/files/{file_path}' as const;

describe("GitLab's X-Gitlab-* file headers", () => {
  // Driven by the spec: every operation whose success documents the seeds' X-Service-* headers.
  const index = loadSpecIndex();
  const withFileHeaders = index.operations.filter((entry) => {
    const ok = resolveRef<JsonObject>(index, (entry.operation.responses as JsonObject)['200'] ?? {});
    return Object.keys((ok.headers as JsonObject | undefined) ?? {}).some((name) =>
      name.startsWith('X-Service-'),
    );
  });

  it('are sent beside the X-Service-* ones, with the same values, on every such operation', async () => {
    expect(withFileHeaders.map((entry) => entry.operationId).sort()).toEqual(
      expect.arrayContaining(['getRepositoryFile', 'headRepositoryFile', 'getRepositoryFileRaw']),
    );
    for (const entry of withFileHeaders) {
      const path = entry.template
        .replace('{id}', encodeURIComponent(project))
        .replace('{file_path}', encodeURIComponent('README.md'));
      const response = await target.fetch(`${target.config.baseUrl}/api/v4${path}?ref=main`, {
        method: entry.method,
      });
      await response.arrayBuffer();
      expect([entry.operationId, response.status]).toEqual([entry.operationId, 200]);
      const service = [...response.headers].filter(([name]) => name.startsWith('x-service-'));
      expect(service.length).toBe(9);
      for (const [name, value] of service)
        expect([
          entry.operationId,
          name,
          response.headers.get(name.replace('x-service-', 'x-gitlab-')),
        ]).toEqual([entry.operationId, name, value]);
      expect([entry.operationId, response.headers.get('X-Gitlab-Execute-Filemode')]).toEqual([
        entry.operationId,
        'false',
      ]);
    }
    expect(withFileHeaders.length).toBe(6);
  });

  it('say whether the file is executable (X-Gitlab-Execute-Filemode, execute_filemode), as the writes set it', async () => {
    const developer = target.as('developer');
    const filePath = `bin/run-${RUN}.sh`;
    const params = { path: { id: project, file_path: filePath } };
    const read = async () => {
      const got = await developer.GET(FILE, { params: { ...params, query: { ref: branch } } });
      const head = await developer.HEAD(FILE, { params: { ...params, query: { ref: branch } } });
      expect([got.response.status, head.response.status]).toEqual([200, 200]);
      const header = head.response.headers.get('X-Gitlab-Execute-Filemode');
      expect(got.response.headers.get('X-Gitlab-Execute-Filemode')).toBe(header);
      return [got.data?.execute_filemode, header];
    };
    const write = async (method: 'POST' | 'PUT', content: string, executeFilemode?: boolean) => {
      const body = {
        branch,
        content,
        commit_message: `${method} ${filePath}`,
        execute_filemode: executeFilemode,
      };
      const { response } = await (method === 'POST'
        ? developer.POST(FILE, { params, body })
        : developer.PUT(FILE, { params, body }));
      expect(response.status).toBe(method === 'POST' ? 201 : 200);
    };
    await write('POST', '#!/bin/sh\necho one\n', true);
    expect(await read()).toEqual([true, 'true']);
    // An update without execute_filemode keeps the mode; false makes it a plain file again.
    await write('PUT', '#!/bin/sh\necho two\n');
    expect(await read()).toEqual([true, 'true']);
    await write('PUT', '#!/bin/sh\necho three\n', false);
    expect(await read()).toEqual([false, 'false']);
  });
});

describe('GET and HEAD a file', () => {
  it('reads a public file without a token, with base64 content and matching digests', async () => {
    const { data, response } = await target.as('anonymous').GET(FILE, {
      params: { path: { id: project, file_path: 'README.md' }, query: { ref: 'main' } },
    });
    expect(response.status).toBe(200);
    expect(data?.file_name).toBe('README.md');
    const content = Buffer.from(data?.content ?? '', 'base64');
    expect(data?.size).toBe(content.length);
    expect(data?.content_sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(data?.commit_id).toMatch(/^[0-9a-f]{40}$/);
    expect(data?.last_commit_id).toMatch(/^[0-9a-f]{40}$/);
    expect(data?.blob_id).toMatch(/^[0-9a-f]{40}$/);
  });

  it('answers HEAD with the nine X-Service headers and no body', async () => {
    const get = await target.as('anonymous').GET(FILE, {
      params: { path: { id: project, file_path: 'src/index.html' }, query: { ref: 'main' } },
    });
    const { response } = await target.as('anonymous').HEAD(FILE, {
      params: { path: { id: project, file_path: 'src/index.html' }, query: { ref: 'main' } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Service-Blob-Id')).toBe(get.data?.blob_id);
    expect(response.headers.get('X-Service-Commit-Id')).toBe(get.data?.commit_id);
    expect(response.headers.get('X-Service-Last-Commit-Id')).toBe(get.data?.last_commit_id);
    expect(response.headers.get('X-Service-Content-Sha256')).toBe(get.data?.content_sha256);
    expect(response.headers.get('X-Service-Size')).toBe(String(get.data?.size));
    expect(response.headers.get('X-Service-Encoding')).toBe('base64');
    expect(decodeURIComponent(response.headers.get('X-Service-File-Name') ?? '')).toBe('index.html');
    expect(decodeURIComponent(response.headers.get('X-Service-File-Path') ?? '')).toBe('src/index.html');
    expect(response.headers.get('X-Service-Ref')).toBe('main');
    expect(await response.text()).toBe('');
  });

  it('accepts %2F in both :id and :file_path, and spaces in paths', async () => {
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/repository/files/${encodeURIComponent('docs/guide/getting started.md')}?ref=main`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { file_path: string };
    expect(body.file_path).toBe('docs/guide/getting started.md');
  });

  it('gives 404 for an unknown file, an unknown ref and an unknown project', async () => {
    const client = target.as('developer');
    for (const [id, filePath, ref] of [
      [project, 'nope.txt', 'main'],
      [project, 'README.md', 'no-such-ref'],
      [`${target.config.fixtures.namespace}/no-such-project`, 'README.md', 'main'],
    ] as const) {
      const { response, error } = await client.GET(FILE, {
        params: { path: { id, file_path: filePath }, query: { ref } },
      });
      expect(response.status).toBe(404);
      expect(error?.message).toMatch(/404/);
    }
  });

  it('hides a private project from anonymous callers and outsiders (404) and refuses guests (403)', async () => {
    const params = { path: { id: privateProject, file_path: 'README.md' }, query: { ref: 'main' } };
    expect((await target.as('anonymous').GET(FILE, { params })).response.status).toBe(404);
    expect((await target.as('outsider').GET(FILE, { params })).response.status).toBe(404);
    expect((await target.as('guest').GET(FILE, { params })).response.status).toBe(403);
    expect((await target.as('reporter').GET(FILE, { params })).response.status).toBe(200);
    expect((await target.as('developerReadRepository').GET(FILE, { params })).response.status).toBe(200);
  });

  it('needs ref (400)', async () => {
    const response = await target.fetch(
      `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/repository/files/README.md`,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/ref/) });
  });
});

describe('blame and raw', () => {
  it('groups blame lines by commit, with the commit objects', async () => {
    const client = target.as('developer');
    // A file of this run: its blame is these two commits only.
    const params = { path: { id: project, file_path: `blame-me-${RUN}.txt` } };
    await client.POST(FILE, {
      params,
      body: {
        branch,
        content: 'one\ntwo\n',
        commit_message: 'first',
        author_name: 'First Author',
        author_email: 'first@example.com',
      },
    });
    await client.PUT(FILE, {
      params,
      body: {
        branch,
        content: 'one\ntwo\nthree\n',
        commit_message: 'second',
        author_name: 'Second Author',
        author_email: 'second@example.com',
      },
    });
    const { data } = await client.GET(`${FILE}/blame`, { params: { ...params, query: { ref: branch } } });
    expect(data?.map((range) => [range.commit.author_name, range.lines])).toEqual([
      ['First Author', ['one', 'two']],
      ['Second Author', ['three']],
    ]);
    expect(data?.[1]?.commit.message.trim()).toBe('second');
    expect(data?.[1]?.commit.parent_ids).toEqual([data?.[0]?.commit.id]);
  });

  it('serves raw bytes, and HEAD on raw and blame', async () => {
    const client = target.as('anonymous');
    const params = { path: { id: project, file_path: 'README.md' }, query: { ref: 'main' } };
    const file = await client.GET(FILE, { params });
    const { data } = await client.GET(`${FILE}/raw`, { params, parseAs: 'text' });
    expect(data?.length).toBeGreaterThan(0);
    expect(data).toBe(Buffer.from(file.data?.content ?? '', 'base64').toString('utf8'));
    expect((await client.HEAD(`${FILE}/raw`, { params })).response.headers.get('X-Service-Size')).toBe(
      String(Buffer.byteLength(data ?? '')),
    );
    expect((await client.HEAD(`${FILE}/blame`, { params })).response.status).toBe(200);
    expect(
      (await client.GET(`${FILE}/raw`, { params: { ...params, query: { ref: 'nope' } } })).response.status,
    ).toBe(404);
  });
});

describe('committing one file', () => {
  it('creates (201), updates (200) and deletes (204) a file, with base64 and author fields', async () => {
    const client = target.as('developer');
    // A file of this run (deleted at the end, unless the test fails before).
    const filePath = `dir/new file ${RUN}.bin`;
    const params = { path: { id: project, file_path: filePath } };
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const created = await client.POST(FILE, {
      params,
      body: {
        branch,
        content: bytes.toString('base64'),
        encoding: 'base64',
        commit_message: 'add binary',
        author_name: 'Bin Author',
        author_email: 'bin@example.com',
      },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ file_path: filePath, branch });
    const read = await client.GET(FILE, { params: { ...params, query: { ref: branch } } });
    expect(Buffer.from(read.data?.content ?? '', 'base64')).toEqual(bytes);

    const updated = await client.PUT(FILE, {
      params,
      body: {
        branch,
        content: 'text now',
        commit_message: 'update',
        last_commit_id: read.data?.last_commit_id,
      },
    });
    expect(updated.response.status).toBe(200);
    const deleted = await client.DELETE(FILE, {
      params,
      body: { branch, commit_message: 'remove' },
    });
    expect(deleted.response.status).toBe(204);
    expect((await client.GET(FILE, { params: { ...params, query: { ref: branch } } })).response.status).toBe(
      404,
    );
  });

  it('creates a new branch from start_branch', async () => {
    const client = target.as('developer');
    const started = `feature/from-start-${RUN}`;
    const { response } = await client.POST(FILE, {
      params: { path: { id: project, file_path: 'feature.txt' } },
      body: { branch: started, start_branch: 'main', content: 'x', commit_message: 'start' },
    });
    expect(response.status).toBe(201);
    const created = await client.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch: started } },
    });
    expect(created.data?.commit.title).toBe('start');
  });

  it('refuses the three failure causes of the seed with 400', async () => {
    const client = target.as('maintainer');
    const current = await client.GET(FILE, {
      params: { path: { id: project, file_path: 'README.md' }, query: { ref: 'main' } },
    });
    const text = Buffer.from(current.data?.content ?? '', 'base64').toString('utf8');

    const traversal = await client.POST(FILE, {
      params: { path: { id: project, file_path: 'docs/../../etc/passwd' } },
      body: { branch: 'main', content: 'x', commit_message: 'escape' },
    });
    expect(traversal.response.status).toBe(400);

    const identical = await client.PUT(FILE, {
      params: { path: { id: project, file_path: 'README.md' } },
      body: { branch: 'main', content: text, commit_message: 'nothing' },
    });
    expect(identical.response.status).toBe(400);
    expect(identical.error?.message).toMatch(/identical/);

    const stale = await client.PUT(FILE, {
      params: { path: { id: project, file_path: 'README.md' } },
      body: {
        branch: 'main',
        content: `${text}more\n`,
        commit_message: 'stale',
        last_commit_id: '0'.repeat(40),
      },
    });
    expect(stale.response.status).toBe(400);
    expect(stale.error?.message).toMatch(/changed/);
  });

  it('lets exactly one of two concurrent edits of the same base win, and loses no commit', async () => {
    const client = target.as('developer');
    // A file of this run: both edits change it, whatever an earlier run left.
    const params = { path: { id: project, file_path: `race-${RUN}.txt` } };
    await client.POST(FILE, { params, body: { branch, content: 'start\n', commit_message: 'race start' } });
    const base = await client.GET(FILE, { params: { ...params, query: { ref: branch } } });
    const edits = await Promise.all(
      ['a', 'b'].map((name) =>
        client.PUT(FILE, {
          params,
          body: {
            branch,
            content: `${name}\n`,
            commit_message: `edit ${name}`,
            last_commit_id: base.data?.last_commit_id,
          },
        }),
      ),
    );
    const statuses = edits.map((edit) => edit.response.status).sort();
    expect(statuses).toEqual([200, 400]);
    const after = await client.GET(FILE, { params: { ...params, query: { ref: branch } } });
    const winner = edits.findIndex((edit) => edit.response.status === 200);
    expect(Buffer.from(after.data?.content ?? '', 'base64').toString()).toBe(`${['a', 'b'][winner]}\n`);
    const tip = await client.GET('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: project, branch } },
    });
    expect(tip.data?.commit.parent_ids).toEqual([base.data?.commit_id]);
  });

  it('enforces access: 401 anonymous, 403 reporter, 403 developer on protected main, 403 read_repository scope', async () => {
    // A file of this run: the maintainer's commit creates it.
    const params = { path: { id: project, file_path: `denied-${RUN}.txt` } };
    const body = { branch, content: 'x', commit_message: 'm' };
    expect((await target.as('anonymous').POST(FILE, { params, body })).response.status).toBe(401);
    expect((await target.as('reporter').POST(FILE, { params, body })).response.status).toBe(403);
    const scoped = await target.as('developerReadRepository').POST(FILE, { params, body });
    expect(scoped.response.status).toBe(403);
    expect(scoped.error?.error).toBe('insufficient_scope');
    const onMain = await target.as('developer').POST(FILE, { params, body: { ...body, branch: 'main' } });
    expect(onMain.response.status).toBe(403);
    expect(
      (await target.as('maintainer').POST(FILE, { params, body: { ...body, branch: 'main' } })).response
        .status,
    ).toBe(201);
  });

  it('rejects a missing required field and a wrong type with 400 in the Error shape', async () => {
    const client = target.as('developer');
    const params = { path: { id: project, file_path: 'bad.txt' } };
    // @ts-expect-error commit_message is required: the bad request is the point of the test
    const missing = await client.POST(FILE, { params, body: { branch, content: 'x' } });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.error).toMatch(/commit_message/);
    const wrong = await client.POST(FILE, {
      params,
      // @ts-expect-error encoding must be text or base64
      body: { branch, content: 'x', commit_message: 'm', encoding: 'hex' },
    });
    expect(wrong.response.status).toBe(400);
  });
});

describe('parameter carriers', () => {
  const url = () =>
    `${target.config.baseUrl}/api/v4/projects/${encodeURIComponent(project)}/repository/files/`;
  const token = () => target.config.tokens.developer;

  it('takes write parameters from the query string', async () => {
    const query = new URLSearchParams({ branch, content: 'q', commit_message: 'via query' });
    const response = await target.fetch(`${url()}carrier-query-${RUN}.txt?${query}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token() },
    });
    expect(response.status).toBe(201);
  });

  it('takes write parameters as form fields', async () => {
    const response = await target.fetch(`${url()}carrier-form-${RUN}.txt`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ branch, content: 'f', commit_message: 'via form' }),
    });
    expect(response.status).toBe(201);
  });

  it('takes write parameters as a JSON body, and the token from private_token', async () => {
    const response = await target.fetch(`${url()}carrier-json-${RUN}.txt?private_token=${token()}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, content: 'j', commit_message: 'via json' }),
    });
    expect(response.status).toBe(201);
  });
});

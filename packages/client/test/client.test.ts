// The client against a local HTTP server: auth headers, typed errors, timeouts and abort signals, the page
// iterators, HEAD metadata of repository files and multipart bodies.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ApiErrorBody,
  CollabApiError,
  CollabTimeoutError,
  type components,
  createCollabClient,
  createScimClient,
  multipart,
  nextLink,
  redactUrl,
  repositoryFileHeaders,
  unwrap,
} from '../src/index.js';
import { json, type ScriptedServer, startScriptedServer } from './scriptedServer.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const client = (options: { timeoutMs?: number } = {}) =>
  createCollabClient({ baseUrl: `${server.baseUrl}/`, token: 'secret', ...options });
const branches = '/projects/{id}/repository/branches' as const;

describe('auth', () => {
  it('sends the token as PRIVATE-TOKEN to {baseUrl}/api/v4 and encodes / in path parameters', async () => {
    server.answer((_request, response) => json(response, 200, []));
    await client().GET(branches, { params: { path: { id: 'group/project' } } });
    expect(server.seen[0]?.url).toBe('/api/v4/projects/group%2Fproject/repository/branches');
    expect(server.seen[0]?.headers['private-token']).toBe('secret');
    expect(server.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('reads a base URL given as the API root (/api/v4, /api/scim/v2) as the service origin', async () => {
    server.answer((_request, response) => json(response, 200, []));
    const fromRoot = createCollabClient({ baseUrl: `${server.baseUrl}/api/v4/` });
    await fromRoot.GET(branches, { params: { path: { id: 7 } } });
    expect(server.seen[0]?.url).toBe('/api/v4/projects/7/repository/branches');
    server.answer((_request, response) => response.writeHead(204).end());
    const scim = createScimClient({ baseUrl: `${server.baseUrl}/api/scim/v2`, token: 't' });
    await scim.DELETE('/groups/{group_path}/Users/{id}', { params: { path: { group_path: 'g', id: 'x' } } });
    expect(server.seen[0]?.url).toBe('/api/scim/v2/groups/g/Users/x');
  });

  it('sends SCIM calls to {baseUrl}/api/scim/v2 with the bearer token', async () => {
    server.answer((_request, response) => response.writeHead(204).end());
    const scim = createScimClient({ baseUrl: server.baseUrl, token: 'scim-secret' });
    await scim.DELETE('/groups/{group_path}/Users/{id}', {
      params: { path: { group_path: 'acme/platform', id: 'ext-1' } },
    });
    expect(server.seen[0]?.url).toBe('/api/scim/v2/groups/acme%2Fplatform/Users/ext-1');
    expect(server.seen[0]?.headers.authorization).toBe('Bearer scim-secret');
    expect(server.seen[0]?.headers['private-token']).toBeUndefined();
  });
});

describe('errors', () => {
  it('unwrap throws a CollabApiError with the status, the Error body and the request', async () => {
    server.answer((_request, response) => json(response, 404, { message: '404 Branch Not Found' }));
    const failure = await unwrap(
      client().DELETE('/projects/{id}/repository/branches/{branch}', {
        params: { path: { id: 5, branch: 'feature/x' } },
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CollabApiError);
    const error = failure as CollabApiError;
    expectTypeOf(error.body).toEqualTypeOf<components['schemas']['Error'] | undefined>();
    expect(error.status).toBe(404);
    expect(error.body).toEqual({ message: '404 Branch Not Found' });
    expect(error.request).toEqual({
      method: 'DELETE',
      url: `${server.baseUrl}/api/v4/projects/5/repository/branches/feature%2Fx`,
    });
    expect(error.message).toContain('404 Branch Not Found');
    expect(error.message).not.toContain('secret');
  });

  it('keeps a field error map, and leaves out a body that is not an Error object', async () => {
    server.answer((_request, response) => json(response, 400, { message: { name: ['is too long'] } }));
    const fieldError = await unwrap(client().GET(branches, { params: { path: { id: 1 } } })).catch((e) => e);
    expect((fieldError as CollabApiError).body).toEqual({ message: { name: ['is too long'] } });
    server.answer((_request, response) =>
      response.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>x</h1>'),
    );
    const proxyError = await unwrap(
      client().GET(branches, { params: { path: { id: 1 } }, retry: false }),
    ).catch((e) => e);
    expect((proxyError as CollabApiError).status).toBe(502);
    expect((proxyError as CollabApiError).body).toBeUndefined();
  });

  it('never names a token in the request URL', () => {
    const url = 'http://h/api/v4/projects?private_token=abc&page=2&access_token=d&job_token=e';
    expect(redactUrl(url)).toBe('http://h/api/v4/projects?page=2');
    const error = new CollabApiError<ApiErrorBody>(401, undefined, { method: 'GET', url: redactUrl(url) });
    expect(error.message).not.toMatch(/abc|=d|=e/);
  });
});

describe('timeout and abort', () => {
  const slow = () =>
    server.answer((_request, response) => {
      setTimeout(() => json(response, 200, []), 2000).unref();
    });

  it('rejects a call that takes longer than its timeout with a CollabTimeoutError naming it', async () => {
    slow();
    const started = performance.now();
    const failure = await client()
      .GET(branches, { params: { path: { id: 1 } }, timeoutMs: 100 })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(failure).toBeInstanceOf(CollabTimeoutError);
    expect((failure as CollabTimeoutError).timeoutMs).toBe(100);
    expect((failure as CollabTimeoutError).request).toEqual({
      method: 'GET',
      url: `${server.baseUrl}/api/v4/projects/1/repository/branches`,
    });
    expect((failure as Error).message).toContain('100 ms');
  });

  it('applies the client timeout, and a call may override it', async () => {
    slow();
    await expect(client({ timeoutMs: 80 }).GET(branches, { params: { path: { id: 1 } } })).rejects.toThrow(
      CollabTimeoutError,
    );
    server.answer((_request, response) => {
      setTimeout(() => json(response, 200, []), 150);
    });
    const call = await client({ timeoutMs: 80 }).GET(branches, {
      params: { path: { id: 1 } },
      timeoutMs: 2000,
    });
    expect(call.response.status).toBe(200);
  });

  it('combines the caller signal with the timeout: either one stops the call', async () => {
    slow();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(
      client().GET(branches, { params: { path: { id: 1 } }, signal: controller.signal, timeoutMs: 5000 }),
    ).rejects.toThrow('user left');
    const idle = new AbortController();
    await expect(
      client().GET(branches, { params: { path: { id: 1 } }, signal: idle.signal, timeoutMs: 80 }),
    ).rejects.toThrow(CollabTimeoutError);
  });

  it('stops a retry loop at once when aborted during a wait', async () => {
    server.answer((_request, response) => json(response, 503, { message: 'busy' }, { 'Retry-After': '20' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    // A project of its own: a request an earlier test gave up on may reach the server after this test began.
    const failure = await client()
      .GET(branches, { params: { path: { id: 154 } }, signal: controller.signal })
      .catch((error: unknown) => error);
    expect((failure as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.seen.filter((request) => request.url.includes('/projects/154/'))).toHaveLength(1);
  });

  it('times out a retry loop, naming the timeout', async () => {
    server.answer((_request, response) => json(response, 503, { message: 'busy' }, { 'Retry-After': '20' }));
    await expect(client().GET(branches, { params: { path: { id: 1 } }, timeoutMs: 100 })).rejects.toThrow(
      /timed out after 100 ms/,
    );
  });
});

describe('pages', () => {
  type Branch = components['schemas']['Branch'];
  const branch = (name: string) => ({ name }) as Branch;

  it('follows Link across offset pages with the typed pagination headers', async () => {
    server.answer((request, response) => {
      const page = Number(new URL(request.url, server.baseUrl).searchParams.get('page') ?? '1');
      const next =
        page < 3
          ? `<${server.baseUrl}${new URL(request.url, server.baseUrl).pathname}?page=${page + 1}&per_page=2>; rel="next", `
          : '';
      json(response, 200, page < 3 ? [branch(`b${page}a`), branch(`b${page}b`)] : [branch('b3a')], {
        'X-Total': '5',
        'X-Total-Pages': '3',
        'X-Per-Page': '2',
        'X-Page': String(page),
        'X-Next-Page': page < 3 ? String(page + 1) : '',
        'X-Prev-Page': page > 1 ? String(page - 1) : '',
        Link: `${next}<${server.baseUrl}/first>; rel="first"`,
      });
    });
    const api = client();
    const list = () => api.GET(branches, { params: { path: { id: 1 }, query: { per_page: 2 } } });
    const pages = [];
    for await (const page of api.pages(list)) pages.push(page);
    expect(pages.map((page) => page.items.map((b) => b.name))).toEqual([
      ['b1a', 'b1b'],
      ['b2a', 'b2b'],
      ['b3a'],
    ]);
    expectTypeOf<(typeof pages)[number]['items']>().toEqualTypeOf<Branch[]>();
    expect(pages[0]?.pagination).toEqual({
      total: 5,
      totalPages: 3,
      perPage: 2,
      page: 1,
      nextPage: 2,
      prevPage: undefined,
      link: expect.stringContaining('rel="next"'),
    });
    expect(pages[2]?.pagination.nextPage).toBeUndefined();
    expect(pages[2]?.next).toBeUndefined();
    expect(pages[0]?.nextCursor).toBeUndefined();
    // Every page carries the token; the items iterator gives the same items.
    expect(server.seen.every((r) => r.headers['private-token'] === 'secret')).toBe(true);
    const names: string[] = [];
    for await (const item of api.paginate(list)) names.push(item.name);
    expect(names).toEqual(['b1a', 'b1b', 'b2a', 'b2b', 'b3a']);
  });

  it('follows keyset pages and exposes the next cursor', async () => {
    server.answer((request, response) => {
      const after = Number(new URL(request.url, server.baseUrl).searchParams.get('id_after') ?? '0');
      const items = [after + 1, after + 2].filter((id) => id <= 5).map((id) => ({ id }));
      const last = items.at(-1)?.id ?? 0;
      const link =
        last < 5
          ? `<${server.baseUrl}/api/v4/projects?pagination=keyset&order_by=id&id_after=${last}>; rel="next"`
          : undefined;
      json(response, 200, items, link ? { Link: link } : {});
    });
    const api = client();
    const cursors = [];
    const ids: number[] = [];
    for await (const page of api.pages(() =>
      api.GET('/projects', { params: { query: { pagination: 'keyset', order_by: 'id', per_page: 2 } } }),
    )) {
      cursors.push(page.nextCursor);
      ids.push(...page.items.map((project) => project.id));
      expect(page.pagination.total).toBeUndefined();
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(cursors).toEqual([{ name: 'id_after', value: '2' }, { name: 'id_after', value: '4' }, undefined]);
  });

  it('throws a CollabApiError naming the page that failed, and refuses a Link to another origin', async () => {
    server.answer((request, response) => {
      if (request.url.includes('page=2')) return json(response, 403, { message: '403 Forbidden' });
      json(response, 200, [branch('a')], {
        Link: `<${server.baseUrl}/api/v4/projects/1/repository/branches?page=2>; rel="next"`,
      });
    });
    const api = client();
    const list = () => api.GET(branches, { params: { path: { id: 1 } } });
    const failure = await (async () => {
      for await (const _ of api.paginate(list));
    })().catch((error: unknown) => error);
    expect((failure as CollabApiError).status).toBe(403);
    expect((failure as CollabApiError).request.url).toBe(
      `${server.baseUrl}/api/v4/projects/1/repository/branches?page=2`,
    );

    server.answer((_request, response) =>
      json(response, 200, [branch('a')], { Link: '<http://elsewhere.example/api/v4/x?page=2>; rel="next"' }),
    );
    await expect(
      (async () => {
        for await (const _ of api.paginate(list));
      })(),
    ).rejects.toThrow(/another origin/);
    expect(server.seen).toHaveLength(1);
  });

  it('finds rel="next" among other links', () => {
    expect(nextLink('<http://a/?page=1>; rel="first", <http://a/?page=3>; rel="next"')).toBe(
      'http://a/?page=3',
    );
    expect(nextLink('<http://a/?page=1>; rel="first"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});

describe('repository file metadata', () => {
  /** The headers under the seeds' `X-Service-*` names and GitLab's `X-Gitlab-*` ones, with the same values. */
  const bothNames = <T>(values: Record<string, T>): Record<string, T> =>
    Object.fromEntries(
      Object.entries(values).flatMap(([name, value]) => [
        [`X-Service-${name}`, value],
        [`X-Gitlab-${name}`, value],
      ]),
    );
  const SENT = {
    'Blob-Id': 'b1',
    'Commit-Id': 'c1',
    'Content-Sha256': 'e3b0',
    Encoding: 'base64',
    'File-Name': 'r%C3%A9sum%C3%A9.md',
    'File-Path': 'docs/r%C3%A9sum%C3%A9.md',
    'Last-Commit-Id': 'c0',
    Ref: 'main',
    Size: '32',
  };

  it('reads the typed headers of HEAD /projects/:id/repository/files/:file_path', async () => {
    server.answer((_request, response) =>
      response.writeHead(200, { ...bothNames(SENT), 'X-Gitlab-Execute-Filemode': 'true' }).end(),
    );
    const { response } = await client().HEAD('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 1, file_path: 'docs/résumé.md' }, query: { ref: 'main' } },
    });
    const file = repositoryFileHeaders(response);
    expectTypeOf(file['X-Service-Size']).toEqualTypeOf<number>();
    expectTypeOf(file['X-Gitlab-Size']).toEqualTypeOf<number>();
    expect(file).toEqual({
      ...bothNames({
        'Blob-Id': 'b1',
        'Commit-Id': 'c1',
        'Content-Sha256': 'e3b0',
        Encoding: 'base64',
        'File-Name': 'résumé.md',
        'File-Path': 'docs/résumé.md',
        'Last-Commit-Id': 'c0',
        Ref: 'main',
        Size: 32,
      }),
      'X-Gitlab-Execute-Filemode': 'true',
    });
    expect(server.seen[0]?.url).toBe(
      '/api/v4/projects/1/repository/files/docs%2Fr%C3%A9sum%C3%A9.md?ref=main',
    );
  });

  it('throws a CollabApiError for a 404', async () => {
    server.answer((_request, response) => response.writeHead(404).end());
    const { response } = await client().HEAD('/projects/{id}/repository/files/{file_path}', {
      params: { path: { id: 1, file_path: 'nope' }, query: { ref: 'main' } },
    });
    expect(() => repositoryFileHeaders(response)).toThrow(CollabApiError);
  });
});

describe('multipart', () => {
  it('sends a project import as multipart/form-data with the archive as a file', async () => {
    server.answer((_request, response) => json(response, 201, { id: 7, import_status: 'scheduled' }));
    const archive = new File([new Uint8Array([0x1f, 0x8b, 1, 2])], 'export.tar.gz', {
      type: 'application/gzip',
    });
    await client().POST(
      '/projects/import',
      multipart<'/projects/import'>({
        path: 'imported',
        file: archive,
        override_params: { name: 'Imported' },
      }),
    );
    const seen = server.seen[0];
    expect(seen?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen?.body).toContain('name="file"; filename="export.tar.gz"');
    expect(seen?.body).toContain('Content-Type: application/gzip');
    expect(seen?.body).toContain('name="override_params[name]"');
    expect(seen?.body).toContain('name="path"\r\n\r\nimported');
  });

  it('types the body from the spec', () => {
    // @ts-expect-error path is required by the import
    multipart<'/projects/import'>({ file: new Blob([]) });
    // @ts-expect-error the branches list takes no multipart body
    multipart<'/projects/{id}/repository/branches'>({});
  });
});

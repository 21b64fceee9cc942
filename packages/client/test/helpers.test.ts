// Unit tests of the client's own logic: retries with Retry-After, Link parsing, errors, auth header.
import { describe, expect, it } from 'vitest';
import {
  CollabApiError,
  createCollabClient,
  createScimClient,
  nextLink,
  retryAfterMs,
  retryingFetch,
  unwrap,
} from '../src/index.js';

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and ignores garbage', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('retryingFetch', () => {
  it('retries 429/502/503/504 with the same body, then gives the last answer', async () => {
    const seen: string[] = [];
    const statuses = [503, 429, 201];
    const fake: typeof fetch = async (input) => {
      const request = input as Request;
      seen.push(await request.text());
      return new Response(null, { status: statuses.shift() ?? 500, headers: { 'Retry-After': '0' } });
    };
    const response = await retryingFetch(fake, { retries: 3 })('http://x/api', {
      method: 'POST',
      body: 'payload',
    });
    expect(response.status).toBe(201);
    expect(seen).toEqual(['payload', 'payload', 'payload']);
  });

  it('does not retry other statuses and stops after the configured retries', async () => {
    let calls = 0;
    const fake: typeof fetch = async () => {
      calls++;
      return new Response(null, { status: calls === 1 ? 400 : 503 });
    };
    expect((await retryingFetch(fake, { retries: 2, baseDelayMs: 1 })('http://x')).status).toBe(400);
    calls = 1;
    expect((await retryingFetch(fake, { retries: 2, baseDelayMs: 1 })('http://x')).status).toBe(503);
    expect(calls).toBe(4);
  });
});

describe('nextLink', () => {
  it('finds rel="next" among other links', () => {
    expect(nextLink('<http://a/?page=1>; rel="first", <http://a/?page=3>; rel="next"')).toBe(
      'http://a/?page=3',
    );
    expect(nextLink('<http://a/?page=1>; rel="first"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});

describe('createCollabClient', () => {
  it('sends the token as PRIVATE-TOKEN to {baseUrl}/api/v4 and encodes / in path parameters', async () => {
    let seen: Request | undefined;
    const client = createCollabClient({
      baseUrl: 'http://server:3000/',
      token: 'secret',
      retry: false,
      fetch: async (input) => {
        seen = input as Request;
        return Response.json([]);
      },
    });
    await client.GET('/projects/{id}/repository/branches', { params: { path: { id: 'group/project' } } });
    expect(seen?.url).toBe('http://server:3000/api/v4/projects/group%2Fproject/repository/branches');
    expect(seen?.headers.get('PRIVATE-TOKEN')).toBe('secret');
  });

  it('unwrap throws a CollabApiError with the status and the Error body', async () => {
    const client = createCollabClient({
      baseUrl: 'http://server',
      retry: false,
      fetch: async () => Response.json({ message: '404 Project Not Found' }, { status: 404 }),
    });
    const failure = await unwrap(
      client.GET('/projects/{id}/repository/branches', { params: { path: { id: 1 } } }),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CollabApiError);
    expect((failure as CollabApiError).status).toBe(404);
    expect((failure as CollabApiError).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('createScimClient', () => {
  it('sends SCIM calls to {baseUrl}/api/scim/v2 with the bearer token', async () => {
    let seen: Request | undefined;
    const scim = createScimClient({
      baseUrl: 'http://server:3000',
      token: 'scim-secret',
      retry: false,
      fetch: async (input) => {
        seen = input as Request;
        return new Response(null, { status: 204 });
      },
    });
    await scim.DELETE('/groups/{group_path}/Users/{id}', {
      params: { path: { group_path: 'acme/platform', id: 'ext-1' } },
    });
    expect(seen?.url).toBe('http://server:3000/api/scim/v2/groups/acme%2Fplatform/Users/ext-1');
    expect(seen?.headers.get('Authorization')).toBe('Bearer scim-secret');
  });
});

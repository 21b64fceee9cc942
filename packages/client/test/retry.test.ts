// The retry rules, each against a local HTTP server: which statuses and methods are retried, the waits the
// server names (Retry-After in seconds or as a date, RateLimit-Reset), backoff, bounds and opting in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCollabClient,
  type RetryOptions,
  rateLimitResetMs,
  retryAfterMs,
  retryDelayMs,
} from '../src/index.js';
import { type ScriptedServer, startScriptedServer, statusesThenOk } from './scriptedServer.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const client = (retry?: RetryOptions | false) =>
  createCollabClient({ baseUrl: server.baseUrl, token: 't', retry });
const listBranches = { params: { path: { id: 1 } } };
const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('the waits', () => {
  it('reads Retry-After as seconds or an HTTP date, and ignores garbage', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(new Date(now + 6000).toUTCString(), now)).toBe(6000);
    expect(retryAfterMs(new Date(now - 6000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('reads RateLimit-Reset as GitLab sends it (a Unix time) or as seconds to wait', () => {
    expect(rateLimitResetMs(String(now / 1000 + 7), now)).toBe(7000);
    expect(rateLimitResetMs('4', now)).toBe(4000);
    expect(rateLimitResetMs('-1', now)).toBeUndefined();
    expect(rateLimitResetMs('x', now)).toBeUndefined();
  });

  it('prefers Retry-After, then RateLimit-Reset, then doubles the base delay up to the maximum', () => {
    const both = new Response(null, { status: 429, headers: { 'Retry-After': '2', 'RateLimit-Reset': '9' } });
    expect(retryDelayMs(both, 0)).toBe(2000);
    const reset = new Response(null, { status: 429, headers: { 'RateLimit-Reset': '9' } });
    expect(retryDelayMs(reset, 0)).toBe(9000);
    const none = new Response(null, { status: 503 });
    expect(
      [0, 1, 2, 3].map((attempt) => retryDelayMs(none, attempt, { baseDelayMs: 100, maxDelayMs: 500 })),
    ).toEqual([100, 200, 400, 500]);
  });
});

describe('retried answers', () => {
  it.each([429, 502, 503, 504])('retries a GET answered %i', async (status) => {
    server.answer(statusesThenOk([status], { 'Retry-After': '0' }));
    const { response } = await client().GET('/projects/{id}/repository/branches', listBranches);
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(2);
  });

  it.each([400, 404, 409, 500, 501])('does not retry %i', async (status) => {
    server.answer(statusesThenOk([status], { 'Retry-After': '0' }));
    const { response } = await client().GET('/projects/{id}/repository/branches', listBranches);
    expect(response.status).toBe(status);
    expect(server.seen).toHaveLength(1);
  });

  it('waits the seconds of Retry-After', async () => {
    server.answer(statusesThenOk([429], { 'Retry-After': '1' }));
    const started = performance.now();
    await client().GET('/projects/{id}/repository/branches', listBranches);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.seen).toHaveLength(2);
  });

  it('waits until the date of Retry-After', async () => {
    // HTTP dates have whole seconds: 1.9 s ahead is 0.9 to 1.9 s of waiting.
    server.answer(statusesThenOk([503], { 'Retry-After': new Date(Date.now() + 1900).toUTCString() }));
    const started = performance.now();
    await client().GET('/projects/{id}/repository/branches', listBranches);
    expect(performance.now() - started).toBeGreaterThanOrEqual(850);
    expect(server.seen).toHaveLength(2);
  });

  it('waits until RateLimit-Reset when there is no Retry-After', async () => {
    server.answer(statusesThenOk([429], { 'RateLimit-Reset': '1' }));
    const started = performance.now();
    await client().GET('/projects/{id}/repository/branches', listBranches);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.seen).toHaveLength(2);
  });

  it('does not retry when the server asks for a longer wait than maxDelayMs: the caller gets the 429', async () => {
    server.answer(statusesThenOk([429], { 'Retry-After': '120' }));
    const started = performance.now();
    const { response } = await client({ maxDelayMs: 1000 }).GET(
      '/projects/{id}/repository/branches',
      listBranches,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('120');
    expect(performance.now() - started).toBeLessThan(900);
    expect(server.seen).toHaveLength(1);
  });

  it('stops after `retries` more attempts, backing off when the server names no wait', async () => {
    server.answer(statusesThenOk([503, 503, 503, 503, 503]));
    const started = performance.now();
    const { response } = await client({ retries: 2, baseDelayMs: 40 }).GET(
      '/projects/{id}/repository/branches',
      listBranches,
    );
    expect(response.status).toBe(503);
    expect(server.seen).toHaveLength(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40 + 80 - 5);
  });

  it('does not retry when the client or the call says `retry: false`', async () => {
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    expect(
      (await client(false).GET('/projects/{id}/repository/branches', listBranches)).response.status,
    ).toBe(503);
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    const call = await client().GET('/projects/{id}/repository/branches', { ...listBranches, retry: false });
    expect(call.response.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });
});

describe('methods', () => {
  const createBranch = { params: { path: { id: 1 } }, body: { branch: 'feature', ref: 'main' } };
  const protectedBranch = { params: { path: { id: 1, name: 'main' } }, body: { allow_force_push: true } };

  it('retries the idempotent PUT, DELETE and HEAD', async () => {
    const file = { params: { path: { id: 1, file_path: 'README.md' } } };
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    await client().PUT('/projects/{id}/repository/files/{file_path}', {
      ...file,
      body: { branch: 'main', content: 'x', commit_message: 'Edit' },
    });
    expect(server.seen.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    server.answer(statusesThenOk([502], { 'Retry-After': '0' }));
    await client().DELETE('/projects/{id}/repository/branches/{branch}', {
      params: { path: { id: 1, branch: 'old' } },
    });
    expect(server.seen.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
    server.answer(statusesThenOk([504], { 'Retry-After': '0' }));
    await client().HEAD('/projects/{id}/repository/files/{file_path}', {
      params: { ...file.params, query: { ref: 'main' } },
    });
    expect(server.seen.map((r) => r.method)).toEqual(['HEAD', 'HEAD']);
  });

  it('never retries POST or PATCH by default', async () => {
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    const post = await client().POST('/projects/{id}/repository/branches', createBranch);
    expect(post.response.status).toBe(503);
    expect(server.seen).toHaveLength(1);
    server.answer(statusesThenOk([429], { 'Retry-After': '0' }));
    const patch = await client().PATCH('/projects/{id}/protected_branches/{name}', protectedBranch);
    expect(patch.response.status).toBe(429);
    expect(server.seen).toHaveLength(1);
  });

  it('retries POST and PATCH for a client that opts in, sending the same body again', async () => {
    const optedIn = client({ nonIdempotent: true });
    server.answer(statusesThenOk([503, 429], { 'Retry-After': '0' }));
    expect((await optedIn.POST('/projects/{id}/repository/branches', createBranch)).response.status).toBe(
      200,
    );
    expect(server.seen.map((r) => r.body)).toEqual(Array(3).fill('{"branch":"feature","ref":"main"}'));
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    await optedIn.PATCH('/projects/{id}/protected_branches/{name}', protectedBranch);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a POST for one call that opts in, and only that call', async () => {
    const plain = client();
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    const call = await plain.POST('/projects/{id}/repository/branches', {
      ...createBranch,
      retry: { nonIdempotent: true },
    });
    expect(call.response.status).toBe(200);
    expect(server.seen).toHaveLength(2);
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    expect((await plain.POST('/projects/{id}/repository/branches', createBranch)).response.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('opts a POST in even when the client has retries off', async () => {
    server.answer(statusesThenOk([503], { 'Retry-After': '0' }));
    const call = await client(false).POST('/projects/{id}/repository/branches', {
      ...createBranch,
      retry: { nonIdempotent: true },
    });
    expect(call.response.status).toBe(200);
    expect(server.seen).toHaveLength(2);
  });
});

// Personal access tokens (GitLab v4; the seeds do not show them): an administrator makes a user and a token
// for it (POST /users/:user_id/personal_access_tokens), the test acts as that user with the token in each
// carrier; the token string is answered once; scopes and expiry decide what it may do; users list, read and
// revoke their own tokens (GET /personal_access_tokens, GET/DELETE /personal_access_tokens/:id and /self)
// with GitLab's 401/400/404 answers for others' tokens.
//
// The file makes users of this run (names with RUN) and deletes them at the end; it revokes only tokens it
// made.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { type Caller, type CallOptions, callAs } from './callAs.js';

type Token = components['schemas']['PersonalAccessToken'];
type TokenWithToken = components['schemas']['PersonalAccessTokenWithToken'];
type TokenDetails = components['schemas']['PersonalAccessTokenWithLastUsedIps'];
type AdminUser = components['schemas']['UserWithAdmin'];
type ErrorBody = components['schemas']['Error'];

let target: Target;
/** Two users of this run: `alice` gets most tokens, `bob` is the other user who may not touch them. */
let alice: AdminUser;
let bob: AdminUser;
let aliceToken: string;
let bobToken: string;

async function makeUser(name: string): Promise<AdminUser> {
  const username = `${name}${RUN}`;
  const { status, body } = await callAs<AdminUser>(target, 'admin', '/users', {
    method: 'POST',
    json: { email: `${username}@example.com`, username, name, reset_password: true, skip_confirmation: true },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function makeToken(userId: number, json: Record<string, unknown>): Promise<TokenWithToken> {
  const { status, body } = await callAs<TokenWithToken>(
    target,
    'admin',
    `/users/${userId}/personal_access_tokens`,
    {
      method: 'POST',
      json,
    },
  );
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

/** A request with a token of this run's own, in the PRIVATE-TOKEN header unless `headers` says otherwise. */
const asToken = <T = unknown>(token: string, path: string, options: CallOptions = {}) =>
  callAs<T>(target, 'anonymous', path, {
    ...options,
    headers: { 'PRIVATE-TOKEN': token, ...options.headers },
  });

beforeAll(async () => {
  target = await openTarget();
  alice = await makeUser('alice');
  bob = await makeUser('bob');
  aliceToken = (await makeToken(alice.id, { name: `alice api ${RUN}`, scopes: ['api'] })).token;
  bobToken = (await makeToken(bob.id, { name: `bob api ${RUN}`, scopes: ['api'] })).token;
});
afterAll(async () => {
  for (const user of [alice, bob])
    if (user) await callAs(target, 'admin', `/users/${user.id}`, { method: 'DELETE' });
  await target.close();
});

describe('last_used_at', () => {
  it('is set when the token authenticates a request, and written at most once per ten minutes', async () => {
    const made = await makeToken(alice.id, { name: `used ${RUN}`, scopes: ['read_api'] });
    expect(made.last_used_at).toBeNull();
    const readByAdmin = async () => {
      const read = await callAs<TokenDetails>(target, 'admin', `/personal_access_tokens/${made.id}`);
      expect(read.status).toBe(200);
      return read.body.last_used_at;
    };
    // Made, and read by another token: not used yet.
    expect(await readByAdmin()).toBeNull();
    const before = Date.now() - 60_000;
    expect((await asToken(made.token, '/user')).status).toBe(200);
    const first = await readByAdmin();
    expect(first).not.toBeNull();
    expect(Date.parse(first ?? '')).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first ?? '')).toBeLessThanOrEqual(Date.now() + 60_000);
    // Used again at once: the time stays (GitLab writes it when it is ten minutes old).
    for (const path of ['/user', '/personal_access_tokens/self', '/version'])
      expect((await asToken(made.token, path)).status, path).toBe(200);
    expect(await readByAdmin()).toBe(first);
    const self = await asToken<Token>(made.token, '/personal_access_tokens/self');
    expect(self.body.last_used_at).toBe(first);
  });
});

describe('POST /users/:user_id/personal_access_tokens', () => {
  it('answers the token once; the user acts with it in every carrier', async () => {
    const made = await makeToken(alice.id, {
      name: `carriers ${RUN}`,
      scopes: ['api'],
      description: 'made by the suite',
      expires_at: '2099-01-31',
    });
    expect(made).toMatchObject({
      name: `carriers ${RUN}`,
      description: 'made by the suite',
      scopes: ['api'],
      user_id: alice.id,
      revoked: false,
      active: true,
      expires_at: '2099-01-31',
      last_used_at: null,
    });
    expect(made.token.length).toBeGreaterThanOrEqual(20);
    const carriers: CallOptions[] = [
      { headers: { 'PRIVATE-TOKEN': made.token } },
      { headers: { Authorization: `Bearer ${made.token}` } },
      { query: { private_token: made.token } },
    ];
    for (const options of carriers) {
      const { status, body } = await callAs<AdminUser>(target, 'anonymous', '/user', options);
      expect(status, JSON.stringify(options)).toBe(200);
      expect(body).toMatchObject({ id: alice.id, username: alice.username });
    }
    // Never again: neither its own read nor the list shows the token string.
    const read = await callAs<TokenDetails>(target, 'admin', `/personal_access_tokens/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('token');
    expect(read.body).toMatchObject({ id: made.id, name: made.name, last_used_ips: [] });
    const listed = await asToken<Token[]>(made.token, '/personal_access_tokens', {
      query: { per_page: '100' },
    });
    for (const token of listed.body) expect(token).not.toHaveProperty('token');
  });

  it('takes the scopes as a comma-separated string and as form fields; a token lives 365 days by default', async () => {
    const comma = await makeToken(alice.id, { name: `comma ${RUN}`, scopes: 'read_api, read_repository' });
    expect(comma.scopes).toEqual(['read_api', 'read_repository']);
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const tomorrowsYear = new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10);
    expect([inAYear, tomorrowsYear]).toContain(comma.expires_at);
    const form = await callAs<TokenWithToken>(target, 'admin', `/users/${alice.id}/personal_access_tokens`, {
      method: 'POST',
      form: { name: `form ${RUN}`, 'scopes[]': 'read_user' },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.body.scopes).toEqual(['read_user']);
  });

  it('enforces the scopes: read_api reads and may not write, read_repository may not read the user', async () => {
    const readApi = await makeToken(alice.id, { name: `read ${RUN}`, scopes: ['read_api'] });
    expect((await asToken(readApi.token, '/user')).status).toBe(200);
    const refused = await asToken<ErrorBody>(readApi.token, '/projects', {
      method: 'POST',
      json: { name: `never ${RUN}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    const repository = await makeToken(alice.id, { name: `repo ${RUN}`, scopes: ['read_repository'] });
    expect((await asToken(repository.token, '/user')).status).toBe(403);
  });

  it('makes an expired token (a past date) that is inactive and refused', async () => {
    const old = await makeToken(alice.id, { name: `old ${RUN}`, scopes: ['api'], expires_at: '2020-01-01' });
    expect(old.active).toBe(false);
    expect((await asToken(old.token, '/user')).status).toBe(401);
  });

  it('is for administrators only: 403 for the roles and the user itself, 401 without a token', async () => {
    const refused: [Caller, number][] = [
      ['owner', 403],
      ['developer', 403],
      ['outsider', 403],
      ['developerReadRepository', 403],
      ['anonymous', 401],
      ['invalid', 401],
      ['revoked', 401],
    ];
    const json = { name: `refused ${RUN}`, scopes: ['api'] };
    for (const [caller, expected] of refused) {
      const { status } = await callAs(target, caller, `/users/${alice.id}/personal_access_tokens`, {
        method: 'POST',
        json,
      });
      expect(status, caller).toBe(expected);
    }
    const self = await asToken(aliceToken, `/users/${alice.id}/personal_access_tokens`, {
      method: 'POST',
      json,
    });
    expect(self.status).toBe(403);
    const all = await callAs<Token[]>(target, 'admin', '/personal_access_tokens', {
      query: { user_id: String(alice.id), search: 'refused', per_page: '100' },
    });
    expect(all.body).toEqual([]);
  });

  it('404 for an unknown user, 400 for a missing name, missing or unknown scopes', async () => {
    const post = (path: string, json: Record<string, unknown>) =>
      callAs<ErrorBody>(target, 'admin', path, { method: 'POST', json });
    const path = `/users/${alice.id}/personal_access_tokens`;
    expect(
      (await post('/users/999999999/personal_access_tokens', { name: 'x', scopes: ['api'] })).status,
    ).toBe(404);
    const missingName = await post(path, { scopes: ['api'] });
    expect(missingName.status).toBe(400);
    expect(missingName.body).toEqual({ error: 'name is missing' });
    const missingScopes = await post(path, { name: 'x' });
    expect(missingScopes.status).toBe(400);
    expect(missingScopes.body).toEqual({ error: 'scopes is missing' });
    for (const scopes of [['everything'], [], 'api,everything']) {
      const bad = await post(path, { name: 'x', scopes });
      expect(bad.status, JSON.stringify(scopes)).toBe(400);
      expect(bad.body.error ?? '', JSON.stringify(scopes)).toContain('scopes');
    }
    expect((await post(path, { name: '', scopes: ['api'] })).status).toBe(400);
    expect((await post(path, { name: 'x', scopes: ['api'], expires_at: 'soon' })).status).toBe(400);
  });
});

describe('POST /user/personal_access_tokens', () => {
  const own = (token: string, json: Record<string, unknown>) =>
    asToken<TokenWithToken & ErrorBody>(token, '/user/personal_access_tokens', { method: 'POST', json });

  it("makes a k8s_proxy token of the caller's own, expiring tomorrow; it cannot call the API", async () => {
    const made = await own(aliceToken, { name: `k8s ${RUN}`, scopes: ['k8s_proxy'], description: 'agent' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const dayAfter = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(made.body).toMatchObject({
      name: `k8s ${RUN}`,
      description: 'agent',
      scopes: ['k8s_proxy'],
      user_id: alice.id,
      active: true,
      revoked: false,
    });
    expect([tomorrow, dayAfter]).toContain(made.body.expires_at);
    expect(made.body.token).toMatch(/.{20,}/);
    // Only k8s_proxy: the API refuses the token (403 insufficient_scope), but it reads itself.
    const refused = await asToken<ErrorBody>(made.body.token, '/user');
    expect([refused.status, refused.body.error]).toEqual([403, 'insufficient_scope']);
    const self = await asToken<TokenDetails>(made.body.token, '/personal_access_tokens/self');
    expect([self.status, self.body.id, self.body.user_id]).toEqual([200, made.body.id, alice.id]);
    // It is the caller's: listed among its tokens, and revoked by it.
    const listed = await asToken<Token[]>(aliceToken, '/personal_access_tokens', {
      query: { search: 'k8s' },
    });
    expect(listed.body.map((token) => token.id)).toContain(made.body.id);
    expect(
      (await asToken(aliceToken, `/personal_access_tokens/${made.body.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
  });

  it('takes a form body with a comma-separated scope and keeps the expiry date given', async () => {
    const { status, body } = await callAs<TokenWithToken>(
      target,
      'developer',
      '/user/personal_access_tokens',
      {
        method: 'POST',
        form: { name: `form k8s ${RUN}`, scopes: 'k8s_proxy', expires_at: '2099-01-31' },
      },
    );
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({
      scopes: ['k8s_proxy'],
      user_id: target.config.fixtures.users.developer.id,
      expires_at: '2099-01-31',
    });
    expect(
      (await callAs(target, 'developer', `/personal_access_tokens/${body.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
  });

  it('refuses every scope but k8s_proxy (400 naming scopes) and a missing name, for administrators too', async () => {
    for (const scopes of [
      ['api'],
      ['read_api'],
      ['k8s_proxy', 'api'],
      'k8s_proxy,sudo',
      [],
      ['everything'],
    ]) {
      const bad = await callAs<ErrorBody>(target, 'admin', '/user/personal_access_tokens', {
        method: 'POST',
        json: { name: `never ${RUN}`, scopes },
      });
      expect(bad.status, JSON.stringify(scopes)).toBe(400);
      expect(bad.body.error ?? '', JSON.stringify(scopes)).toContain('scopes');
    }
    const missingName = await own(aliceToken, { scopes: ['k8s_proxy'] });
    expect([missingName.status, missingName.body.error]).toEqual([400, 'name is missing']);
    const all = await callAs<Token[]>(target, 'admin', '/personal_access_tokens', {
      query: { search: `never ${RUN}`, per_page: '100' },
    });
    expect(all.body).toEqual([]);
  });

  it('needs a valid token (401) with the api scope (403)', async () => {
    const refused: [Caller, number][] = [
      ['anonymous', 401],
      ['invalid', 401],
      ['revoked', 401],
      ['developerReadRepository', 403],
    ];
    for (const [caller, expected] of refused) {
      const { status } = await callAs(target, caller, '/user/personal_access_tokens', {
        method: 'POST',
        json: { name: `refused ${RUN}`, scopes: ['k8s_proxy'] },
      });
      expect(status, caller).toBe(expected);
    }
    const readApi = await makeToken(alice.id, { name: `reader ${RUN}`, scopes: ['read_api'] });
    expect((await own(readApi.token, { name: `refused ${RUN}`, scopes: ['k8s_proxy'] })).status).toBe(403);
  });
});

describe('GET /personal_access_tokens', () => {
  it("lists a user's own tokens only, and refuses another user's (401)", async () => {
    const { status, body, headers } = await asToken<Token[]>(aliceToken, '/personal_access_tokens', {
      query: { per_page: '100' },
    });
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    for (const token of body) expect(token.user_id).toBe(alice.id);
    expect(Number(headers.get('X-Total'))).toBe(body.length);
    const ids = body.map((token) => token.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const own = await asToken<Token[]>(aliceToken, '/personal_access_tokens', {
      query: { user_id: String(alice.id) },
    });
    expect(own.status).toBe(200);
    expect(
      (await asToken(aliceToken, '/personal_access_tokens', { query: { user_id: String(bob.id) } })).status,
    ).toBe(401);
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
      expect((await callAs(target, caller, '/personal_access_tokens')).status, caller).toBe(401);
  });

  it("gives administrators every user's tokens, one user's with user_id (404 for an unknown one)", async () => {
    const all = await callAs<Token[]>(target, 'admin', '/personal_access_tokens', {
      query: { per_page: '100' },
    });
    expect(all.status).toBe(200);
    expect(Number(all.headers.get('X-Total'))).toBeGreaterThanOrEqual(2);
    const bobs = await callAs<Token[]>(target, 'admin', '/personal_access_tokens', {
      query: { user_id: String(bob.id) },
    });
    expect(bobs.body.map((token) => token.user_id)).toEqual([bob.id]);
    const unknown = await callAs(target, 'admin', '/personal_access_tokens', {
      query: { user_id: '999999999' },
    });
    expect(unknown.status).toBe(404);
  });

  it('filters by state, revocation, name and creation time', async () => {
    const list = async (query: Record<string, string>) =>
      (
        await callAs<Token[]>(target, 'admin', '/personal_access_tokens', {
          query: { user_id: String(alice.id), per_page: '100', ...query },
        })
      ).body;
    const expired = await makeToken(alice.id, {
      name: `filter-expired ${RUN}`,
      scopes: ['api'],
      expires_at: '2021-06-01',
    });
    const inactive = await list({ state: 'inactive' });
    expect(inactive.map((token) => token.id)).toContain(expired.id);
    for (const token of inactive) expect(token.active).toBe(false);
    for (const token of await list({ state: 'active' })) expect(token.active).toBe(true);
    expect((await list({ search: 'FILTER-EXPIRED' })).map((token) => token.id)).toEqual([expired.id]);
    for (const token of await list({ revoked: 'false' })) expect(token.revoked).toBe(false);
    expect(await list({ created_after: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect((await list({ expires_before: '2021-06-02' })).map((token) => token.id)).toContain(expired.id);
    const bad = await callAs(target, 'admin', '/personal_access_tokens', { query: { state: 'sideways' } });
    expect(bad.status).toBe(400);
  });
});

describe('GET and DELETE /personal_access_tokens/:id', () => {
  it('lets the user and administrators read a token; others get 401, an unknown ID 404 only for administrators', async () => {
    const made = await makeToken(alice.id, { name: `read one ${RUN}`, scopes: ['read_api'] });
    const path = `/personal_access_tokens/${made.id}`;
    expect((await asToken<TokenDetails>(aliceToken, path)).body).toMatchObject({
      id: made.id,
      user_id: alice.id,
    });
    expect((await callAs(target, 'admin', path)).status).toBe(200);
    expect((await asToken(bobToken, path)).status).toBe(401);
    expect((await callAs(target, 'developer', path)).status).toBe(401);
    expect((await callAs(target, 'anonymous', path)).status).toBe(401);
    expect((await callAs(target, 'admin', '/personal_access_tokens/999999999')).status).toBe(404);
    expect((await asToken(aliceToken, '/personal_access_tokens/999999999')).status).toBe(401);
  });

  it('revokes: 400 for another user, 404 for an unknown ID, 204 for the user; the token then stops working', async () => {
    const made = await makeToken(alice.id, { name: `revoke ${RUN}`, scopes: ['api'] });
    const path = `/personal_access_tokens/${made.id}`;
    const other = await asToken<ErrorBody>(bobToken, path, { method: 'DELETE' });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('400 Bad request');
    expect((await callAs(target, 'developer', path, { method: 'DELETE' })).status).toBe(400);
    expect((await callAs(target, 'anonymous', path, { method: 'DELETE' })).status).toBe(401);
    expect(
      (await asToken(aliceToken, '/personal_access_tokens/999999999', { method: 'DELETE' })).status,
    ).toBe(404);
    expect((await asToken(made.token, '/user')).status).toBe(200);

    expect((await asToken(aliceToken, path, { method: 'DELETE' })).status).toBe(204);
    expect((await asToken(made.token, '/user')).status).toBe(401);
    const read = await asToken<TokenDetails>(aliceToken, path);
    expect(read.body).toMatchObject({ revoked: true, active: false });
    expect((await asToken(aliceToken, path, { method: 'DELETE' })).status).toBe(204);
  });

  it("lets an administrator revoke a user's token", async () => {
    const made = await makeToken(bob.id, { name: `admin revokes ${RUN}`, scopes: ['api'] });
    expect(
      (await callAs(target, 'admin', `/personal_access_tokens/${made.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await asToken(made.token, '/user')).status).toBe(401);
  });
});

describe('/personal_access_tokens/self', () => {
  it('reads the token of the request, whatever its scopes', async () => {
    const repository = await makeToken(alice.id, { name: `self ${RUN}`, scopes: ['read_repository'] });
    const { status, body } = await asToken<TokenDetails>(repository.token, '/personal_access_tokens/self');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: repository.id,
      scopes: ['read_repository'],
      user_id: alice.id,
      active: true,
    });
    const bearer = await callAs<TokenDetails>(target, 'anonymous', '/personal_access_tokens/self', {
      headers: { Authorization: `Bearer ${repository.token}` },
    });
    expect(bearer.body.id).toBe(repository.id);
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
      expect((await callAs(target, caller, '/personal_access_tokens/self')).status, caller).toBe(401);
  });

  it('revokes the token of the request, whatever its scopes', async () => {
    const repository = await makeToken(alice.id, { name: `self revoke ${RUN}`, scopes: ['read_repository'] });
    const revoked = await asToken(repository.token, '/personal_access_tokens/self', { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect((await asToken(repository.token, '/personal_access_tokens/self')).status).toBe(401);
    expect(
      (await asToken<TokenDetails>(aliceToken, `/personal_access_tokens/${repository.id}`)).body.revoked,
    ).toBe(true);
  });
});

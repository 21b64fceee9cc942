// The instance's version and the users API (GitLab v4; the seeds do not show them): GET /version and
// /metadata, the current user, the user list with its filters and GitLab's anonymous rules, and single
// users; administrators' POST /users, PUT and DELETE /users/:id (the ghost user, `hard_delete`); the
// 401/403/404/409 matrix of each.
//
// The writes make and delete only users of this run (names with RUN). Tests marked "(demo)" need the demo
// fixtures of apps/server beyond what the config describes (the blocked user `former`, the reporter's private
// profile) and run only against this repository's own server.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  type FixtureUser,
  openTarget,
  type Role,
  RUN,
  type Target,
  type UserRole,
} from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

const againstLocalServer = againstSuiteServer();

let target: Target;
let users: Record<UserRole, FixtureUser>;

beforeAll(async () => {
  target = await openTarget();
  users = target.config.fixtures.users;
});
afterAll(async () => {
  await target.close();
});

type UserBasic = components['schemas']['UserBasic'];
/**
 * A user in any of the spec's forms (`UserBasic` in lists to others, `User`, `UserPublic` for the caller,
 * `UserWithAdmin` for administrators): the basic fields always, the others where the form has them.
 */
type ListedUser = UserBasic & Partial<Omit<components['schemas']['UserWithAdmin'], keyof UserBasic>>;
type Version = components['schemas']['Version'];

const get = <T = unknown>(caller: Caller, path: string, query?: string | Record<string, string>) =>
  callAs<T>(target, caller, path, { query });

const USER_ROLES: readonly UserRole[] = [
  'admin',
  'owner',
  'maintainer',
  'developer',
  'reporter',
  'guest',
  'outsider',
];

describe('GET /version and GET /metadata', () => {
  for (const path of ['/version', '/metadata']) {
    it(`${path}: every signed-in role reads a GitLab version string`, async () => {
      for (const role of USER_ROLES) {
        const { status, body } = await get<Version>(role, path);
        expect(status, role).toBe(200);
        // python-gitlab and other clients parse it as GitLab's MAJOR.MINOR.PATCH.
        expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
        expect(Number(body.version.split('.')[0])).toBeGreaterThanOrEqual(9);
        expect(typeof body.revision).toBe('string');
        expect(typeof body.enterprise).toBe('boolean');
      }
    });

    it(`${path}: 401 without a valid token, 403 for a read_repository token`, async () => {
      for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
        expect((await get(caller, path)).status, caller).toBe(401);
      expect((await get('developerReadRepository', path)).status).toBe(403);
    });
  }

  it('/version and /metadata answer alike', async () => {
    const [version, metadata] = await Promise.all([
      get('developer', '/version'),
      get('developer', '/metadata'),
    ]);
    expect(metadata.body).toEqual(version.body);
  });
});

describe('GET /user', () => {
  it('gives each role its own account, with the e-mail address; is_admin only for administrators', async () => {
    for (const role of USER_ROLES) {
      const { status, body } = await get<ListedUser>(role, '/user');
      expect(status, role).toBe(200);
      expect(body).toMatchObject({
        id: users[role].id,
        username: users[role].username,
        name: users[role].name,
      });
      expect(body.email, role).toMatch(/@/);
      expect(body.web_url.endsWith(`/${users[role].username}`)).toBe(true);
      if (role === 'admin') expect(body.is_admin).toBe(true);
      else expect(body, role).not.toHaveProperty('is_admin');
    }
  });

  it('needs a valid token (401) that may read the API (403)', async () => {
    for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
      expect((await get(caller, '/user')).status, caller).toBe(401);
    expect((await get('developerReadRepository', '/user')).status).toBe(403);
  });

  it('(demo) shows the caller their own private profile whole', async () => {
    if (!againstLocalServer) return;
    const { body } = await get<ListedUser>('reporter', '/user');
    expect(body).toMatchObject({ private_profile: true, bio: 'Writes the release notes.', followers: 0 });
    expect(typeof body.created_at).toBe('string');
  });
});

describe('GET /users', () => {
  it('refuses anonymous callers without a username (403) and answers them one user with it', async () => {
    expect((await get('anonymous', '/users')).status).toBe(403);
    const { status, body } = await get<ListedUser[]>('anonymous', '/users', {
      username: users.developer.username,
    });
    expect(status).toBe(200);
    expect(body.map((user) => user.id)).toEqual([users.developer.id]);
    expect(body[0]).not.toHaveProperty('email');
  });

  it('401 for a bad token, 403 for a read_repository token', async () => {
    for (const caller of ['invalid', 'revoked'] as const)
      expect((await get(caller, '/users', { username: users.owner.username })).status, caller).toBe(401);
    expect((await get('developerReadRepository', '/users')).status).toBe(403);
  });

  it('matches username exactly, ignoring case', async () => {
    const upper = users.owner.username.toUpperCase();
    const { body } = await get<ListedUser[]>('developer', '/users', { username: upper });
    expect(body.map((user) => user.id)).toEqual([users.owner.id]);
    const part = users.owner.username.slice(0, -1);
    const partial = await get<ListedUser[]>('developer', '/users', { username: part });
    expect(partial.body.map((user) => user.id)).not.toContain(users.owner.id);
  });

  it('searches part of the name or username', async () => {
    const name = users.maintainer.name;
    const term = name.slice(1, Math.max(3, name.length - 2)).toLowerCase();
    const { status, body } = await get<ListedUser[]>('developer', '/users', {
      search: term,
      per_page: '100',
    });
    expect(status).toBe(200);
    expect(body.map((user) => user.id)).toContain(users.maintainer.id);
    for (const user of body)
      expect(`${user.name}\n${user.username}`.toLowerCase(), JSON.stringify(user)).toContain(term);
    const none = await get<ListedUser[]>('developer', '/users', { search: `no-such-user-${Date.now()}` });
    expect(none.body).toEqual([]);
  });

  it('matches the exact e-mail address only for administrators', async () => {
    const { body: self } = await get<ListedUser>('owner', '/user');
    const email = self.email ?? '';
    const asAdmin = await get<ListedUser[]>('admin', '/users', { search: email });
    expect(asAdmin.body.map((user) => user.id)).toContain(users.owner.id);
    // Others match the public e-mail address only: the primary one finds the owner only if it is public too.
    const asDeveloper = await get<ListedUser[]>('developer', '/users', { search: email });
    const publicEmail = self.public_email;
    if (publicEmail?.toLowerCase() !== email.toLowerCase())
      expect(asDeveloper.body.map((user) => user.id)).not.toContain(users.owner.id);
  });

  it('gives users who are no administrators the basic shape, newest first, whatever the order asked', async () => {
    const { status, body, headers } = await get<ListedUser[]>('developer', '/users', {
      order_by: 'username',
      sort: 'asc',
      per_page: '100',
    });
    expect(status).toBe(200);
    expect(Number(headers.get('X-Total'))).toBeGreaterThanOrEqual(USER_ROLES.length);
    const ids = body.map((user) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const user of body) {
      expect(user).not.toHaveProperty('email');
      expect(user).not.toHaveProperty('is_admin');
      expect(user.state).not.toBe('blocked');
    }
  });

  it('gives administrators the admin shape and the order they ask for', async () => {
    const { body } = await get<ListedUser[]>('admin', '/users', {
      order_by: 'username',
      sort: 'asc',
      per_page: '100',
    });
    const names = body.map((user) => user.username);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const user of body) {
      expect(typeof user.is_admin).toBe('boolean');
      expect(user.email).toMatch(/@/);
    }
    expect(body.find((user) => user.id === users.admin.id)?.is_admin).toBe(true);
    expect(body.find((user) => user.id === users.developer.id)?.is_admin).toBe(false);
  });

  it('filters active, blocked, external and admins', async () => {
    const active = await get<ListedUser[]>('admin', '/users', { active: 'true', per_page: '100' });
    expect(active.body.length).toBeGreaterThan(0);
    for (const user of active.body) expect(user.state).toBe('active');
    const blocked = await get<ListedUser[]>('admin', '/users', { blocked: 'true', per_page: '100' });
    for (const user of blocked.body) expect(user.state).toBe('blocked');
    // Blocked users are only ever listed to administrators.
    expect((await get<ListedUser[]>('developer', '/users', { blocked: 'true' })).body).toEqual([]);
    const external = await get<ListedUser[]>('admin', '/users', { external: 'true', per_page: '100' });
    for (const user of external.body) expect(user.external).toBe(true);
    const admins = await get<ListedUser[]>('admin', '/users', { admins: 'true', per_page: '100' });
    expect(admins.body.map((user) => user.id)).toContain(users.admin.id);
    for (const user of admins.body) expect(user.is_admin).toBe(true);
  });

  it('(demo) lists the blocked external user to administrators only', async () => {
    if (!againstLocalServer) return;
    const blocked = await get<ListedUser[]>('admin', '/users', { blocked: 'true' });
    expect(blocked.body.map((user) => user.username)).toContain('former');
    const external = await get<ListedUser[]>('admin', '/users', { external: 'true' });
    expect(external.body.map((user) => user.username)).toContain('former');
    const byName = await get<ListedUser[]>('developer', '/users', { username: 'former' });
    expect(byName.body).toEqual([]);
  });

  it('pages with the pagination headers', async () => {
    const { body, headers } = await get<ListedUser[]>('admin', '/users', { per_page: '2', page: '2' });
    expect(body.length).toBe(2);
    expect(headers.get('X-Page')).toBe('2');
    expect(headers.get('X-Per-Page')).toBe('2');
    expect(headers.get('X-Prev-Page')).toBe('1');
    expect(headers.get('Link')).toContain('rel="first"');
  });

  it('refuses an unknown order (400)', async () => {
    expect((await get('admin', '/users', { order_by: 'email' })).status).toBe(400);
    expect((await get('admin', '/users', { sort: 'sideways' })).status).toBe(400);
  });
});

describe('GET /users/:id', () => {
  it("gives a signed-in user another user's profile without the account fields", async () => {
    const { status, body } = await get<ListedUser>('developer', `/users/${users.owner.id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: users.owner.id,
      username: users.owner.username,
      name: users.owner.name,
    });
    expect(body).not.toHaveProperty('email');
    expect(body).not.toHaveProperty('is_admin');
    expect(typeof body.bio).toBe('string');
  });

  it('gives administrators the admin shape', async () => {
    const { body } = await get<ListedUser>('admin', `/users/${users.developer.id}`);
    expect(body).toMatchObject({ id: users.developer.id, is_admin: false });
    expect(body.email).toMatch(/@/);
  });

  it('403 anonymously, 401 for a bad token, 404 for an unknown user, 400 for an ID that is no integer', async () => {
    const path = `/users/${users.owner.id}`;
    expect((await get('anonymous', path)).status).toBe(403);
    for (const caller of ['invalid', 'revoked'] as const)
      expect((await get(caller, path)).status, caller).toBe(401);
    expect((await get('developerReadRepository', path)).status).toBe(403);
    expect((await get('developer', '/users/999999999')).status).toBe(404);
    expect((await get('developer', '/users/99999999999999999999999')).status).toBe(404);
    expect((await get('developer', '/users/not-a-number')).status).toBe(400);
  });

  it('(demo) hides the dates of a private profile from others, not from its user or administrators', async () => {
    if (!againstLocalServer) return;
    const path = `/users/${users.reporter.id}`;
    const other = await get<ListedUser>('developer', path);
    expect(other.body).toMatchObject({ bio: 'Writes the release notes.' });
    expect(other.body).not.toHaveProperty('created_at');
    expect(other.body).not.toHaveProperty('followers');
    for (const role of ['reporter', 'admin'] as const satisfies readonly Role[]) {
      const { body } = await get<ListedUser>(role, path);
      expect(typeof body.created_at, role).toBe('string');
    }
  });
});

type AdminUser = components['schemas']['UserWithAdmin'];
type ErrorBody = components['schemas']['Error'];
type TokenWithToken = components['schemas']['PersonalAccessTokenWithToken'];

/** Every caller that is no administrator: the roles (403) and those without a valid token (401). */
const REFUSED: readonly [Caller, number][] = [
  ['owner', 403],
  ['maintainer', 403],
  ['developer', 403],
  ['reporter', 403],
  ['guest', 403],
  ['outsider', 403],
  ['developerReadRepository', 403],
  ['anonymous', 401],
  ['invalid', 401],
  ['revoked', 401],
];

let made = 0;
/** A new account of this run, made by the administrator (JSON body); `extra` adds or replaces fields. */
async function makeUser(extra: Record<string, unknown> = {}): Promise<AdminUser> {
  made += 1;
  const username = `u${RUN}n${made}`;
  const { status, body } = await callAs<AdminUser>(target, 'admin', '/users', {
    method: 'POST',
    json: {
      email: `${username}@example.com`,
      username,
      name: `User ${made} of ${RUN}`,
      password: 'correct-horse-battery',
      skip_confirmation: true,
      ...extra,
    },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

/** An `api` token of a user, made by the administrator. */
async function tokenOf(userId: number, scopes: string[] = ['api']): Promise<string> {
  const { status, body } = await callAs<TokenWithToken>(
    target,
    'admin',
    `/users/${userId}/personal_access_tokens`,
    {
      method: 'POST',
      json: { name: `token ${RUN}`, scopes },
    },
  );
  expect(status, JSON.stringify(body)).toBe(201);
  return body.token;
}

/** A request with a token of this run's own (not one of the config's roles). */
const withToken = <T = unknown>(token: string, path: string, options: Parameters<typeof callAs>[3] = {}) =>
  callAs<T>(target, 'anonymous', path, {
    ...options,
    headers: { 'PRIVATE-TOKEN': token, ...options.headers },
  });

/** The projects this file made (ownProject), deleted after its deletion cases. */
const ownProjects: number[] = [];

/** The server's CI configuration file (what a pipeline runs). */
const CI_FILE = '.collab-ci.yml';

const write = <T = unknown>(caller: Caller, method: 'POST' | 'PUT' | 'DELETE', path: string, json?: object) =>
  callAs<T>(target, caller, path, { method, json: json as Record<string, unknown> | undefined });

/** A user of this run with an `api` token, made a Developer of the public project by the administrator. */
async function developerOfPublicProject(): Promise<{ user: AdminUser; token: string; project: string }> {
  const user = await makeUser();
  const token = await tokenOf(user.id);
  const project = encodeURIComponent(target.config.fixtures.publicProject);
  const member = await write('admin', 'POST', `/projects/${project}/members`, {
    user_id: user.id,
    access_level: 30,
  });
  expect(member.status, JSON.stringify(member.body)).toBe(201);
  return { user, token, project };
}

describe('POST /users', () => {
  it('makes an account with the fields given, answered in the admin shape and readable at once', async () => {
    const user = await makeUser({
      can_create_group: false,
      projects_limit: 7,
      external: true,
      private_profile: true,
      bio: `Made by the suite ${RUN}`,
      location: 'Lisbon',
      organization: 'Acme',
      pronouns: 'they/them',
    });
    expect(user).toMatchObject({
      username: `u${RUN}n${made}`,
      name: `User ${made} of ${RUN}`,
      email: `u${RUN}n${made}@example.com`,
      state: 'active',
      is_admin: false,
      can_create_group: false,
      projects_limit: 7,
      can_create_project: true,
      external: true,
      private_profile: true,
      bio: `Made by the suite ${RUN}`,
      location: 'Lisbon',
      organization: 'Acme',
      pronouns: 'they/them',
      identities: [],
    });
    expect(user.confirmed_at).not.toBeNull();
    expect(user.web_url.endsWith(`/${user.username}`)).toBe(true);
    const read = await get<AdminUser>('admin', `/users/${user.id}`);
    expect(read.body).toMatchObject({ id: user.id, username: user.username, projects_limit: 7 });
    const listed = await get<ListedUser[]>('developer', '/users', { username: user.username });
    expect(listed.body.map((u) => u.id)).toEqual([user.id]);
  });

  it("takes a form body, GitLab's defaults for what it leaves out, and leaves the account unconfirmed", async () => {
    const username = `f${RUN}`;
    const { status, body } = await callAs<AdminUser>(target, 'admin', '/users', {
      method: 'POST',
      form: {
        email: `${username}@example.com`,
        username,
        name: 'Form User',
        reset_password: 'true',
        admin: 'true',
      },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({
      username,
      is_admin: true,
      can_create_group: true,
      projects_limit: 100000,
      external: false,
      private_profile: false,
      confirmed_at: null,
    });
  });

  it('is for administrators only: 403 for every other role and a read_repository token, 401 without a token', async () => {
    for (const [caller, expected] of REFUSED) {
      const username = `r${RUN}${caller.toLowerCase()}`;
      const { status } = await write(caller, 'POST', '/users', {
        email: `${username}@example.com`,
        username,
        name: 'Refused',
        password: 'correct-horse-battery',
      });
      expect(status, caller).toBe(expected);
    }
    const nobody = await get<ListedUser[]>('admin', '/users', { search: `r${RUN}` });
    expect(nobody.body).toEqual([]);
  });

  it('answers 409 for an e-mail address or username taken, ignoring case, and for a group path', async () => {
    const user = await makeUser();
    const again = (fields: Record<string, string>) =>
      write<ErrorBody>('admin', 'POST', '/users', {
        email: `other${RUN}@example.com`,
        username: `other${RUN}`,
        name: 'Other',
        password: 'correct-horse-battery',
        ...fields,
      });
    const email = await again({ email: user.email.toUpperCase() });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe('Email has already been taken');
    const username = await again({ username: user.username.toUpperCase() });
    expect(username.status).toBe(409);
    expect(username.body.message).toBe('Username has already been taken');
    const group = await again({ username: target.config.fixtures.namespace });
    expect(group.status).toBe(409);
    expect(group.body.message).toBe('Username has already been taken');
  });

  it("answers 400 in GitLab's shapes for what is missing or malformed", async () => {
    const base = {
      email: `bad${RUN}@example.com`,
      username: `bad${RUN}`,
      name: 'Bad',
      password: 'correct-horse-battery',
    };
    const cases: [Record<string, unknown>, ErrorBody][] = [
      [{ ...base, email: undefined }, { error: 'email is missing' }],
      [{ ...base, username: undefined }, { error: 'username is missing' }],
      [
        { ...base, password: undefined },
        {
          error:
            'password, reset_password, force_random_password are missing, at least one parameter must be provided',
        },
      ],
      [{ ...base, password: 'short' }, { message: { password: ['is too short (minimum is 8 characters)'] } }],
      [{ ...base, email: 'no-at-sign' }, { message: { email: ['is invalid'] } }],
      [{ ...base, username: '-starts-with-a-dash' }, { message: { username: ['is invalid'] } }],
      [{ ...base, username: `ends${RUN}.git` }, { message: { username: ['is invalid'] } }],
      [
        { ...base, name: 'x'.repeat(256) },
        { message: { name: ['is too long (maximum is 255 characters)'] } },
      ],
      [
        { ...base, public_email: 'someone-else@example.com' },
        { message: { public_email: ['is not an email you own'] } },
      ],
      [{ ...base, projects_limit: -1 }, {}],
    ];
    for (const [json, expected] of cases) {
      const { status, body } = await write<ErrorBody>('admin', 'POST', '/users', json);
      expect(status, JSON.stringify(json)).toBe(400);
      expect(body, JSON.stringify(json)).toMatchObject(expected);
    }
    expect((await get<ListedUser[]>('admin', '/users', { username: `bad${RUN}` })).body).toEqual([]);
  });
});

describe('PUT /users/:id', () => {
  it('changes only the fields given and answers the admin shape', async () => {
    const user = await makeUser({ bio: 'before' });
    const { status, body } = await write<AdminUser>('admin', 'PUT', `/users/${user.id}`, {
      name: `Renamed ${RUN}`,
      projects_limit: 3,
      can_create_group: false,
      public_email: user.email,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      name: `Renamed ${RUN}`,
      projects_limit: 3,
      can_create_group: false,
      public_email: user.email,
      bio: 'before',
    });
    const read = await get<AdminUser>('admin', `/users/${user.id}`);
    expect(read.body).toMatchObject({ name: `Renamed ${RUN}`, projects_limit: 3 });
  });

  it('moves the personal namespace with a new username', async () => {
    const user = await makeUser();
    const token = await tokenOf(user.id);
    const created = await withToken<{ path_with_namespace: string }>(token, '/projects', {
      method: 'POST',
      json: { name: `Own ${RUN}` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.path_with_namespace).toBe(`${user.username}/own-${RUN}`);
    const renamed = `${user.username}x`;
    expect((await write('admin', 'PUT', `/users/${user.id}`, { username: renamed })).status).toBe(200);
    const moved = await withToken<{ path_with_namespace: string }>(
      token,
      `/projects/${encodeURIComponent(`${renamed}/own-${RUN}`)}`,
    );
    expect(moved.status).toBe(200);
    expect(moved.body.path_with_namespace).toBe(`${renamed}/own-${RUN}`);
    expect(
      (await withToken(token, `/projects/${encodeURIComponent(created.body.path_with_namespace)}`)).status,
    ).toBe(404);
  });

  it("409 for another user's e-mail or username (its own in another case is fine), 400 for a bad field", async () => {
    const [first, second] = [await makeUser(), await makeUser()];
    const path = `/users/${second.id}`;
    const email = await write<ErrorBody>('admin', 'PUT', path, { email: first.email.toUpperCase() });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe('Email has already been taken');
    const username = await write<ErrorBody>('admin', 'PUT', path, { username: first.username });
    expect(username.status).toBe(409);
    expect(username.body.message).toBe('Username has already been taken');
    const own = await write<AdminUser>('admin', 'PUT', path, { username: second.username.toUpperCase() });
    expect(own.status).toBe(200);
    expect(own.body.username).toBe(second.username.toUpperCase());
    const bad = await write<ErrorBody>('admin', 'PUT', path, { password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
  });

  it('is for administrators only (403/401), and 404 for an unknown user', async () => {
    const user = await makeUser();
    for (const [caller, expected] of REFUSED)
      expect((await write(caller, 'PUT', `/users/${user.id}`, { name: 'Refused' })).status, caller).toBe(
        expected,
      );
    expect((await get<AdminUser>('admin', `/users/${user.id}`)).body.name).toBe(user.name);
    expect((await write('admin', 'PUT', '/users/999999999', { name: 'Nobody' })).status).toBe(404);
  });
});

describe('DELETE /users/:id', () => {
  it('deletes the account and its tokens; its issue and note stay, by the ghost user', async () => {
    const user = await makeUser();
    const token = await tokenOf(user.id);
    const project = encodeURIComponent(target.config.fixtures.publicProject);
    const issue = await withToken<{ iid: number; author: { id: number } }>(
      token,
      `/projects/${project}/issues`,
      {
        method: 'POST',
        json: { title: `By a user who leaves ${RUN}` },
      },
    );
    expect(issue.status, JSON.stringify(issue.body)).toBe(201);
    const note = await withToken<{ id: number }>(
      token,
      `/projects/${project}/issues/${issue.body.iid}/notes`,
      {
        method: 'POST',
        json: { body: `A note ${RUN}` },
      },
    );
    expect(note.status, JSON.stringify(note.body)).toBe(201);

    const deleted = await write('admin', 'DELETE', `/users/${user.id}`);
    expect(deleted.status).toBe(204);
    expect((await get('admin', `/users/${user.id}`)).status).toBe(404);
    expect((await withToken(token, '/user')).status).toBe(401);

    const kept = await get<{ author: { id: number; username: string; name: string } }>(
      'developer',
      `/projects/${project}/issues/${issue.body.iid}`,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.author.name).toBe('Ghost User');
    const ghost = kept.body.author;
    const keptNote = await get<{ author: { id: number } }>(
      'developer',
      `/projects/${project}/issues/${issue.body.iid}/notes/${note.body.id}`,
    );
    expect(keptNote.body.author.id).toBe(ghost.id);
    const ghostUser = await get<ListedUser>('admin', `/users/${ghost.id}`);
    expect(ghostUser.body).toMatchObject({ username: ghost.username, name: 'Ghost User', state: 'active' });
    // The ghost user holds the contributions and cannot be removed.
    expect((await write('admin', 'DELETE', `/users/${ghost.id}`)).status).toBe(403);
  });

  it("with hard_delete removes the user's issues and merge requests with what is on them, and the user's notes", async () => {
    const { user, token, project } = await developerOfPublicProject();
    // Someone else's issue, on which the user writes a note: the issue stays, the note goes.
    const others = await callAs<{ iid: number }>(target, 'developer', `/projects/${project}/issues`, {
      method: 'POST',
      json: { title: `Stays ${RUN}` },
    });
    const othersNotes = `/projects/${project}/issues/${others.body.iid}/notes`;
    const note = await withToken<{ id: number }>(token, othersNotes, {
      method: 'POST',
      json: { body: `Gone ${RUN}` },
    });
    expect([others.status, note.status]).toEqual([201, 201]);
    // The user's own issue and merge request go, with another user's note on the issue.
    const issue = await withToken<{ iid: number }>(token, `/projects/${project}/issues`, {
      method: 'POST',
      json: { title: `Hard delete ${RUN}` },
    });
    const onIssue = await callAs<{ id: number }>(
      target,
      'developer',
      `/projects/${project}/issues/${issue.body.iid}/notes`,
      { method: 'POST', json: { body: `On a doomed issue ${RUN}` } },
    );
    const branch = `hard-delete-${RUN}`.toLowerCase();
    const branched = await withToken(token, `/projects/${project}/repository/branches`, {
      method: 'POST',
      json: { branch, ref: 'main' },
    });
    const committed = await withToken(token, `/projects/${project}/repository/files/${branch}.txt`, {
      method: 'POST',
      json: { branch, content: 'doomed\n', commit_message: 'A change to propose' },
    });
    const mergeRequest = await withToken<{ iid: number }>(token, `/projects/${project}/merge_requests`, {
      method: 'POST',
      json: { source_branch: branch, target_branch: 'main', title: `Hard delete ${RUN}` },
    });
    expect([issue.status, onIssue.status, branched.status, committed.status, mergeRequest.status]).toEqual([
      201, 201, 201, 201, 201,
    ]);

    const deleted = await callAs(target, 'admin', `/users/${user.id}`, {
      method: 'DELETE',
      query: { hard_delete: 'true' },
    });
    expect(deleted.status).toBe(204);
    expect((await get('developer', `${othersNotes}/${note.body.id}`)).status).toBe(404);
    expect((await get('developer', `/projects/${project}/issues/${others.body.iid}`)).status).toBe(200);
    for (const path of [
      `/projects/${project}/issues/${issue.body.iid}`,
      `/projects/${project}/issues/${issue.body.iid}/notes/${onIssue.body.id}`,
      `/projects/${project}/merge_requests/${mergeRequest.body.iid}`,
    ])
      expect((await get('admin', path)).status, path).toBe(404);
    const listed = await get<{ iid: number }[]>('admin', `/projects/${project}/merge_requests`, {
      source_branch: branch,
    });
    expect(listed.body).toEqual([]);
    expect(
      (await write('admin', 'DELETE', `/projects/${project}/repository/branches/${branch}`)).status,
    ).toBe(204);
  });

  /** A user of this run who is a Developer of the public project and of the namespace, with a token. */
  async function contributor(): Promise<{ user: AdminUser; token: string; project: string; group: string }> {
    const user = await makeUser();
    const token = await tokenOf(user.id);
    const project = encodeURIComponent(target.config.fixtures.publicProject);
    const group = encodeURIComponent(target.config.fixtures.namespace);
    for (const source of [`/projects/${project}`, `/groups/${group}`]) {
      const member = await write('admin', 'POST', `${source}/members`, {
        user_id: user.id,
        access_level: 30,
      });
      expect(member.status, JSON.stringify(member.body)).toBe(201);
    }
    return { user, token, project, group };
  }

  /** A public snippet of the user's, personal or in the project. */
  async function snippetOf(token: string, collection: string): Promise<number> {
    const { status, body } = await withToken<{ id: number }>(token, collection, {
      method: 'POST',
      json: { title: `Leaves ${RUN}`, file_name: 'a.txt', content: 'kept?\n', visibility: 'public' },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body.id;
  }

  afterAll(async () => {
    for (const id of ownProjects) await callAs(target, 'owner', `/projects/${id}`, { method: 'DELETE' });
  });

  /** A public project of this run in the namespace (its members are the namespace's), deleted after the file. */
  async function ownProject(): Promise<string> {
    const group = await get<{ id: number }>(
      'owner',
      `/groups/${encodeURIComponent(target.config.fixtures.namespace)}`,
    );
    const { status, body } = await callAs<{ id: number }>(target, 'owner', '/projects', {
      method: 'POST',
      json: {
        name: `Leaves ${RUN} ${ownProjects.length}`,
        namespace_id: group.body.id,
        visibility: 'public',
        initialize_with_readme: true,
      },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    ownProjects.push(body.id);
    return String(body.id);
  }

  /** A merge request into `main` of a new branch with one new file, made by `caller` (a token of its own or a role). */
  async function proposal(
    caller: Caller | { token: string },
    project: string,
    name: string,
  ): Promise<number> {
    const as = <T>(path: string, options: Parameters<typeof callAs>[3]) =>
      typeof caller === 'object'
        ? withToken<T>(caller.token, path, options)
        : callAs<T>(target, caller, path, options);
    const branch = `${name}-${RUN}`.toLowerCase();
    const branched = await as(`/projects/${project}/repository/branches`, {
      method: 'POST',
      json: { branch, ref: 'main' },
    });
    const committed = await as(`/projects/${project}/repository/files/${encodeURIComponent(CI_FILE)}`, {
      method: 'POST',
      json: { branch, content: 'build:\n  script: make\n', commit_message: `Adds ${name}` },
    });
    const made = await as<{ iid: number }>(`/projects/${project}/merge_requests`, {
      method: 'POST',
      json: { source_branch: branch, target_branch: 'main', title: `${name} ${RUN}` },
    });
    expect([branched.status, committed.status, made.status], JSON.stringify(made.body)).toEqual([
      201, 201, 201,
    ]);
    return made.body.iid;
  }

  /** What the deleted user closed, merged and ran in `project`, with the paths to read them again. */
  async function actsOf(token: string, project: string) {
    const issue = await callAs<{ iid: number }>(target, 'developer', `/projects/${project}/issues`, {
      method: 'POST',
      json: { title: `Closed by a user who leaves ${RUN}` },
    });
    expect(issue.status).toBe(201);
    const issuePath = `/projects/${project}/issues/${issue.body.iid}`;
    const mergedPath = `/projects/${project}/merge_requests/${await proposal('developer', project, 'merged')}`;
    const closedPath = `/projects/${project}/merge_requests/${await proposal('developer', project, 'closed')}`;
    const ci = await proposal({ token }, project, 'ci');
    const acts = [
      await withToken(token, issuePath, { method: 'PUT', json: { state_event: 'close' } }),
      await withToken(token, `${mergedPath}/merge`, { method: 'PUT' }),
      await withToken(token, closedPath, { method: 'PUT', json: { state_event: 'close' } }),
      await withToken<{ id: number }>(token, `/projects/${project}/pipeline`, {
        method: 'POST',
        json: { ref: `ci-${RUN}`.toLowerCase() },
      }),
    ] as const;
    expect(
      acts.map((act) => act.status),
      JSON.stringify(acts.map((act) => act.body)),
    ).toEqual([200, 200, 200, 201]);
    const pipelinePath = `/projects/${project}/pipelines/${acts[3].body.id}`;
    return {
      issuePath,
      mergedPath,
      closedPath,
      pipelinePath,
      ciPath: `/projects/${project}/merge_requests/${ci}`,
    };
  }

  type Actor = { id: number; name: string } | null;

  it('forgets who closed an issue or merged or closed a merge request; the merge user, pipelines and to-dos the user caused go to the ghost user', async () => {
    const { user, token } = await contributor();
    const project = await ownProject();
    const paths = await actsOf(token, project);
    // A to-do the user caused for someone else: an issue assigned to the developer.
    const assigned = await withToken(token, `/projects/${project}/issues`, {
      method: 'POST',
      json: { title: `Assigned by a user who leaves ${RUN}`, assignee_ids: [users.developer.id] },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const merged = await get<{ merged_by: Actor; merge_user: Actor }>('admin', paths.mergedPath);
    expect([merged.body.merged_by?.id, merged.body.merge_user?.id]).toEqual([user.id, user.id]);

    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    const issue = await get<{ state: string; closed_by: Actor }>('admin', paths.issuePath);
    expect([issue.body.state, issue.body.closed_by]).toEqual(['closed', null]);
    const after = await get<{ state: string; merged_by: Actor; merge_user: Actor }>(
      'admin',
      paths.mergedPath,
    );
    expect([after.body.state, after.body.merged_by, after.body.merge_user?.name]).toEqual([
      'merged',
      null,
      'Ghost User',
    ]);
    const closed = await get<{ state: string; closed_by: Actor }>('admin', paths.closedPath);
    expect([closed.body.state, closed.body.closed_by]).toEqual(['closed', null]);
    const pipeline = await get<{ user: Actor }>('admin', paths.pipelinePath);
    expect(pipeline.body.user?.name).toBe('Ghost User');
    const todos = await get<{ author: Actor; target: { title: string } }[]>('developer', '/todos', {
      project_id: project,
    });
    const todo = todos.body.find((item) => item.target.title === `Assigned by a user who leaves ${RUN}`);
    expect(todo?.author?.name).toBe('Ghost User');
  });

  it('with hard_delete leaves pipelines without a user and forgets who merged, closed or was to merge', async () => {
    const { user, token } = await contributor();
    const project = await ownProject();
    const paths = await actsOf(token, project);
    const deleted = await callAs(target, 'admin', `/users/${user.id}`, {
      method: 'DELETE',
      query: { hard_delete: 'true' },
    });
    expect(deleted.status).toBe(204);
    const pipeline = await get<{ id: number; user: Actor }>('admin', paths.pipelinePath);
    expect(pipeline.status).toBe(200);
    expect(pipeline.body.user).toBeNull();
    const listed = await get<{ id: number }[]>('admin', `/projects/${project}/pipelines`);
    expect(listed.body.map((item) => item.id)).toContain(pipeline.body.id);
    const issue = await get<{ state: string; closed_by: Actor }>('admin', paths.issuePath);
    expect([issue.body.state, issue.body.closed_by]).toEqual(['closed', null]);
    const merged = await get<{ merged_by: Actor; merge_user: Actor }>('admin', paths.mergedPath);
    expect([merged.body.merged_by, merged.body.merge_user]).toEqual([null, null]);
    const closed = await get<{ closed_by: Actor }>('admin', paths.closedPath);
    expect(closed.body.closed_by).toBeNull();
    // The user's own merge request went with the user.
    expect((await get('admin', paths.ciPath)).status).toBe(404);
  });

  it("deletes the user's personal snippets and keeps the project snippets, by the ghost user", async () => {
    const { user, token, project } = await contributor();
    const personal = await snippetOf(token, '/snippets');
    const inProject = await snippetOf(token, `/projects/${project}/snippets`);
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    expect((await get('admin', `/snippets/${personal}`)).status).toBe(404);
    const kept = await get<{ author: { name: string } }>(
      'admin',
      `/projects/${project}/snippets/${inProject}`,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.author.name).toBe('Ghost User');
    expect((await write('admin', 'DELETE', `/projects/${project}/snippets/${inProject}`)).status).toBe(204);
  });

  it('with hard_delete deletes every snippet and epic the user wrote', async () => {
    const { user, token, project, group } = await contributor();
    const personal = await snippetOf(token, '/snippets');
    const inProject = await snippetOf(token, `/projects/${project}/snippets`);
    const epic = await withToken<{ iid: number }>(token, `/groups/${group}/epics`, {
      method: 'POST',
      json: { title: `Epic of a user who leaves ${RUN}` },
    });
    expect(epic.status, JSON.stringify(epic.body)).toBe(201);
    const deleted = await callAs(target, 'admin', `/users/${user.id}`, {
      method: 'DELETE',
      query: { hard_delete: 'true' },
    });
    expect(deleted.status).toBe(204);
    for (const path of [
      `/snippets/${personal}`,
      `/projects/${project}/snippets/${inProject}`,
      `/groups/${group}/epics/${epic.body.iid}`,
    ])
      expect((await get('admin', path)).status, path).toBe(404);
  });

  it("keeps the user's epics without hard_delete, by the ghost user", async () => {
    const { user, token, group } = await contributor();
    const epic = await withToken<{ iid: number }>(token, `/groups/${group}/epics`, {
      method: 'POST',
      json: { title: `Epic that stays ${RUN}` },
    });
    expect(epic.status, JSON.stringify(epic.body)).toBe(201);
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    const kept = await get<{ author: { name: string } }>('admin', `/groups/${group}/epics/${epic.body.iid}`);
    expect(kept.status).toBe(200);
    expect(kept.body.author.name).toBe('Ghost User');
    expect((await write('admin', 'DELETE', `/groups/${group}/epics/${epic.body.iid}`)).status).toBe(204);
  });

  it('is for administrators only (403/401), 404 for an unknown user', async () => {
    const user = await makeUser();
    for (const [caller, expected] of REFUSED)
      expect((await write(caller, 'DELETE', `/users/${user.id}`)).status, caller).toBe(expected);
    expect((await get('admin', `/users/${user.id}`)).status).toBe(200);
    expect((await write('admin', 'DELETE', '/users/999999999')).status).toBe(404);
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(404);
  });

  it('refuses to delete the only owner of a group (409) without hard_delete', async () => {
    const soleOwner = target.config.fixtures.soleOwner;
    if (!soleOwner) return;
    const { status, body } = await callAs<ErrorBody>(target, 'admin', `/users/${users[soleOwner].id}`, {
      method: 'DELETE',
      query: { hard_delete: 'false' },
    });
    expect(status).toBe(409);
    expect(body.message).toBe('User cannot be removed while is the sole-owner of a group');
    expect((await write('admin', 'DELETE', `/users/${users[soleOwner].id}`)).status).toBe(409);
    expect((await get(soleOwner, '/user')).status).toBe(200);
  });

  it('removes the personal projects with the user', async () => {
    const user = await makeUser();
    const token = await tokenOf(user.id);
    const project = await withToken<{ id: number }>(token, '/projects', {
      method: 'POST',
      json: { name: `personal-${RUN}` },
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    expect((await get('admin', `/projects/${project.body.id}`)).status).toBe(404);
    expect((await get('admin', `/users/${user.id}`)).status).toBe(404);
    // The personal namespace went too: its path is free for a new account of the same username.
    const again = await write<AdminUser>('admin', 'POST', '/users', {
      email: `again-${user.email}`,
      username: user.username,
      name: 'Same name again',
      password: 'correct-horse-battery',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await write('admin', 'DELETE', `/users/${again.body.id}`)).status).toBe(204);
  });

  it('with hard_delete removes the groups the user owns alone, with their subgroups and projects', async () => {
    const user = await makeUser({ can_create_group: true });
    const token = await tokenOf(user.id);
    const path = `solo-${RUN}`.toLowerCase();
    const group = await withToken<{ id: number }>(token, '/groups', {
      method: 'POST',
      json: { name: path, path },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const subgroup = await withToken<{ id: number }>(token, '/groups', {
      method: 'POST',
      json: { name: 'Sub', path: 'sub', parent_id: group.body.id },
    });
    const project = await withToken<{ id: number }>(token, '/projects', {
      method: 'POST',
      json: { name: 'Inside', namespace_id: subgroup.body.id },
    });
    expect([subgroup.status, project.status]).toEqual([201, 201]);
    // A group with another owner is no obstacle and stays.
    const shared = await withToken<{ id: number }>(token, '/groups', {
      method: 'POST',
      json: { name: `${path}-shared`, path: `${path}-shared` },
    });
    const coOwner = await withToken(token, `/groups/${shared.body.id}/members`, {
      method: 'POST',
      json: { user_id: users.admin.id, access_level: 50 },
    });
    expect(coOwner.status).toBe(201);

    const refused = await write('admin', 'DELETE', `/users/${user.id}`);
    expect(refused.status).toBe(409);
    expect((await get('admin', `/groups/${group.body.id}`)).status).toBe(200);

    const deleted = await callAs(target, 'admin', `/users/${user.id}`, {
      method: 'DELETE',
      query: { hard_delete: 'true' },
    });
    expect(deleted.status).toBe(204);
    for (const path of [
      `/groups/${group.body.id}`,
      `/groups/${subgroup.body.id}`,
      `/projects/${project.body.id}`,
      `/users/${user.id}`,
    ])
      expect((await get('admin', path)).status, path).toBe(404);
    expect((await get('admin', `/groups/${shared.body.id}`)).status).toBe(200);
    expect((await write('admin', 'DELETE', `/groups/${shared.body.id}`)).status).toBe(202);
  });
});

describe('POST /users/:id/block and /unblock', () => {
  const block = (caller: Caller, id: number) => write<boolean | null>(caller, 'POST', `/users/${id}/block`);
  const unblock = (caller: Caller, id: number) => write<boolean>(caller, 'POST', `/users/${id}/unblock`);

  it("blocks (201 true, then null) so that the user's tokens get 403; unblocking (201 true, then false) lets them in again", async () => {
    const user = await makeUser();
    const token = await tokenOf(user.id);
    const project = encodeURIComponent(target.config.fixtures.publicProject);
    expect((await withToken(token, '/user')).status).toBe(200);

    const blocked = await block('admin', user.id);
    expect([blocked.status, blocked.body]).toEqual([201, true]);
    for (const path of ['/user', `/projects/${project}`]) {
      const refused = await withToken<ErrorBody>(token, path);
      expect([refused.status, refused.body.message], path).toEqual([
        403,
        '403 Forbidden - Your account has been blocked.',
      ]);
    }
    expect((await get<AdminUser>('admin', `/users/${user.id}`)).body.state).toBe('blocked');
    expect((await get<ListedUser[]>('developer', '/users', { username: user.username })).body).toEqual([]);
    const again = await block('admin', user.id);
    expect([again.status, again.body]).toEqual([201, null]);

    const unblocked = await unblock('admin', user.id);
    expect([unblocked.status, unblocked.body]).toEqual([201, true]);
    expect((await withToken(token, '/user')).status).toBe(200);
    expect((await get<AdminUser>('admin', `/users/${user.id}`)).body.state).toBe('active');
    const notBlocked = await unblock('admin', user.id);
    expect([notBlocked.status, notBlocked.body]).toEqual([201, false]);
  });

  it("drops the user's active pipelines (failed), as GitLab's state machine does on a block", async () => {
    const { user, token, project } = await developerOfPublicProject();
    const branch = `blocked-ci-${RUN}`.toLowerCase();
    const branched = await withToken(token, `/projects/${project}/repository/branches`, {
      method: 'POST',
      json: { branch, ref: 'main' },
    });
    // A job that would run for hours: the pipeline is still active when the user is blocked. The project's
    // branch may have a CI file already (then it is changed).
    const ciPath = `/projects/${project}/repository/files/${encodeURIComponent(CI_FILE)}`;
    const ci = {
      branch,
      content: 'long:\n  script: sleep\n  duration: 86400\n',
      commit_message: 'A long job',
    };
    let committed = await withToken(token, ciPath, { method: 'POST', json: ci });
    if (committed.status === 400) committed = await withToken(token, ciPath, { method: 'PUT', json: ci });
    const pipeline = await withToken<{ id: number; status: string }>(token, `/projects/${project}/pipeline`, {
      method: 'POST',
      json: { ref: branch },
    });
    expect([branched.status, committed.status < 300, pipeline.status]).toEqual([201, true, 201]);
    expect((await block('admin', user.id)).body).toBe(true);
    const after = await get<{ status: string; finished_at: string | null }>(
      'admin',
      `/projects/${project}/pipelines/${pipeline.body.id}`,
    );
    expect(after.body.status).toBe('failed');
    expect(after.body.finished_at).not.toBeNull();
    expect(
      (await write('admin', 'DELETE', `/projects/${project}/repository/branches/${branch}`)).status,
    ).toBe(204);
  });

  it('keeps a revoked or expired token of a blocked user a 401', async () => {
    const user = await makeUser();
    const { status, body } = await callAs<TokenWithToken>(
      target,
      'admin',
      `/users/${user.id}/personal_access_tokens`,
      {
        method: 'POST',
        json: { name: `old ${RUN}`, scopes: ['api'], expires_at: '2020-01-01' },
      },
    );
    expect(status).toBe(201);
    expect((await block('admin', user.id)).status).toBe(201);
    expect((await withToken(body.token, '/user')).status).toBe(401);
  });

  it('is for administrators only (403/401), 404 for an unknown user; the caller itself and the ghost user are refused (403)', async () => {
    const user = await makeUser();
    for (const [caller, expected] of REFUSED) {
      expect((await block(caller, user.id)).status, caller).toBe(expected);
      expect((await unblock(caller, user.id)).status, caller).toBe(expected);
    }
    expect((await get<AdminUser>('admin', `/users/${user.id}`)).body.state).toBe('active');
    expect((await block('admin', 999_999_999)).status).toBe(404);
    expect((await unblock('admin', 999_999_999)).status).toBe(404);
    const self = await block('admin', users.admin.id);
    expect([self.status, (self.body as unknown as ErrorBody).message]).toEqual([
      403,
      '403 Forbidden - The API initiating user cannot be blocked by the API',
    ]);
    // The ghost user holds a deleted user's issue.
    const token = await tokenOf(user.id);
    const project = encodeURIComponent(target.config.fixtures.publicProject);
    const issue = await withToken<{ iid: number }>(token, `/projects/${project}/issues`, {
      method: 'POST',
      json: { title: `Leaves a ghost ${RUN}` },
    });
    expect((await write('admin', 'DELETE', `/users/${user.id}`)).status).toBe(204);
    const ghost = await get<{ author: { id: number } }>(
      'admin',
      `/projects/${project}/issues/${issue.body.iid}`,
    );
    const ghostBlock = await block('admin', ghost.body.author.id);
    expect([ghostBlock.status, (ghostBlock.body as unknown as ErrorBody).message]).toEqual([
      403,
      'An internal user cannot be blocked',
    ]);
  });
});

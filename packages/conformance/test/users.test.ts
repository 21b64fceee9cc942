// The instance's version and the users API (GitLab v4; the seeds do not show them): GET /version and
// /metadata, the current user, the user list with its filters and GitLab's anonymous rules, and single
// users; the 401/403/404 matrix of each.
//
// The file only reads. Tests marked "(demo)" need the demo fixtures of apps/server beyond what the config
// describes (the blocked user `former`, the reporter's private profile) and run only against this
// repository's own server.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  type FixtureUser,
  openTarget,
  type Role,
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

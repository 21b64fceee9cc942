// Members of groups and projects (GitLab v4; the seeds do not show them): the direct members and all
// members (inherited from ancestor groups and, for projects, through groups the project is shared with),
// lists and single reads, the filters `query`, `user_ids` and `skip_users`, pagination, and the 401/403/404
// matrix.
//
// The file only reads. Tests marked "(demo)" need the demo fixtures of apps/server beyond what the config
// describes (the outsider is a developer of the shared group) and run only against this repository's own
// server.
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  againstSuiteServer,
  type FixtureUser,
  openTarget,
  type Target,
  type UserRole,
} from '../src/index.js';
import { type Caller, callAs } from './callAs.js';

const againstLocalServer = againstSuiteServer();

let target: Target;
let users: Record<UserRole, FixtureUser>;
let namespace: string;
let hiddenGroup: string;
let publicProject: string;
let privateProject: string;
let sharedProject: string;

/** The access levels the config's roles hold in `namespace` and in its projects. */
const LEVELS = { owner: 50, maintainer: 40, developer: 30, reporter: 20, guest: 10 } as const;
const MEMBER_ROLES = Object.keys(LEVELS) as (keyof typeof LEVELS)[];

beforeAll(async () => {
  target = await openTarget();
  const { fixtures } = target.config;
  users = fixtures.users;
  namespace = encodeURIComponent(fixtures.namespace);
  hiddenGroup = encodeURIComponent(fixtures.hiddenGroup);
  publicProject = encodeURIComponent(fixtures.publicProject);
  privateProject = encodeURIComponent(fixtures.privateProject);
  sharedProject = encodeURIComponent(fixtures.sharedProject);
});
afterAll(async () => {
  await target.close();
});

type Member = components['schemas']['Member'];

const get = <T = unknown>(caller: Caller, path: string, query?: string | Record<string, string>) =>
  callAs<T>(target, caller, path, { query });

/** Every member of a list, read through every page. */
async function allPages(caller: Caller, path: string, query = ''): Promise<Member[]> {
  const members: Member[] = [];
  for (let page = 1; ; page++) {
    const { status, body, headers } = await get<Member[]>(caller, path, `per_page=100&page=${page}${query}`);
    expect(status, `${path} ${JSON.stringify(body)}`).toBe(200);
    members.push(...body);
    if (!headers.get('X-Next-Page')) return members;
  }
}

describe.each([
  ['groups', () => namespace, () => hiddenGroup],
  ['projects', () => publicProject, () => privateProject],
] as const)('members of %s', (kind, source, hidden) => {
  const base = () => `/${kind}/${source()}/members`;

  it('/members/all holds every role with its level and no outsider', async () => {
    const members = await allPages('developer', `${base()}/all`);
    const byId = new Map(members.map((member) => [member.id, member]));
    for (const role of MEMBER_ROLES) expect(byId.get(users[role].id)?.access_level, role).toBe(LEVELS[role]);
    expect(byId.has(users.outsider.id)).toBe(false);
    // One entry per user, ordered by user ID.
    const ids = members.map((member) => member.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('the direct members are members of /members/all too, at a level no higher', async () => {
    const direct = await allPages('developer', base());
    const all = new Map((await allPages('developer', `${base()}/all`)).map((member) => [member.id, member]));
    for (const member of direct) {
      expect(all.has(member.id), member.username).toBe(true);
      expect(member.access_level).toBeLessThanOrEqual(all.get(member.id)?.access_level ?? 0);
    }
  });

  it('reads one member of all, and 404 for a user who is none', async () => {
    for (const role of MEMBER_ROLES) {
      const { status, body } = await get<Member>('guest', `${base()}/all/${users[role].id}`);
      expect(status, role).toBe(200);
      expect(body).toMatchObject({
        id: users[role].id,
        username: users[role].username,
        access_level: LEVELS[role],
      });
    }
    expect((await get('guest', `${base()}/all/${users.outsider.id}`)).status).toBe(404);
    expect((await get('guest', `${base()}/all/999999999`)).status).toBe(404);
    expect((await get('guest', `${base()}/999999999`)).status).toBe(404);
  });

  it('reads each direct member singly, the same as in the list', async () => {
    const direct = await allPages('developer', base());
    for (const member of direct.slice(0, 5)) {
      const { status, body } = await get<Member>('developer', `${base()}/${member.id}`);
      expect(status).toBe(200);
      expect(body).toEqual(member);
    }
  });

  it('filters by user_ids (repeated or comma-separated), skip_users and query', async () => {
    const { owner, developer, guest } = users;
    const repeated = await get<Member[]>(
      'developer',
      `${base()}/all`,
      `user_ids[]=${owner.id}&user_ids[]=${guest.id}`,
    );
    expect(repeated.body.map((m) => m.id)).toEqual([owner.id, guest.id].sort((a, b) => a - b));
    const commas = await get<Member[]>('developer', `${base()}/all`, `user_ids=${owner.id},${developer.id}`);
    expect(commas.body.map((m) => m.id)).toEqual([owner.id, developer.id].sort((a, b) => a - b));
    const skipped = await allPages('developer', `${base()}/all`, `&skip_users[]=${owner.id}`);
    expect(skipped.map((m) => m.id)).not.toContain(owner.id);
    expect(skipped.map((m) => m.id)).toContain(developer.id);
    const term = users.maintainer.username.slice(1).toUpperCase();
    const found = await allPages('developer', `${base()}/all`, `&query=${encodeURIComponent(term)}`);
    expect(found.map((m) => m.id)).toContain(users.maintainer.id);
    for (const member of found)
      expect(`${member.name}\n${member.username}`.toLowerCase()).toContain(term.toLowerCase());
  });

  it('pages with the pagination headers', async () => {
    const { body, headers } = await get<Member[]>('developer', `${base()}/all`, { per_page: '2' });
    expect(body.length).toBe(2);
    expect(Number(headers.get('X-Total'))).toBeGreaterThanOrEqual(MEMBER_ROLES.length);
    expect(headers.get('X-Next-Page')).toBe('2');
    expect(headers.get('Link')).toContain('rel="next"');
  });

  it('needs a valid token (401), one that may read the API (403), and hides what the caller cannot see (404)', async () => {
    // The maintainer holds a level in the hidden source too (it may create projects there).
    const maintainer = users.maintainer.id;
    for (const path of [base(), `${base()}/all`, `${base()}/${maintainer}`, `${base()}/all/${maintainer}`]) {
      for (const caller of ['anonymous', 'invalid', 'revoked'] as const)
        expect((await get(caller, path)).status, `${caller} ${path}`).toBe(401);
      expect((await get('developerReadRepository', path)).status, path).toBe(403);
      const hiddenPath = path.replace(source(), hidden());
      expect((await get('outsider', hiddenPath)).status, hiddenPath).toBe(404);
      // Administrators see every source (a user who is no direct member of it is still a 404 member).
      if (!path.endsWith(`/members/${maintainer}`))
        expect((await get('admin', hiddenPath)).status, hiddenPath).toBe(200);
      const unknown = path.replace(source(), `no-such-${kind}-${Date.now()}`);
      expect((await get('developer', unknown)).status, unknown).toBe(404);
    }
  });

  it('lets the outsider read the members of what it can see', async () => {
    expect((await get('outsider', `${base()}/all`)).status).toBe(200);
  });

  it('refuses user IDs that are no integers (400)', async () => {
    expect((await get('developer', `${base()}/all`, 'user_ids=abc')).status).toBe(400);
    expect((await get('developer', `${base()}/not-a-number`)).status).toBe(400);
  });
});

describe('members of a shared project', () => {
  it('counts the namespace members of the project', async () => {
    const members = await allPages('maintainer', `/projects/${sharedProject}/members/all`);
    expect(members.find((member) => member.id === users.maintainer.id)?.access_level).toBe(LEVELS.maintainer);
  });

  it("(demo) counts the shared group's members, capped at the share's level", async () => {
    if (!againstLocalServer) return;
    // The outsider is a developer (30) of the group the project is shared with at reporter level (20).
    const { status, body } = await get<Member>(
      'maintainer',
      `/projects/${sharedProject}/members/all/${users.outsider.id}`,
    );
    expect(status).toBe(200);
    expect(body.access_level).toBe(20);
    // Through a group only: no direct member.
    expect((await get('maintainer', `/projects/${sharedProject}/members/${users.outsider.id}`)).status).toBe(
      404,
    );
  });
});

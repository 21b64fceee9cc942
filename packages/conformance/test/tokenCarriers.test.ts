// Where a personal access token travels and who it acts for, as GitLab reads them (the seeds name the
// PRIVATE-TOKEN header only): the `private_token` query parameter, the PRIVATE-TOKEN header and
// `Authorization: Bearer` (GitLab's find_personal_access_token, in that order), and an administrator acting as
// another user with `sudo` (query) or `Sudo` (header), by username or ID.
//
// Bearer is checked on every read of the spec: the spec's own valid request of each GET (requestCases.ts), sent
// with the administrator's token as PRIVATE-TOKEN and as Bearer, must get the same answer, and never a 401.
// Sudo needs the administrator's token to carry the `sudo` scope (the demo fixtures' does).
import type { components } from '@collab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, RUN, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { requestCases } from '../src/requestCases.js';
import { loadSpecIndex } from '../src/specIndex.js';
import { callAs } from './callAs.js';

type User = components['schemas']['User'];
type Project = components['schemas']['ProjectFull'];

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { send, urlOf } = operationRequests(index, cases, () => target);

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

describe('Authorization: Bearer with a personal access token', () => {
  // The v4 reads; SCIM's Bearer token is the group's SCIM token, checked in scim.test.ts.
  const reads = index.operations.filter(
    (entry) => entry.method === 'GET' && !entry.template.startsWith('/api/scim') && !('servers' in entry),
  );

  it('is read as PRIVATE-TOKEN is, on every read of the spec', { timeout: 300_000 }, async () => {
    const differences: string[] = [];
    await inParallel(reads, 4, async (entry) => {
      const base = cases.baseCase(entry, 0, true);
      const header = await send(entry, { ...base, anonymous: false });
      const bearer = await send(entry, { ...base, anonymous: false, bearer: true });
      if (bearer.status === 401 || bearer.status !== header.status || bearer.status >= 500)
        differences.push(
          `${entry.operationId} ${urlOf(entry, base)}: PRIVATE-TOKEN ${header.status}, Bearer ${bearer.status}`,
        );
    });
    expect(reads.length).toBeGreaterThan(50);
    expect(differences).toEqual([]);
  });

  it('identifies the caller, and an unknown Bearer token is a 401 like an unknown PRIVATE-TOKEN', async () => {
    const me = await callAs<User>(target, 'anonymous', '/user', {
      headers: { Authorization: `Bearer ${target.config.tokens.developer}` },
    });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(target.config.fixtures.users.developer.username);
    const unknown = await callAs(target, 'anonymous', '/user', {
      headers: { Authorization: `Bearer no-such-token-${RUN}` },
    });
    expect(unknown.status).toBe(401);
  });

  it('comes after the private_token query parameter and the PRIVATE-TOKEN header, as in GitLab', async () => {
    const headerWins = await callAs<User>(target, 'reporter', '/user', {
      headers: { Authorization: `Bearer ${target.config.tokens.developer}` },
    });
    expect(headerWins.body.username).toBe(target.config.fixtures.users.reporter.username);
    const queryWins = await callAs<User>(target, 'reporter', '/user', {
      query: { private_token: target.config.tokens.guest },
    });
    expect(queryWins.body.username).toBe(target.config.fixtures.users.guest.username);
  });
});

describe('sudo: an administrator acting as another user', () => {
  it('acts as the user named by the sudo parameter or the Sudo header, by username or ID', async () => {
    const { developer, owner } = target.config.fixtures.users;
    for (const [label, options] of [
      ['query, username', { query: { sudo: developer.username } }],
      ['query, ID', { query: { sudo: String(developer.id) } }],
      ['header, username', { headers: { Sudo: developer.username } }],
      ['header, ID', { headers: { Sudo: String(developer.id) } }],
    ] as const) {
      const me = await callAs<User>(target, 'admin', '/user', options);
      expect([label, me.status, me.body.username]).toEqual([label, 200, developer.username]);
    }
    // The query parameter wins over the header.
    const both = await callAs<User>(target, 'admin', '/user', {
      query: { sudo: owner.username },
      headers: { Sudo: developer.username },
    });
    expect(both.body.username).toBe(owner.username);
  });

  it("writes as that user: a project made with sudo is in the user's namespace and made by them", async () => {
    const { owner } = target.config.fixtures.users;
    const created = await callAs<Project>(target, 'admin', '/projects', {
      method: 'POST',
      query: { sudo: owner.username },
      json: { path: `sudo-made-${RUN.toLowerCase()}` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.namespace.path).toBe(owner.username);
    expect(created.body.creator_id).toBe(owner.id);
  });

  it("reads with that user's access: a project the user may not see is a 404", async () => {
    const { outsider } = target.config.fixtures.users;
    const path = `/projects/${encodeURIComponent(target.config.fixtures.privateProject)}`;
    expect((await callAs(target, 'admin', path)).status).toBe(200);
    expect((await callAs(target, 'admin', path, { headers: { Sudo: outsider.username } })).status).toBe(404);
  });

  it('is refused to others than administrators (403), to anonymous callers (401), for unknown users (404)', async () => {
    const { developer } = target.config.fixtures.users;
    const notAdmin = await callAs(target, 'maintainer', '/user', { query: { sudo: developer.username } });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    expect(
      (await callAs(target, 'anonymous', '/user', { headers: { Sudo: developer.username } })).status,
    ).toBe(401);
    const unknown = await callAs(target, 'admin', '/user', { query: { sudo: `nobody-${RUN}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: `404 User with ID or username 'nobody-${RUN}' Not Found` });
  });
});

// Protected branches: list, read, protect, unprotect and the code-owner option, and the rules' effect on
// file commits and branch deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceConfig, type FixtureUser, openTarget, RUN, type Target } from '../src/index.js';

let target: Target;
let project: string;
let privateProject: string;
/** A member of the projects, for user grants. */
let developer: FixtureUser;
/** No member of the public project: a user grant may not name them. */
let outsider: FixtureUser;
/** A group the public project is not shared with, and `sharedProject` (maintained by the maintainer) is. */
let sharedGroup: ConformanceConfig['fixtures']['sharedGroup'];
let sharedProject: string;

beforeAll(async () => {
  target = await openTarget();
  ({ publicProject: project, privateProject, sharedGroup, sharedProject } = target.config.fixtures);
  ({ developer, outsider } = target.config.fixtures.users);
});
afterAll(async () => {
  await target.close();
});

const LIST = '/projects/{id}/protected_branches' as const;
const ONE = '/projects/{id}/protected_branches/{name}' as const;
const FILE = '/projects/{id}/repository/files/{file_path}' as const;
const BRANCHES = '/projects/{id}/repository/branches' as const;
const BRANCH = '/projects/{id}/repository/branches/{branch}' as const;

function apiUrl(path: string): string {
  return `${target.config.baseUrl}/api/v4${path}`;
}

function projectUrl(id: string, rest: string): string {
  return apiUrl(`/projects/${encodeURIComponent(id)}${rest}`);
}

async function protect(name: string, body: Record<string, unknown> = {}, id = project) {
  const response = await target.fetch(projectUrl(id, '/protected_branches'), {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function commitFile(role: 'developer' | 'maintainer' | 'admin', branch: string, filePath: string) {
  return target.as(role).POST(FILE, {
    params: { path: { id: project, file_path: filePath } },
    body: { branch, content: `${role} was here\n`, commit_message: `${role} commits to ${branch}` },
  });
}

async function createBranch(branch: string) {
  const { response } = await target
    .as('maintainer')
    .POST(BRANCHES, { params: { path: { id: project } }, body: { branch, ref: 'main' } });
  expect(response.status).toBe(201);
}

// Every rule and branch this file creates has the run's suffix: a second run against the same server would
// find the names of the first taken (409), and its wildcard rules would match the new branches.

describe('listing protected branches', () => {
  it('lists the rules with string code_owner_approval_required and the role descriptions', async () => {
    const { data, response } = await target.as('maintainer').GET(LIST, { params: { path: { id: project } } });
    expect(response.status).toBe(200);
    const main = data?.find((rule) => rule.name === 'main');
    expect(main).toMatchObject({
      code_owner_approval_required: 'false',
      push_access_levels: [
        { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null },
      ],
    });
  });

  it('filters with search (part of the name, case-insensitive) and paginates with the headers', async () => {
    const names = [`${RUN}-list-a-*`, `${RUN}-list-b-*`, `${RUN}-LIST-c`];
    for (const name of names) expect((await protect(name)).status).toBe(201);
    const client = target.as('maintainer');
    const found = await client.GET(LIST, {
      params: { path: { id: project }, query: { search: `${RUN}-list-` } },
    });
    expect(found.data?.map((rule) => rule.name)).toEqual(names);
    const none = await client.GET(LIST, {
      params: { path: { id: project }, query: { search: 'no-such-rule' } },
    });
    expect(none.data).toEqual([]);

    const page = await client.GET(LIST, {
      params: { path: { id: project }, query: { search: `${RUN}-list`, per_page: 2, page: 2 } },
    });
    expect(page.data?.map((rule) => rule.name)).toEqual([`${RUN}-LIST-c`]);
    const headers = page.response.headers;
    expect(headers.get('X-Total')).toBe('3');
    expect(headers.get('X-Total-Pages')).toBe('2');
    expect(headers.get('X-Per-Page')).toBe('2');
    expect(headers.get('X-Page')).toBe('2');
    expect(headers.get('X-Next-Page')).toBe('');
    expect(headers.get('X-Prev-Page')).toBe('1');
    expect(headers.get('Link')).toMatch(/page=1[^>]*>; rel="prev"/);
    expect(headers.get('Link')).not.toMatch(/rel="next"/);
  });

  it('answers a page past the end, however large, with an empty list and the headers', async () => {
    const client = target.as('maintainer');
    const first = await client.GET(LIST, { params: { path: { id: project }, query: { per_page: 2 } } });
    const total = Number(first.response.headers.get('X-Total'));
    const huge = await client.GET(LIST, {
      // The largest page the spec takes (2^53 - 1), as the digits a client sends.
      params: {
        path: { id: project },
        query: { per_page: 2, page: Number.MAX_SAFE_INTEGER },
      },
    });
    expect(huge.response.status).toBe(200);
    expect(huge.data).toEqual([]);
    expect(huge.response.headers.get('X-Total')).toBe(String(total));
    expect(huge.response.headers.get('X-Total-Pages')).toBe(String(Math.max(1, Math.ceil(total / 2))));
    expect(huge.response.headers.get('X-Next-Page')).toBe('');
  });

  it('needs a token (401), maintainer access (403), the api or read_api scope (403), and hides private projects (404)', async () => {
    const params = { path: { id: project } };
    expect((await target.as('anonymous').GET(LIST, { params })).response.status).toBe(401);
    expect((await target.as('revoked').GET(LIST, { params })).response.status).toBe(401);
    expect((await target.as('developer').GET(LIST, { params })).response.status).toBe(403);
    const scoped = await target.as('developerReadRepository').GET(LIST, { params });
    expect(scoped.response.status).toBe(403);
    expect(scoped.error?.error).toBe('insufficient_scope');
    expect(
      (await target.as('outsider').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(404);
    expect(
      (
        await target
          .as('maintainer')
          .GET(LIST, { params: { path: { id: `${target.config.fixtures.namespace}/no-such-project` } } })
      ).response.status,
    ).toBe(404);
    expect(
      (await target.as('maintainer').GET(LIST, { params: { path: { id: privateProject } } })).response.status,
    ).toBe(200);
  });
});

describe('reading one protected branch', () => {
  it('reads a rule by its exact name, also URL-encoded wildcards', async () => {
    const slashed = `read-${RUN}/*`;
    const leading = `*-read-${RUN}-stable`;
    expect((await protect(slashed)).status).toBe(201);
    expect((await protect(leading)).status).toBe(201);
    const client = target.as('maintainer');
    const slash = await client.GET(ONE, { params: { path: { id: project, name: slashed } } });
    expect(slash.response.status).toBe(200);
    expect(slash.data?.name).toBe(slashed);
    const raw = await target.fetch(projectUrl(project, `/protected_branches/read-${RUN}%2F%2A`), {
      headers: { 'PRIVATE-TOKEN': target.config.tokens.maintainer },
    });
    expect(raw.status).toBe(200);
    const suffix = await client.GET(ONE, { params: { path: { id: project, name: leading } } });
    expect(suffix.data?.name).toBe(leading);
  });

  it('does not find a branch under its own name when only a wildcard protects it (404)', async () => {
    expect((await protect(`wild-${RUN}/*`)).status).toBe(201);
    const { response, error } = await target
      .as('maintainer')
      .GET(ONE, { params: { path: { id: project, name: `wild-${RUN}/one` } } });
    expect(response.status).toBe(404);
    expect(error?.message).toMatch(/404/);
  });

  it('needs a token (401) and maintainer access (403)', async () => {
    const params = { path: { id: project, name: 'main' } };
    expect((await target.as('anonymous').GET(ONE, { params })).response.status).toBe(401);
    expect((await target.as('developer').GET(ONE, { params })).response.status).toBe(403);
    expect(
      (await target.as('outsider').GET(ONE, { params: { path: { id: privateProject, name: 'main' } } }))
        .response.status,
    ).toBe(404);
  });
});

describe('protecting a branch', () => {
  it('protects with the defaults (40 each) and answers 201 with the unprotect levels', async () => {
    const { data, response } = await target
      .as('maintainer')
      .POST(LIST, { params: { path: { id: project } }, body: { name: `defaults-${RUN}` } });
    expect(response.status).toBe(201);
    const maintainers = [
      { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null },
    ];
    expect(data).toMatchObject({
      name: `defaults-${RUN}`,
      push_access_levels: maintainers,
      merge_access_levels: maintainers,
      unprotect_access_levels: maintainers,
      allow_force_push: false,
      code_owner_approval_required: 'false',
    });
  });

  it('takes levels as integers, as numeric strings in JSON and as form fields', async () => {
    const json = await protect(`levels-json-${RUN}`, {
      push_access_level: '30',
      merge_access_level: 0,
      unprotect_access_level: '60',
    });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      merge_access_levels: [{ access_level: 0, access_level_description: 'No one' }],
      unprotect_access_levels: [{ access_level: 60 }],
    });
    const form = await target.fetch(projectUrl(project, '/protected_branches'), {
      method: 'POST',
      headers: {
        'PRIVATE-TOKEN': target.config.tokens.maintainer,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        name: `levels-form-${RUN}`,
        push_access_level: '0',
        'allowed_to_push[][user_id]': String(developer.id),
        code_owner_approval_required: 'true',
      }),
    });
    expect(form.status).toBe(201);
    expect(await form.json()).toMatchObject({
      push_access_levels: [
        { access_level: 0 },
        { access_level: null, user_id: developer.id, access_level_description: developer.name },
      ],
      code_owner_approval_required: 'true',
    });
  });

  it('adds user and group grants: a member, and a group the project is shared with', async () => {
    const user = await protect(`grants-user-${RUN}`, {
      allowed_to_merge: [{ user_id: developer.id }],
      allowed_to_unprotect: [{ access_level: 60 }],
    });
    expect(user.status).toBe(201);
    expect(user.body.merge_access_levels).toEqual([
      { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null },
      {
        access_level: null,
        access_level_description: developer.name,
        user_id: developer.id,
        group_id: null,
      },
    ]);
    expect(user.body.unprotect_access_levels).toEqual([
      { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null },
      { access_level: 60, access_level_description: 'Administrators', user_id: null, group_id: null },
    ]);
    const group = await protect(
      `grants-group-${RUN}`,
      { allowed_to_push: [{ group_id: sharedGroup.id }] },
      sharedProject,
    );
    expect(group.status).toBe(201);
    expect(group.body.push_access_levels).toContainEqual({
      access_level: null,
      access_level_description: sharedGroup.name,
      user_id: null,
      group_id: sharedGroup.id,
    });
  });

  it('refuses a non-member user and a group the project is not shared with (422, nothing stored)', async () => {
    const result = await protect(`grants-bad-${RUN}`, {
      allowed_to_push: [{ user_id: outsider.id }],
      allowed_to_merge: [{ group_id: sharedGroup.id }],
      allowed_to_unprotect: [{ user_id: 999_999 }],
    });
    expect(result.status).toBe(422);
    const message = result.body.message as Record<string, string[]>;
    expect(message.push_access_levels?.[0]).toMatch(/user/);
    expect(message.merge_access_levels?.[0]).toMatch(/group/);
    expect(message.unprotect_access_levels?.[0]).toMatch(/user/);
    const after = await target
      .as('maintainer')
      .GET(ONE, { params: { path: { id: project, name: `grants-bad-${RUN}` } } });
    expect(after.response.status).toBe(404);
  });

  it('refuses a name that is no branch name or wildcard (400 by the spec pattern, nothing stored): an export must import again', async () => {
    for (const name of [`ctrl-\u0001-${RUN}`, `space ${RUN}`, `long-${RUN}-${'x'.repeat(256)}`]) {
      const result = await protect(name);
      expect(result.status, JSON.stringify(name)).toBe(400);
      expect(result.body.message).toEqual({ name: [expect.stringMatching(/^is (invalid|too long)/)] });
      const after = await target.as('maintainer').GET(ONE, { params: { path: { id: project, name } } });
      expect(after.response.status).toBe(404);
    }
  });

  it('answers 409 for a name that is already protected', async () => {
    expect((await protect(`twice-${RUN}`)).status).toBe(201);
    const again = await protect(`twice-${RUN}`, { push_access_level: 30 });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already exists/);
  });

  it('refuses invalid input with 400: no name, an unknown level, a grant naming two things', async () => {
    const client = target.as('maintainer');
    const missing = await client.POST(LIST, {
      params: { path: { id: project } },
      // @ts-expect-error name is required: the bad request is the point of the test
      body: { push_access_level: 40 },
    });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.error).toMatch(/name/);
    expect((await protect('bad-level', { push_access_level: 50 })).status).toBe(400);
    expect((await protect('bad-level', { merge_access_level: 'maintainer' })).status).toBe(400);
    expect(
      (
        await protect('bad-grant', {
          allowed_to_push: [{ user_id: developer.id, group_id: sharedGroup.id }],
        })
      ).status,
    ).toBe(400);
    expect((await protect('bad-grant', { allowed_to_push: [{ access_level: 20 }] })).status).toBe(400);
  });

  it('needs a token (401), maintainer access (403), the api scope (403), and hides private projects (404)', async () => {
    const params = { path: { id: project } };
    const body = { name: 'denied' };
    expect((await target.as('anonymous').POST(LIST, { params, body })).response.status).toBe(401);
    expect((await target.as('developer').POST(LIST, { params, body })).response.status).toBe(403);
    expect((await target.as('developerReadRepository').POST(LIST, { params, body })).response.status).toBe(
      403,
    );
    expect(
      (await target.as('outsider').POST(LIST, { params: { path: { id: privateProject } }, body })).response
        .status,
    ).toBe(404);
  });
});

describe('updating and unprotecting', () => {
  it('sets code_owner_approval_required, rendered as a string; an empty PATCH changes nothing', async () => {
    expect((await protect(`owners-${RUN}/*`)).status).toBe(201);
    const client = target.as('maintainer');
    const params = { path: { id: project, name: `owners-${RUN}/*` } };
    const on = await client.PATCH(ONE, { params, body: { code_owner_approval_required: true } });
    expect(on.response.status).toBe(200);
    expect(on.data?.code_owner_approval_required).toBe('true');
    const unchanged = await client.PATCH(ONE, { params });
    expect(unchanged.data?.code_owner_approval_required).toBe('true');
    const off = await client.PATCH(ONE, { params, body: { code_owner_approval_required: false } });
    expect(off.data?.code_owner_approval_required).toBe('false');
    expect((await client.GET(ONE, { params })).data?.code_owner_approval_required).toBe('false');
  });

  it("sets GitLab's allow_force_push when protecting and with PATCH, and shows it", async () => {
    const client = target.as('maintainer');
    const name = `force-${RUN}/*`;
    const created = await client.POST(LIST, {
      params: { path: { id: project } },
      body: { name, allow_force_push: true },
    });
    expect([created.response.status, created.data?.allow_force_push]).toEqual([201, true]);
    const params = { path: { id: project, name } };
    const off = await client.PATCH(ONE, { params, body: { allow_force_push: false } });
    expect([off.response.status, off.data?.allow_force_push]).toEqual([200, false]);
    expect((await client.GET(ONE, { params })).data?.allow_force_push).toBe(false);
    const listed = await client.GET(LIST, {
      params: { path: { id: project }, query: { search: `force-${RUN}` } },
    });
    expect(listed.data?.map((rule) => [rule.name, rule.allow_force_push])).toEqual([[name, false]]);
  });

  it('refuses PATCH with 401, 403, 404 and a non-boolean with 400', async () => {
    const params = { path: { id: project, name: 'main' } };
    const body = { code_owner_approval_required: true };
    expect((await target.as('anonymous').PATCH(ONE, { params, body })).response.status).toBe(401);
    expect((await target.as('developer').PATCH(ONE, { params, body })).response.status).toBe(403);
    expect(
      (
        await target
          .as('maintainer')
          .PATCH(ONE, { params: { path: { id: project, name: 'no-such-rule' } }, body })
      ).response.status,
    ).toBe(404);
    const notBoolean = await target.as('maintainer').PATCH(ONE, {
      params,
      // @ts-expect-error a string that is not a boolean: the bad request is the point of the test
      body: { code_owner_approval_required: 'sometimes' },
    });
    expect(notBoolean.response.status).toBe(400);
  });

  it('unprotects with 204 (the rule is gone, the branch stays) and 404 afterwards', async () => {
    const branch = target.config.fixtures.unprotectedBranch;
    expect((await protect(branch)).status).toBe(201);
    const client = target.as('maintainer');
    const params = { path: { id: project, name: branch } };
    const { response } = await client.DELETE(ONE, { params });
    expect(response.status).toBe(204);
    expect((await client.GET(ONE, { params })).response.status).toBe(404);
    expect((await client.GET(BRANCH, { params: { path: { id: project, branch } } })).data?.protected).toBe(
      false,
    );
    expect((await client.DELETE(ONE, { params })).response.status).toBe(404);
  });

  it("lets only callers the rule's unprotect levels allow unprotect (403 otherwise)", async () => {
    expect((await protect(`admins-only-${RUN}`, { unprotect_access_level: 60 })).status).toBe(201);
    expect((await protect(`nobody-${RUN}`, { unprotect_access_level: 0 })).status).toBe(201);
    const adminsOnly = { path: { id: project, name: `admins-only-${RUN}` } };
    const nobody = { path: { id: project, name: `nobody-${RUN}` } };
    const refused = await target.as('maintainer').DELETE(ONE, { params: adminsOnly });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.message).toMatch(/unprotect/);
    expect((await target.as('admin').DELETE(ONE, { params: nobody })).response.status).toBe(403);
    expect((await target.as('admin').DELETE(ONE, { params: adminsOnly })).response.status).toBe(204);
  });

  it('refuses DELETE with 401 and 403 below maintainer, even when a user grant names the caller', async () => {
    expect(
      (await protect(`dev-unprotect-${RUN}`, { allowed_to_unprotect: [{ user_id: developer.id }] })).status,
    ).toBe(201);
    const params = { path: { id: project, name: `dev-unprotect-${RUN}` } };
    expect((await target.as('anonymous').DELETE(ONE, { params })).response.status).toBe(401);
    expect((await target.as('developer').DELETE(ONE, { params })).response.status).toBe(403);
    expect((await target.as('maintainer').GET(ONE, { params })).response.status).toBe(200);
  });
});

describe('rules made through the API are enforced', () => {
  it('release/* (push 40) blocks a developer commit with 403 and lets a maintainer through', async () => {
    // A prefix of its own, so the rule is new even on a shared server where other files protected release/*.
    const prefix = `release-${RUN}`;
    const release = `${prefix}/1.0`;
    await createBranch(release);
    expect((await commitFile('developer', release, 'before-rule.txt')).response.status).toBe(201);
    expect((await protect(`${prefix}/*`)).status).toBe(201);
    const denied = await commitFile('developer', release, 'after-rule.txt');
    expect(denied.response.status).toBe(403);
    expect(denied.error?.message).toMatch(/not allowed to push/);
    expect((await commitFile('maintainer', release, 'after-rule.txt')).response.status).toBe(201);
    const branch = await target
      .as('developer')
      .GET(BRANCH, { params: { path: { id: project, branch: release } } });
    expect(branch.data).toMatchObject({ protected: true, developers_can_push: false, can_push: false });
  });

  it('push 30 lets developers push to a matching branch', async () => {
    await createBranch(`team-${RUN}-shared`);
    expect((await protect(`team-${RUN}-*`, { push_access_level: 30 })).status).toBe(201);
    expect((await commitFile('developer', `team-${RUN}-shared`, 'dev.txt')).response.status).toBe(201);
  });

  it('push 0 (*-stable) lets no one push, maintainers and administrators included', async () => {
    await createBranch(`1.x-${RUN}-stable`);
    expect((await protect(`*-${RUN}-stable`, { push_access_level: 0 })).status).toBe(201);
    for (const role of ['developer', 'maintainer', 'admin'] as const) {
      expect((await commitFile(role, `1.x-${RUN}-stable`, `${role}.txt`)).response.status).toBe(403);
    }
  });

  it('a user entry in allowed_to_push lets that user push where the role level does not', async () => {
    const urgent = `hotfix-${RUN}/urgent`;
    await createBranch(urgent);
    const rule = await protect(`hotfix-${RUN}/*`, {
      push_access_level: 0,
      allowed_to_push: [{ user_id: developer.id }],
    });
    expect(rule.status).toBe(201);
    expect((await commitFile('developer', urgent, 'fix.txt')).response.status).toBe(201);
    expect((await commitFile('maintainer', urgent, 'fix2.txt')).response.status).toBe(403);
  });

  it('protected branches are deleted by maintainers only, and unprotecting lifts that', async () => {
    const [a, b] = [`archive-${RUN}/a`, `archive-${RUN}/b`];
    await createBranch(a);
    await createBranch(b);
    expect((await protect(`archive-${RUN}/*`, { push_access_level: 30 })).status).toBe(201);
    const denied = await target
      .as('developer')
      .DELETE(BRANCH, { params: { path: { id: project, branch: a } } });
    expect(denied.response.status).toBe(400);
    expect(
      (await target.as('maintainer').DELETE(BRANCH, { params: { path: { id: project, branch: a } } }))
        .response.status,
    ).toBe(204);
    expect(
      (
        await target
          .as('maintainer')
          .DELETE(ONE, { params: { path: { id: project, name: `archive-${RUN}/*` } } })
      ).response.status,
    ).toBe(204);
    expect(
      (await target.as('developer').DELETE(BRANCH, { params: { path: { id: project, branch: b } } })).response
        .status,
    ).toBe(204);
  });
});
